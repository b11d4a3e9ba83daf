// analysis/hang/stall.hpp — where a run stopped: per communicator, the first operation that not
// every rank completed, and each rank's state in it.
// Contract (docs/cli.md, "hang"):
// - Only communicators whose input records each rank's operations as it enqueues them are judged
//   (RunCommunicator::progress_known: .npkt captures of Coll/P2p events); `judged` says whether
//   any was. Without KernelCh events (NPKIT_EVENTS=coll) every member reads kCompletionUnknown
//   (completion_known false): the verdict names the first operation some rank never called and
//   the ranks that enqueued it, and says that completion is unknown.
// - Ranks without data (RunCommunicator::absent_ranks: no file, a dangling link, an unreadable
//   file) are never spoken for: `ranks_without_data` lists them, the verdict names them first
//   ("rank 1 has no readable file; rank 0 waits on it": the ranks whose open proxy step in the
//   stuck operation waits on it), and what it says of the others names them ("rank 0, the only
//   rank with data, entered ...") instead of "every rank".
// - completion_unknown: no rank is stopped before the others, but some rank's last operation is
//   kCompletionUnknown (no kernel events for it): whether it finished cannot be told.
// - cannot_tell() (exit 3 of `hang`): ranks without data, or completion_unknown.
// - A member is settled when it is kCompleted or kCompletionUnknown, or when it belongs to a
//   collective (not a Send/Recv pair) that some rank completed — kernel and transfers
//   (kCompleted): a collective completes nowhere unless every rank took part, so the others'
//   missing KernelCh and ProxyStep stops are events never delivered (a proxy thread that ended
//   first), not a wait. A rank whose kernel finished with a transfer still open (kProxyPending)
//   completed nothing for the others: over the network a kernel finishes once its data is in
//   its proxy's buffers.
// - A rank's last completed operation is the latest instance, in the communicator's order, whose
//   member on that rank is settled. A rank is stopped at instance i when i comes after its
//   last completed one and the rank should hold i (every rank with data for a collective, the two
//   ends of a Send/Recv pair) but has not completed it. The stuck instance is the first instance
//   at which some rank is stopped; an instance a rank lacks while it completed a later one is a
//   gap in the data (the join reports it), not a stall.
// - Per rank in the stuck instance: kCompleted, kNeverCalled (no member; `other` names the
//   operation it is in instead, where it has one in flight on this communicator — a mismatch),
//   kEnqueued, kKernelRunning (channels running / finished of the operation's count, the open
//   proxy step), kProxyPending (its kernel finished, a transfer of its proxy did not),
//   kCompletionUnknown. `since_ns` is when the rank entered it (its API call or host start) for
//   a member, the end of its last completed operation's record otherwise; `before_end_ns` = the
//   rank's capture end − since (kUnknownTime where either is unknown). Where the capture end is
//   only the rank's last record (a live file: RunRank::end), the end is taken as the latest time
//   known of the rank and `at_least` is set: the rank waited that long or longer. Where its
//   process was still running when the file was read, `so_far_ns` = read time − since.
//   `waits_on` is the peer of the member's open proxy step.
//   since_ns is on the rank's own host clock (durations need no alignment); since_aligned_ns puts
//   it on the reference host's clock with the offsets the communicator's completed instances give
//   (analysis/align/host_offsets.hpp; `alignment` names the status: one host, aligned, ...).
// - typical_ns: the median GPU time of the communicator's timed instances of the same function
//   (0 when none): how long the operation usually takes, against how long it has been waited on.
// - divergence: the ranks' collectives (not Send/Recv pairs) in each rank's own order
//   (RunMember::order) are compared position by position; at the first position where their
//   functions differ: "the ranks' collectives differ from the 11th: AllReduce seq 10 on rank 0,
//   AllGather seq 0 on rank 1 (a mismatch)". It joins the verdict, stalled or not, unless the
//   verdict already names a rank in another operation.
// - verdict: one line naming the ranks that never arrived and those waiting, or that every rank
//   entered and none completed it, then what each rank in it waits for (the peer of its open
//   proxy step) or why it does not move (its kernel never started, its transfers are open), and
//   the ranks that others wait on while waiting on nobody ("look first at rank 1"); without a
//   stuck instance, that every rank completed its last operation. Durations say "at least" where
//   the capture end is only a last record, and "so far" where the process still runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "run/run.hpp"

namespace npkit {

enum class RankStallState : std::uint8_t {
  kCompleted,
  kNeverCalled,
  kEnqueued,
  kKernelRunning,
  kProxyPending,
  kCompletionUnknown
};

std::string_view stall_state_name(RankStallState s);  // "completed", "never called", ...

struct RankAtStall {
  std::int32_t rank = 0;
  RankStallState state = RankStallState::kCompleted;
  std::string detail;          // "kernel running on channels 0, 1 (0 of 2 finished); ..."
  std::string other;           // kNeverCalled: the operation it is in instead ("" = none)
  std::string last_completed;  // label of its last completed operation ("" = none)
  std::int64_t since_ns = kUnknownTime;
  std::int64_t since_aligned_ns = kUnknownTime;
  std::int64_t before_end_ns = kUnknownTime;
  bool at_least = false;                  // the capture end is only the rank's last record
  std::int64_t so_far_ns = kUnknownTime;  // its process still ran when read: read time − since
  std::int32_t waits_on = -1;             // the peer of its open proxy step (-1: none)
};

struct CommunicatorStall {
  const RunCommunicator* comm = nullptr;
  bool stalled = false;
  std::string func;  // of the stuck instance
  std::uint64_t seq = 0;
  std::string label;  // "AllReduce seq 137"
  std::vector<std::int32_t> ranks_missing;
  std::vector<std::int32_t> ranks_in_flight;
  std::vector<std::int32_t> ranks_completed;
  std::vector<RankAtStall> ranks;                // every rank with data, by rank
  std::vector<std::int32_t> ranks_without_data;  // RunCommunicator::absent_ranks
  bool completion_known = true;     // some member's progress is other than kCompletionUnknown
  bool completion_unknown = false;  // see the contract
  std::string last_completed;       // without a stall: the last instance every rank completed
  // Of a sampling capture (RunCommunicator::sample): the last instance timed on every rank with
  // data up to the stuck one (or the end), "" when none is; named where completion is unknown.
  std::string last_gpu_evidence;
  // Where the ranks' sequences of collectives first differ ("" when they agree): the first
  // position at which one rank called another collective than the others (a mismatch).
  std::string divergence;
  double typical_ns = 0;
  std::string alignment;  // how since_aligned_ns was made (HostAlignment::status_name)
  std::string verdict;

  bool cannot_tell() const { return !ranks_without_data.empty() || completion_unknown; }
};

struct HangAnalysis {
  bool judged = false;                   // some communicator records progress
  std::vector<CommunicatorStall> comms;  // the judged communicators, in the run's order

  bool stalled() const;
  bool cannot_tell() const;  // some communicator cannot_tell()
  bool lacks_ranks() const;  // some communicator has ranks without data
  // What `report` shows under "where it stopped": a stall, or ranks without data.
  bool worth_reporting() const { return stalled() || lacks_ranks(); }
};

HangAnalysis analyze_hang(const Run& run);

}  // namespace npkit
