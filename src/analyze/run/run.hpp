// run/run.hpp — one model of a run, whatever it was read from: per communicator its ranks (host,
// clock), the collective instances joined across them and what the join could not use.
// Contract:
// - Times are integer ns on each rank's own host clock (GPU times are converted at import);
//   offsets between hosts are not applied (analysis/align/host_offsets.hpp estimates them).
// - RunCommunicator::ranks lists the ranks that have data, by rank; absent_ranks the ranks of
//   0..nranks-1 that have none. An input without communicators has one, hash 0, whose scope is
//   the input's path.
// - RunInstance: one operation joined across ranks. bytes is nccl-tests' S (its size(B) column,
//   what algbw divides), count its count(elements) (0 when the element size is unknown). func is
//   NCCL's name ("AllReduce"), "SendRecv" for a Send joined with its Recv (sender, receiver set),
//   or the event's name where the input names no NCCL function. type, algo and proto are ""
//   where the input does not say. members are by rank; missing_ranks are ranks with data that
//   lack the instance. agree is false when the members disagree on count, data type, algorithm
//   or protocol (the values shown are the lowest rank's).
// - RunMember: timed when start/end hold the rank's GPU span of the operation over all its
//   channels; stale when it is untimed because a channel's GPU event read another operation's
//   timestamps (the operation ran; its GPU time is unknown); not_sampled when it is untimed because
//   the rank's capture sampled GPU timing (RunCommunicator::sample) and left this operation out:
//   no KernelCh event, by design. order is the operation's position in
//   the rank's stream of operations of the communicator (in start order); members launched in one
//   group share a non-zero group; launch_ns is when the host called the operation, kUnknownTime
//   where the input does not say.
// - Quality, set once when the run is read (run/time_quality.hpp): RunInstance::host_disagree
//   (its times of one host disagree) and RunMember::implausibly_short (its time is implausibly
//   short against its communicator's at the instance); a comparison uses clean members only.
// - kernel_phases: NCCL's own kernel phases of a timed member (run/kernel_phases.hpp), where the
//   input records them (.npkt captures of NCCL profiler API v7 with KernelPhase events); nullopt
//   elsewhere. tag: the user tag the rank's call carried (NCCL 2.31 ncclCollConfig_t
//   userProfilerTag; 0 = untagged or not recorded); RunInstance::tag is its lowest rank's.
// - progress: where the member's operation stood when the rank's capture ended, known where the
//   input records operations as ranks enqueue them (progress_known: .npkt Coll/P2p events; without
//   KernelCh, kCompletionUnknown); elsewhere every member reads kCompleted. in_flight holds the
//   details of each member not kCompleted (its instance index and rank); RunRank::capture_end_ns
//   is when the rank's capture ended on its host clock (kUnknownTime where the input does not say).
// - RunRank::end says what capture_end_ns is: the end the input recorded (a dump written at
//   finalize, exit or flush), or only the rank's last record (a live file: no dump was written;
//   the process went on, or died, some time after it). process_running, where the reader could
//   look (the rank's host is the machine reading it), says whether the process that wrote a live
//   file was still running when it was read (`read_ns`, host clock).
// - no_start_times (non-empty: why) marks a communicator whose input records each operation's
//   duration but not when it ran: members hold start 0 and end = their duration, in
//   the rank's stream order; what needs start times (back-to-back period, true time, arrival
//   skew, alignment, traces) is left out and says why.
// - RunRank::lost: the records the rank's writer says it lost (NCCL Inspector logs from v4.1: its
//   ring was full, or a pool); all zero where nothing is known to be lost. Which operations were
//   lost is unknown, so a communicator with a rank that lost collective records is incomplete
//   (collectives_incomplete()): any of its instances may lack that rank, and an operation lost
//   on every rank leaves no instance at all.
// - Instances are ordered by their earliest start over ranks. notes qualify the communicator's
//   times (e.g. a part of an operation no channel event covers); alltoall_unavailable says why the
//   input cannot show AlltoAll as one operation ("" when it can, or holds none).
// - Run::driver: the rows of a benchmark driver's results file (run/driver_results.hpp); such a
//   run is driver_only: one communicator with its ranks and no instances (rows empty for every
//   other input). RunCommunicator::from_spans marks a communicator joined from the input's spans
//   by occurrence (import/spans): no proxy steps or channel spans lie below its collectives.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "run/alltoall_peers.hpp"
#include "run/cross_rank_input.hpp"
#include "run/driver_results.hpp"
#include "run/flight_recorder.hpp"
#include "run/input_details.hpp"
#include "run/kernel_phases.hpp"
#include "run/proxy_steps.hpp"
#include "run/run_config.hpp"
#include "util/saturating.hpp"

namespace npkit {

inline constexpr std::int64_t kUnknownTime = std::numeric_limits<std::int64_t>::min();

enum class InputKind : std::uint8_t {
  kLegacyDump,
  kNpkt,
  kChromeTrace,
  kNcclTests,
  kInspector,
  kFlightRecorder
};

enum class CaptureEnd : std::uint8_t {
  kRecorded,    // the input says when the capture ended
  kLastRecord,  // only its last record is known: the capture ended then or later
};

// Records a rank's writer lost before writing them (counted by the writer itself).
struct LostRecords {
  std::uint64_t collectives = 0;
  std::uint64_t p2p = 0;    // point-to-point operations (Send/Recv)
  std::uint64_t proxy = 0;  // proxy records and proxy operations

  bool any() const { return collectives > 0 || p2p > 0 || proxy > 0; }
};

struct RunRank {
  std::int32_t rank = 0;
  std::int64_t capture_end_ns = kUnknownTime;
  CaptureEnd end = CaptureEnd::kRecorded;
  std::int32_t pid = 0;                 // 0 = unknown
  std::optional<bool> process_running;  // kLastRecord: the writer still ran when read
  std::int64_t read_ns = kUnknownTime;  // when process_running was found out
  std::string host;                     // "" = unknown
  std::string gpu;                      // its GPU's UUID where the input records it, "" = unknown
  std::string clock;                    // how GPU time was put on the host clock, for the reader
  std::optional<double> clock_uncertainty_ns;
  std::optional<ProxyStepBreakdown> proxy;          // where the input recorded NET proxy steps
  std::vector<AlltoallPeerTraffic> alltoall_peers;  // where the input shows AlltoAll's Send/Recv
  LostRecords lost;
};

enum class Progress : std::uint8_t {
  kCompleted,         // every channel of its kernel finished
  kEnqueued,          // the host enqueued it; no channel of its kernel started
  kKernelRunning,     // some channels started, not every one finished
  kProxyPending,      // every channel of its kernel finished, a proxy step is still open (over
                      // the network a kernel finishes once its data is in its proxy's buffers)
  kCompletionUnknown  // the capture cannot tell (no kernel channel events)
};

// The open proxy step furthest along of an operation in flight.
struct ProxyWait {
  std::uint32_t channel = 0;
  std::int32_t peer = -1;
  bool send = false;
  std::int64_t step = 0;   // 1-based
  std::int64_t steps = 0;  // of its proxy op
  std::string state;       // its last state ("RecvWait"), "" when none was recorded
};

struct InFlightDetail {
  std::size_t instance = 0;  // index into RunCommunicator::instances
  std::int32_t rank = 0;
  std::uint32_t channels = 0;          // the operation's channel count (0: unknown)
  std::vector<std::uint32_t> running;  // channels started, not finished
  std::uint32_t finished = 0;          // channel events finished
  std::optional<ProxyWait> proxy;
  std::int64_t last_event_ns = kUnknownTime;  // the latest record of the operation
};

// The share of a result's instances that must be timed for its time to stand unflagged
// (bandwidth's row flags, diff's and compare's quality floor).
inline constexpr double kTimedFloor = 0.5;

struct RunMember {
  std::int32_t rank = 0;
  bool timed = false;
  bool stale = false;
  bool not_sampled = false;
  Progress progress = Progress::kCompleted;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t launch_ns = kUnknownTime;
  std::uint32_t order = 0;
  std::uint32_t group = 0;
  std::uint32_t channels = 0;
  std::optional<KernelPhaseTimes> kernel_phases;
  std::uint64_t tag = 0;
  bool implausibly_short = false;  // run/time_quality.hpp

  std::int64_t duration_ns() const { return sat_sub(end_ns, start_ns); }
};

struct RunInstance {
  std::string func;
  std::string label;  // "AllReduce seq 5", "AllReduce seq 0 (occurrence 2)", "Send/Recv 0 -> 1 #3"
  std::uint64_t seq = 0;
  std::uint32_t occurrence = 0;
  std::int32_t sender = -1;
  std::int32_t receiver = -1;
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::string type;
  std::string algo;
  std::string proto;
  bool agree = true;
  std::uint64_t tag = 0;
  std::vector<RunMember> members;
  std::vector<std::int32_t> missing_ranks;
  bool host_disagree = false;  // run/time_quality.hpp

  bool is_pair() const { return sender >= 0; }
  std::size_t timed_members() const;
  // Left out of a sampling capture's GPU timing on every rank with data: no member timed, each
  // not_sampled (false without members).
  bool not_sampled() const;
  // A member whose time a comparison may use: timed, not implausibly short, of an instance whose
  // times of one host agree (run/time_quality.hpp).
  bool clean(const RunMember& m) const { return m.timed && !m.implausibly_short && !host_disagree; }
  std::size_t clean_members() const;
  bool has_short_member() const;
  bool has_stale_member() const;
  // What the instance is on `rank`: func, or for a Send/Recv pair "Send" on its sender and
  // "Recv" on its receiver.
  std::string op_on(std::int32_t rank) const;
};

struct RunCommunicator {
  std::uint64_t hash = 0;
  // The hash as the input writes it, where that is not 16 hex digits (the NCCL Inspector writes
  // its first 14: "90e7c16411eaee" for 90e7c16411eaeec7); "" otherwise.
  std::string id;
  std::string scope;        // "comm 0123456789abcdef", or the input's path
  std::string name;         // the communicator's name where the input has one
  std::string time_source;  // what member start/end are, for the reader
  std::int32_t nranks = 0;
  std::vector<RunRank> ranks;
  std::vector<std::int32_t> absent_ranks;
  std::vector<RunInstance> instances;
  std::vector<JoinGap> gaps;
  std::vector<std::string> notes;    // what a reader of its times should know, a line each
  std::string alltoall_unavailable;  // why no AlltoAll instance could be made, where known
  std::string no_start_times;        // why member starts are unknown ("" when known)
  bool progress_known = false;
  bool from_spans = false;
  // NPKIT_SAMPLE of the captures that sampled GPU timing ("1/100", "10ms/10s"; ranks that differ:
  // "1/100 (rank 0), off (rank 1)"); "" when none did. Members they left out are not_sampled.
  std::string sample;
  std::vector<InFlightDetail> in_flight;

  // Every rank names its host.
  bool hosts_known() const;
  // Every rank names the same host (or none does): the ranks' times are on one clock.
  bool one_clock() const;
  // A rank lost collective records: every instance may lack members, some may be missing.
  bool collectives_incomplete() const;
  // Sorts the instances by their earliest member start (stable; no members: last).
  void order_instances_by_start();
};

struct Run {
  std::string path;
  std::string label;  // names the run in summaries; "" = its path
  InputKind kind = InputKind::kNpkt;
  RunConfig config;  // formats, versions, environment, GPUs, hosts, files (communicators: empty)
  // What the input is, a line each (format, files, event table, clocks, hosts, environment).
  std::vector<InputFact> facts;
  InputDetails details;  // what `info` shows of the input's kind (run/input_details.hpp)
  // The reader streamed spans to the command's sinks (a capture of profiler events alone has none).
  bool has_spans = false;
  bool driver_only = false;  // a benchmark driver's results: `driver` holds its rows
  std::vector<RunCommunicator> comms;
  DriverResults driver;
  FlightRecorderDumps flight_recorder;  // PyTorch Flight Recorder dumps (empty for other inputs)
};

}  // namespace npkit
