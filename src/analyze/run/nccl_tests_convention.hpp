// nccl_tests_convention.hpp — algbw/busbw exactly as nccl-tests computes them.
// Contract: algbw = S / t in GB/s (1 GB = 1e9 B), busbw = algbw × factor(n). S and the factor
// depend on the collective (docs/phases.md, "Bandwidth"): AllReduce S = bytes, factor
// 2(n−1)/n; AllGather, ReduceScatter, AlltoAll S = per-rank bytes × n, factor (n−1)/n;
// Broadcast, Reduce, SendRecv S = bytes, factor 1.
// nccl_tests_bytes is S of one rank's operation of `count` elements; nccl_tests_count is
// nccl-tests' count(elements) column of an S: S / element size, / n for AllGather, ReduceScatter
// and AlltoAll. Both are 0 when the element size is 0 (unknown).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "run/nccl_names.hpp"

namespace npkit {

struct BusConvention {
  bool bytes_times_ranks = false;  // S = size field × n
  double factor = 1.0;
};

// nullopt for a collective name nccl-tests does not define.
std::optional<BusConvention> nccl_tests_convention(std::string_view func, std::uint32_t nranks);

std::uint64_t nccl_tests_bytes(NcclFunc func, std::uint64_t count, std::uint32_t element_size,
                               std::int32_t nranks);
std::uint64_t nccl_tests_count(NcclFunc func, std::uint64_t bytes, std::uint32_t element_size,
                               std::int32_t nranks);

// Bytes per nanosecond = GB/s; 0 when the duration is not positive.
inline double gb_per_s(double bytes, double ns) {
  return ns > 0 ? bytes / ns : 0.0;
}

// The collective names accepted by `--coll` and what they select: "all" every collective, a key
// (coll_key) the collectives of that key only.
bool coll_selects(std::string_view coll_option, std::string_view func);
bool valid_coll_option(std::string_view coll_option);
std::string coll_option_list();
// The `--coll` key a user's spelling names: NCCL's names in any case ("AllReduce", "ALLREDUCE",
// as the tables print them), nccl-tests' program names ("all_reduce") and the keys themselves;
// "Send" and "Recv" name "sendrecv". Nothing for any other text.
std::optional<std::string> coll_option_key(std::string_view typed);

}  // namespace npkit
