// h200_raw_spans.hpp — the collectives of a legacy NPKit dump read straight from its GPU files
// with the official generator's TIME_SYNC rule, no analyzer code: a second implementation that
// the real-data tests check the analyzer against.
// Contract: for each rank, in occurrence order, the k-th collective of `size` (the k-th EXIT of
// `entry_id` + 1 with that size on each of the rank's buffers) as the earliest ENTRY to the latest
// EXIT over the buffers, in ns on the host clock: host = cpu_sync + round((ticks - gpu_sync) /
// 1.98 GHz) (the H200 sets' clock rate, samples/npkit-h200/SOURCE.txt). Sizes of every value
// when `size` is 0.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npkit::test {

struct RawSpan {
  std::int64_t start = 0;
  std::int64_t end = 0;
};

// rank -> spans, for one size; h200_raw_spans_by_size gives every size at once.
std::map<int, std::vector<RawSpan>> h200_raw_spans(const std::string& dump, std::uint64_t size,
                                                   int entry_id);
// size -> rank -> spans.
std::map<std::uint64_t, std::map<int, std::vector<RawSpan>>> h200_raw_spans_by_size(
    const std::string& dump, int entry_id);

}  // namespace npkit::test
