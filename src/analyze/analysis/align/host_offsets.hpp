// analysis/align/host_offsets.hpp — clock offsets between hosts, from the collective instances
// joined across them. Contract:
// - Ranks with the same host share a clock. With hosts unknown (CrossRankInput::hosts_known false)
//   or a single host, no offset is estimated and every offset is 0 (status says which).
// - A collective cannot complete on any rank before its last rank arrived. With off_h the value
//   added to host h's times to put them on the reference host's clock (the host of the lowest
//   rank), every instance and ranks r on host a, r' on host b give
//   end_r + off_a >= start_r' + off_b, i.e. off_b - off_a <= end_r - start_r'. The tightest such
//   bounds form a system of difference constraints, closed by all-pairs shortest paths.
// - Inconsistent (a negative cycle: no offsets satisfy every instance, e.g. a clock jumped or the
//   join is wrong): status kInconsistent, every offset 0, nothing corrected.
// - Otherwise each host's feasible interval relative to the reference is [lower, upper]; a host
//   with an unbounded side is not linked (offset 0, not corrected). Linked hosts, in host order,
//   get the midpoint of their interval given the hosts fixed before them, so the offsets satisfy
//   every constraint together; uncertainty = the largest distance from the offset to either end
//   of its feasible interval (the true offset lies within offset ± uncertainty when the data
//   hold).
// - Instances whose times of one host disagree (one rank completed before another of its host
//   arrived, analysis/align/host_agreement.hpp) say nothing about offsets there: counted as
//   same_host_violations (instances), with the largest disagreement.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/cross_rank_input.hpp"

namespace npkit {

enum class AlignmentStatus { kHostsUnknown, kOneHost, kAligned, kInconsistent };

struct HostOffset {
  std::string host;
  std::vector<std::int32_t> ranks;
  bool reference = false;
  bool linked = false;
  double offset_ns = 0;  // added to this host's times
  double lower_ns = 0;   // feasible interval (linked hosts)
  double upper_ns = 0;
  double uncertainty_ns = 0;
  std::uint64_t instances = 0;  // instances with ranks on this host and on another
};

struct HostAlignment {
  AlignmentStatus status = AlignmentStatus::kHostsUnknown;
  std::vector<HostOffset> hosts;  // reference first, then by lowest rank
  std::uint64_t same_host_violations = 0;
  std::int64_t same_host_violation_max_ns = 0;

  // The offset to add to `rank`'s times (0 for a rank of no listed host).
  double offset_of(std::int32_t rank) const;
  // `rank`'s time `t` on the reference host's clock: t + the offset rounded to ns (saturating).
  std::int64_t aligned(std::int32_t rank, std::int64_t t) const;
  // "one host", "hosts unknown (one host assumed)", "aligned", "inconsistent (not corrected)".
  std::string status_name() const;
};

HostAlignment estimate_host_offsets(const CrossRankInput& input);

}  // namespace npkit
