// analysis/diff/row_quality.hpp — how much of a collective row was timed, so that a comparison
// says what it rests on. Contract:
// - instances: the row's instances; timed: those with a GPU time on at least one rank
//   (instances − untimed_instances); stale: instances whose GPU time a stale channel event cost
//   on some rank (stale_instances); incomplete: instances of a communicator whose log lost
//   collective records (incomplete_instances); ranks_timed: ranks with a timed instance; nranks:
//   the communicator size of the row.
// - not_sampled: instances a sampling capture left out of GPU timing (NPKIT_SAMPLE); the
//   others are the sampled ones, and the floor and text() count against those.
// - below_floor(): fewer than kQualityFloor of the sampled instances timed, or none timed; and
//   is_incomplete(): an instance is incomplete, so the row may lack instances and samples. Such a
//   row is marked wherever it is compared (diff's detail, compare does not rank it).
// - flagged: timed instances with a timed member that is not clean (host_disagree, short_: by
//   which flag); too_few_clean(): fewer than kQualityFloor of the timed instances are unflagged.
// - text(): "21/23 timed, 2/2 ranks" ("sampled 3 of 24: 3/3 timed, 2/2 ranks" where a sampling
//   capture left instances out), with ", 2 stale on a rank" where any instance is,
//   ", 3 flagged" where any is and ", 23 incomplete (records lost)" where any is.
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
  std::uint64_t not_sampled = 0;  // untimed by a sampling capture's choice (not a quality loss)
  std::uint64_t stale = 0;
  std::uint64_t incomplete = 0;
  std::int32_t ranks_timed = 0;
  std::int32_t nranks = 0;
  std::uint64_t flagged = 0;  // timed instances with a member not clean (run_summary.hpp)
  std::uint64_t host_disagree = 0;
  std::uint64_t short_ = 0;

  bool below_floor() const;
  // Timed instances, fewer than kQualityFloor of which are unflagged.
  bool too_few_clean() const;
  // "12/12 timed flagged: 12 host-disagree"
  std::string flag_text() const;
  bool is_incomplete() const { return incomplete > 0; }
  std::string text() const;
};

// The quality of one row, or of rows pooled (compare's cell of several algo/proto rows).
RowQuality quality_of(const std::vector<const CollectiveRow*>& rows);

}  // namespace npkit
