// analysis/export/instance_records.hpp — one record per collective instance, the shape monitoring
// pipelines ingest, computed from the run model the same way for every input kind.
// Contract:
// - Every instance of every communicator (Send/Recv pairs included), in the run's order,
//   optionally only those `coll` selects (run/nccl_tests_convention.hpp coll_selects on the
//   instance's coll_key; "all" keeps every one).
// - Per member: rank, host, timed, stale, not_sampled (left out of GPU timing by a sampling
//   capture, run/run.hpp), implausibly_short (run/time_quality.hpp), and, when
// timed, start/end on the aligned host clock
//   (the rank's own times plus its host's offset, analysis/align/host_offsets.hpp; 0 on one
//   host) and its time (end − start, which no offset changes); its kernel phases as the run has
//   them (run/kernel_phases.hpp).
// - time = the mean over timed members of their times (the glossary's "time" of a row, for one
//   instance); algbw = S / time, busbw = algbw × nccl-tests' factor for the communicator's nranks
//   (none for functions nccl-tests does not define). true time = the last rank's start to the
//   last rank's end, only when every rank is timed (a Send/Recv pair: both ends), no rank is
//   missing and the ranks' times are on one clock (one host, or hosts unknown) — as bandwidth's
//   true time takes it; true algbw / busbw from it.
// - clock says what the aligned times are: "one host", "hosts unknown (one host assumed)",
//   "aligned", "inconsistent (not corrected)", or "no start times" (starts false: the input
//   records each member's time, not when it ran; run/run.hpp no_start_times).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "run/run.hpp"

namespace npkit {

struct MemberRecord {
  std::int32_t rank = 0;
  std::string host;
  bool timed = false;
  bool stale = false;
  bool not_sampled = false;        // run/run.hpp RunMember::not_sampled
  bool implausibly_short = false;  // run/time_quality.hpp
  std::int64_t start_ns = 0;       // aligned, when timed
  std::int64_t end_ns = 0;
  std::uint32_t channels = 0;
  std::optional<KernelPhaseTimes> kernel_phases;  // NCCL's kernel phases, where recorded
};

struct InstanceRecord {
  std::uint64_t comm_hash = 0;
  std::string scope;
  std::int32_t nranks = 0;
  std::string clock;
  bool starts = true;  // members' start/end are times on a clock (else only end − start is)
  const RunInstance* instance = nullptr;  // func, seq, label, bytes, count, type, algo, proto
  std::vector<MemberRecord> members;
  std::size_t timed = 0;
  std::optional<double> time_ns;
  std::optional<double> algbw_gbps;
  std::optional<double> busbw_gbps;
  std::optional<std::int64_t> true_time_ns;
  std::optional<double> true_algbw_gbps;
  std::optional<double> true_busbw_gbps;
};

// Records point into `run`, which must outlive them.
std::vector<InstanceRecord> instance_records(const Run& run, std::string_view coll = "all");

}  // namespace npkit
