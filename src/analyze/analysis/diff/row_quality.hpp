// analysis/diff/row_quality.hpp — how much of a collective row was timed, so that a comparison
// says what it rests on. Contract:
// - instances: the row's instances; timed: those with a GPU time on at least one rank
//   (instances − untimed_instances); stale: instances whose GPU time a stale channel event cost
//   on some rank (stale_instances); incomplete: instances of a communicator whose log lost
//   collective records (incomplete_instances); ranks_timed: ranks with a timed instance; nranks:
//   the communicator size of the row.
// - below_floor(): fewer than kQualityFloor of the instances timed, or no instance timed; and
//   is_incomplete(): an instance is incomplete, so the row may lack instances and samples. Such a
//   row is marked wherever it is compared (diff's detail, compare does not rank it).
// - text(): "21/23 timed, 2/2 ranks", with ", 2 stale on a rank" where any instance is and
//   ", 23 incomplete (records lost)" where any is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit {

inline constexpr double kQualityFloor = kTimedFloor;  // run/run.hpp

struct RowQuality {
  std::uint64_t instances = 0;
  std::uint64_t timed = 0;
  std::uint64_t stale = 0;
  std::uint64_t incomplete = 0;
  std::int32_t ranks_timed = 0;
  std::int32_t nranks = 0;

  bool below_floor() const;
  bool is_incomplete() const { return incomplete > 0; }
  std::string text() const;
};

// The quality of one row, or of rows pooled (compare's cell of several algo/proto rows).
RowQuality quality_of(const std::vector<const CollectiveRow*>& rows);

}  // namespace npkit
