// Where a run stopped, on hand-made runs: the stuck instance and each rank's state in it, a
// mismatch, a gap that is not a stall, every rank in flight, Send/Recv pairs, nothing stuck.
#include "analysis/hang/stall.hpp"

#include <catch2/catch.hpp>

using npkit::Progress;
using npkit::RankStallState;

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

// A completed member: called at `launch`, GPU span [launch + 1000, launch + 1000 + gpu].
npkit::RunMember done(std::int32_t rank, std::int64_t launch, std::int64_t gpu) {
  npkit::RunMember m;
  m.rank = rank;
  m.timed = true;
  m.launch_ns = launch;
  m.start_ns = launch + 1000;
  m.end_ns = launch + 1000 + gpu;
  return m;
}

npkit::RunMember in_flight(std::int32_t rank, std::int64_t launch, Progress p) {
  npkit::RunMember m;
  m.rank = rank;
  m.launch_ns = launch;
  m.progress = p;
  return m;
}

npkit::RunInstance instance(const std::string& func, std::uint64_t seq,
                            std::vector<npkit::RunMember> members) {
  npkit::RunInstance i;
  i.func = func;
  i.seq = seq;
  i.label = func + " seq " + std::to_string(seq);
  i.members = std::move(members);
  return i;
}

// Two ranks whose captures end at 10 s; AllReduce seq 0 and 1 completed on both (GPU times 10,
// 20, 30, 40 us: median 25 us).
npkit::RunCommunicator two_ranks() {
  npkit::RunCommunicator c;
  c.scope = "comm 0000000000000001";
  c.nranks = 2;
  c.progress_known = true;
  for (std::int32_t r = 0; r < 2; ++r) {
    npkit::RunRank rank;
    rank.rank = r;
    rank.capture_end_ns = 10 * kSecond;
    c.ranks.push_back(rank);
  }
  c.instances.push_back(instance("AllReduce", 0, {done(0, 1000, 10000), done(1, 2000, 20000)}));
  c.instances.push_back(instance("AllReduce", 1, {done(0, 100000, 30000), done(1, 100000, 40000)}));
  return c;
}

npkit::HangAnalysis analyze(const npkit::RunCommunicator& c) {
  npkit::Run run;
  run.comms.push_back(c);
  auto h = npkit::analyze_hang(run);
  REQUIRE(h.comms.size() == 1);
  // The analysis points into the run; keep the pieces it needs by value.
  for (auto& s : h.comms) s.comm = nullptr;
  return h;
}

}  // namespace

TEST_CASE("hang: a rank that never called, the other waiting in its kernel", "[hang]") {
  auto c = two_ranks();
  // seq 2: rank 0 called it at 2 s and runs channels 0 and 1 of 2, its proxy waiting on step 3 of
  // 4 from rank 1; rank 1 never called it.
  c.instances.push_back(
      instance("AllReduce", 2, {in_flight(0, 2 * kSecond, Progress::kKernelRunning)}));
  c.instances.back().missing_ranks = {1};
  npkit::InFlightDetail d;
  d.instance = 2;
  d.rank = 0;
  d.channels = 2;
  d.running = {0, 1};
  d.proxy = npkit::ProxyWait{0, 1, false, 3, 4, "ProxyStepRecvWait"};
  c.in_flight.push_back(d);
  const auto h = analyze(c);
  CHECK(h.judged);
  CHECK(h.stalled());
  const auto& s = h.comms[0];
  CHECK(s.label == "AllReduce seq 2");
  CHECK(s.func == "AllReduce");
  CHECK(s.seq == 2);
  CHECK(s.ranks_missing == std::vector<std::int32_t>{1});
  CHECK(s.ranks_in_flight == std::vector<std::int32_t>{0});
  CHECK(s.ranks_completed.empty());
  CHECK(s.typical_ns == 25000);
  REQUIRE(s.ranks.size() == 2);
  CHECK(s.ranks[0].state == RankStallState::kKernelRunning);
  CHECK(s.ranks[0].detail ==
        "kernel running on channel(s) 0, 1 (0 of 2 finished); proxy step 3 of 4 on channel 0 "
        "receiving from rank 1: ProxyStepRecvWait");
  CHECK(s.ranks[0].last_completed == "AllReduce seq 1");
  CHECK(s.ranks[0].before_end_ns == 8 * kSecond);  // 10 s - its call at 2 s
  CHECK(s.ranks[1].state == RankStallState::kNeverCalled);
  CHECK(s.ranks[1].last_completed == "AllReduce seq 1");
  // Its last GPU end: 100000 + 1000 + 40000 ns.
  CHECK(s.ranks[1].since_ns == 141000);
  CHECK(s.ranks[1].before_end_ns == 10 * kSecond - 141000);
  CHECK(s.verdict ==
        "rank 1 never called AllReduce seq 2; rank 0 has waited in it for 8.000 s before its "
        "capture ended (it usually takes 25.00 us)");
}

TEST_CASE("hang: a rank in another collective is a mismatch", "[hang]") {
  auto c = two_ranks();
  c.instances.push_back(instance("AllReduce", 2, {in_flight(0, 2 * kSecond, Progress::kEnqueued)}));
  c.instances.push_back(instance("Broadcast", 0, {in_flight(1, 3 * kSecond, Progress::kEnqueued)}));
  const auto h = analyze(c);
  const auto& s = h.comms[0];
  CHECK(s.label == "AllReduce seq 2");
  CHECK(s.ranks[0].detail == "enqueued; no channel of its kernel started");
  CHECK(s.ranks[1].other == "Broadcast seq 0");
  CHECK(s.ranks[1].detail ==
        "never called it; in Broadcast seq 0 instead (enqueued; no channel of its kernel started)");
  CHECK(
      s.verdict ==
      "rank 1 never called AllReduce seq 2 (it is in Broadcast seq 0 instead: a mismatch); rank 0 "
      "has waited in it for 8.000 s before its capture ended (it usually takes 25.00 us)");
}

TEST_CASE("hang: nothing stuck, and a lost instance is a gap, not a stall", "[hang]") {
  auto c = two_ranks();
  // Rank 1 lacks seq 1 (records lost) but completed seq 2: no stall.
  c.instances[1].members.pop_back();
  c.instances[1].missing_ranks = {1};
  c.instances.push_back(instance("AllReduce", 2, {done(0, 200000, 10000), done(1, 200000, 10000)}));
  const auto h = analyze(c);
  CHECK_FALSE(h.stalled());
  const auto& s = h.comms[0];
  CHECK_FALSE(s.stalled);
  CHECK(s.last_completed == "AllReduce seq 2");
  CHECK(s.verdict == "nothing is stuck: every rank completed its last operation (AllReduce seq 2)");
  CHECK(s.ranks[1].before_end_ns == 10 * kSecond - 211000);
}

TEST_CASE("hang: a collective one rank completed is done everywhere", "[hang]") {
  // Rank 0's proxy thread delivered no KernelCh stop for seq 2 (it shows enqueued), but rank 1
  // completed seq 2 and seq 3: an AllReduce cannot complete on one rank alone, so nothing is
  // stuck. A Send/Recv pair gets no such inference: its sender may finish alone.
  auto c = two_ranks();
  c.instances.push_back(instance(
      "AllReduce", 2, {in_flight(0, 200000, Progress::kEnqueued), done(1, 200000, 10000)}));
  c.instances.push_back(instance(
      "AllReduce", 3, {in_flight(0, 300000, Progress::kEnqueued), done(1, 300000, 10000)}));
  auto h = analyze(c);
  CHECK_FALSE(h.stalled());
  CHECK(h.comms[0].last_completed == "AllReduce seq 3");

  auto pair = instance("SendRecv", 0,
                       {done(0, 400000, 1000), in_flight(1, 400000, Progress::kKernelRunning)});
  pair.sender = 0;
  pair.receiver = 1;
  pair.label = "Send/Recv 0 -> 1 #0";
  c.instances.push_back(pair);
  h = analyze(c);
  REQUIRE(h.stalled());
  CHECK(h.comms[0].label == "Send/Recv 0 -> 1 #0");
  CHECK(h.comms[0].ranks_completed == std::vector<std::int32_t>{0});
  CHECK(h.comms[0].ranks_in_flight == std::vector<std::int32_t>{1});
}

TEST_CASE("hang: every rank inside one operation, none completed", "[hang]") {
  auto c = two_ranks();
  c.instances.push_back(instance("AllReduce", 2,
                                 {in_flight(0, 9 * kSecond, Progress::kKernelRunning),
                                  in_flight(1, 7 * kSecond, Progress::kKernelRunning)}));
  const auto h = analyze(c);
  const auto& s = h.comms[0];
  CHECK(s.ranks_in_flight == std::vector<std::int32_t>{0, 1});
  CHECK(s.ranks[0].detail == "kernel running");  // no detail recorded for it
  CHECK(s.verdict ==
        "every rank entered AllReduce seq 2 and none completed it; the first arrived 3.000 s "
        "before its capture ended (it usually takes 25.00 us): a peer or transport stall, or the "
        "job ended during the operation");
}

TEST_CASE("hang: a Send/Recv pair expects only its two ends, and unknown progress is not judged",
          "[hang]") {
  auto c = two_ranks();
  npkit::RunRank third;
  third.rank = 2;
  third.capture_end_ns = 10 * kSecond;
  c.ranks.push_back(third);
  c.nranks = 3;
  for (auto& inst : c.instances) inst.members.push_back(done(2, 100, 1000));
  auto pair = instance("SendRecv", 0, {in_flight(0, 5 * kSecond, Progress::kEnqueued)});
  pair.sender = 0;
  pair.receiver = 1;
  pair.label = "Send/Recv 0 -> 1 #0";
  c.instances.push_back(pair);
  auto h = analyze(c);
  const auto& s = h.comms[0];
  CHECK(s.label == "Send/Recv 0 -> 1 #0");
  REQUIRE(s.ranks.size() == 2);  // rank 2 takes no part
  CHECK(s.ranks_missing == std::vector<std::int32_t>{1});

  c.progress_known = false;
  npkit::Run run;
  run.comms.push_back(c);
  CHECK_FALSE(npkit::analyze_hang(run).judged);
}

namespace {

// The detail of an in-flight member: its open proxy step of `steps` with `peer`.
npkit::InFlightDetail open_step(std::size_t instance, std::int32_t rank, std::int32_t peer,
                                bool send, std::int64_t last_event_ns) {
  npkit::InFlightDetail d;
  d.instance = instance;
  d.rank = rank;
  d.channels = 2;
  d.proxy = npkit::ProxyWait{0, peer, send, 4, 4, send ? "ProxyStepSendWait" : "ProxyStepRecvWait"};
  d.last_event_ns = last_event_ns;
  return d;
}

}  // namespace

TEST_CASE("hang: a finished kernel with a transfer still open completes nothing for the others",
          "[hang]") {
  // Over the network a kernel finishes once its data is in its proxy's buffers. Rank 1's kernel
  // of seq 2 finished but its proxy's send to rank 0 did not (the process was killed); rank 0
  // waits in seq 2 to receive from rank 1. Neither completed it: both are stuck there.
  auto c = two_ranks();
  c.instances.push_back(instance("AllReduce", 2,
                                 {in_flight(0, 2 * kSecond, Progress::kKernelRunning),
                                  in_flight(1, 3 * kSecond, Progress::kProxyPending)}));
  c.in_flight.push_back(open_step(2, 0, 1, false, 2 * kSecond));
  c.in_flight.push_back(open_step(2, 1, 0, true, 3 * kSecond));
  const auto h = analyze(c);
  REQUIRE(h.stalled());
  const auto& s = h.comms[0];
  CHECK(s.label == "AllReduce seq 2");
  CHECK(s.ranks_in_flight == std::vector<std::int32_t>{0, 1});
  CHECK(s.ranks[1].state == RankStallState::kProxyPending);
  CHECK(s.ranks[1].detail ==
        "kernel finished; its proxy's transfer is not; proxy step 4 of 4 on channel 0 sending to "
        "rank 0: ProxyStepSendWait");
  CHECK(s.ranks[0].waits_on == 1);
  CHECK(s.ranks[1].waits_on == 0);
  // Rank 0 arrived at 2 s, 8 s before its capture ended; they wait on each other: no suspect.
  CHECK(s.verdict ==
        "every rank entered AllReduce seq 2 and none completed it (rank 0 waits on rank 1 and "
        "rank 1 waits on rank 0); the first arrived 8.000 s before its capture ended (it usually "
        "takes 25.00 us): a peer or transport stall, or the job ended during the operation");
}

TEST_CASE("hang: the rank others wait on while it waits on no one comes first", "[hang]") {
  // Rank 1 was killed right after its call of seq 2 returned: its kernel never started. Rank 0
  // waits in seq 2 for data from rank 1.
  auto c = two_ranks();
  c.instances.push_back(instance("AllReduce", 2,
                                 {in_flight(0, 2 * kSecond, Progress::kEnqueued),
                                  in_flight(1, 4 * kSecond, Progress::kEnqueued)}));
  c.in_flight.push_back(open_step(2, 0, 1, false, 2 * kSecond));
  const auto h = analyze(c);
  const auto& s = h.comms[0];
  CHECK(s.verdict ==
        "every rank entered AllReduce seq 2 and none completed it (rank 0 waits on rank 1 and "
        "rank 1's kernel never started); look first at rank 1; the first arrived 8.000 s before "
        "its capture ended (it usually takes 25.00 us): a peer or transport stall, or the job "
        "ended during the operation");
}

TEST_CASE("hang: a live file's end is a lower bound, and a process still running waits so far",
          "[hang]") {
  // Rank 0 entered seq 2 at 2 s; rank 1 never called it. Rank 0 wrote no dump (a live file):
  // its capture end is only its last record, and its last record of seq 2 is at 11 s, later than
  // the capture end its header gives (10 s).
  auto c = two_ranks();
  c.instances.push_back(
      instance("AllReduce", 2, {in_flight(0, 2 * kSecond, Progress::kKernelRunning)}));
  c.instances.back().missing_ranks = {1};
  c.in_flight.push_back(open_step(2, 0, 1, false, 11 * kSecond));
  c.ranks[0].end = npkit::CaptureEnd::kLastRecord;
  {
    const auto h = analyze(c);
    const auto& s = h.comms[0];
    CHECK(s.ranks[0].at_least);
    CHECK(s.ranks[0].before_end_ns == 9 * kSecond);  // 11 s - 2 s
    CHECK(s.ranks[0].so_far_ns == npkit::kUnknownTime);
    CHECK_FALSE(s.ranks[1].at_least);
    CHECK(s.verdict ==
          "rank 1 never called AllReduce seq 2; rank 0 has waited in it for at least 9.000 s "
          "(its live file ends at its last record) (it usually takes 25.00 us)");
  }
  // Read on its machine at 20 s while its process still runs: 18 s so far.
  c.ranks[0].process_running = true;
  c.ranks[0].read_ns = 20 * kSecond;
  const auto h = analyze(c);
  const auto& s = h.comms[0];
  CHECK(s.ranks[0].so_far_ns == 18 * kSecond);
  CHECK(s.verdict ==
        "rank 1 never called AllReduce seq 2; rank 0 has waited in it for 18.00 s so far (its "
        "process still runs) (it usually takes 25.00 us)");
}

TEST_CASE("hang: the first position where the ranks' collectives differ is a mismatch", "[hang]") {
  // Rank 0 calls AllReduce 0, 1, 2; rank 1 calls AllReduce 0, then Broadcast 0 where rank 0
  // called AllReduce 1, then AllReduce 1. Every operation completed.
  auto c = two_ranks();
  c.instances[0].members[0].order = 0;
  c.instances[0].members[1].order = 0;
  c.instances[1].members[0].order = 1;
  c.instances[1].members[1].order = 2;
  c.instances.push_back(instance("AllReduce", 2, {done(0, 300000, 1000)}));
  c.instances.back().members[0].order = 2;
  c.instances.back().missing_ranks = {1};
  c.instances.push_back(instance("Broadcast", 0, {done(1, 200000, 1000)}));
  c.instances.back().members[0].order = 1;
  c.instances.back().missing_ranks = {0};
  const auto h = analyze(c);
  const auto& s = h.comms[0];
  CHECK(s.divergence ==
        "the ranks' collectives differ from the 2nd: AllReduce seq 1 on rank 0 and Broadcast seq "
        "0 on rank 1 (a mismatch)");
  CHECK_THAT(s.verdict, Catch::EndsWith("; " + s.divergence));

  // Ranks that agree as far as each goes do not differ (one simply made fewer calls).
  auto agree = two_ranks();
  agree.instances[1].members[0].order = 1;
  agree.instances[1].members[1].order = 1;
  agree.instances.push_back(instance("AllReduce", 2, {done(0, 300000, 1000)}));
  agree.instances.back().members[0].order = 2;
  CHECK(analyze(agree).comms[0].divergence.empty());
}

namespace {

// two_ranks() as a capture without kernel events would give it: every member enqueued, its
// completion unknown, nothing timed.
npkit::RunCommunicator two_ranks_without_kernel_events() {
  auto c = two_ranks();
  for (auto& inst : c.instances) {
    for (auto& m : inst.members) {
      m.timed = false;
      m.progress = Progress::kCompletionUnknown;
    }
  }
  return c;
}

}  // namespace

TEST_CASE("hang: completion unknown is never taken for completed", "[hang]") {
  // Both ranks enqueued AllReduce seq 0 and 1, and the capture records nothing after: whether
  // seq 1 finished cannot be told, so nothing may be said to be unstuck.
  auto c = two_ranks_without_kernel_events();
  {
    const auto h = analyze(c);
    CHECK(h.judged);
    CHECK_FALSE(h.stalled());
    CHECK(h.cannot_tell());
    const auto& s = h.comms[0];
    CHECK_FALSE(s.completion_known);
    CHECK(s.completion_unknown);
    CHECK(s.last_completed == "AllReduce seq 1");
    REQUIRE(s.ranks.size() == 2);
    CHECK(s.ranks[0].state == RankStallState::kCompletionUnknown);
    CHECK(s.ranks[1].detail == "enqueued; completion unknown without kernel events");
    CHECK(s.verdict ==
          "no rank is behind the others: every rank enqueued AllReduce seq 1 last; completion "
          "unknown without kernel events (the capture's NPKIT_EVENTS lacks kernel): whether it "
          "finished cannot be told");
  }
  // Rank 0 enqueued seq 2 at 2 s; rank 1 never called it: a stall, rank 0's part unknown.
  auto seq2 = in_flight(0, 2 * kSecond, Progress::kCompletionUnknown);
  c.instances.push_back(instance("AllReduce", 2, {seq2}));
  c.instances.back().missing_ranks = {1};
  {
    const auto h = analyze(c);
    CHECK(h.stalled());
    CHECK_FALSE(h.cannot_tell());
    const auto& s = h.comms[0];
    CHECK(s.label == "AllReduce seq 2");
    CHECK(s.ranks_missing == std::vector<std::int32_t>{1});
    CHECK(s.ranks_in_flight == std::vector<std::int32_t>{0});
    CHECK(s.ranks[0].state == RankStallState::kCompletionUnknown);
    CHECK(s.ranks[0].before_end_ns == 8 * kSecond);  // 10 s - its call at 2 s
    CHECK(s.verdict ==
          "rank 1 never called AllReduce seq 2; rank 0 enqueued it 8.000 s before its capture "
          "ended; completion unknown without kernel events");
  }
  // With kernel events, a last operation whose completion is not recorded (a copy-engine
  // collective) is no proof either.
  auto ce = two_ranks();
  ce.instances.push_back(instance("AllGather", 0,
                                  {in_flight(0, 200000, Progress::kCompletionUnknown),
                                   in_flight(1, 200000, Progress::kCompletionUnknown)}));
  const auto h = analyze(ce);
  CHECK(h.comms[0].completion_known);
  CHECK(h.comms[0].completion_unknown);
  CHECK(h.cannot_tell());
  CHECK_THAT(h.comms[0].verdict, Catch::StartsWith("no rank is behind the others: every rank "
                                                   "enqueued AllGather seq 0 last; its "
                                                   "completion is not recorded"));
}

TEST_CASE("hang: a sampled capture names the last operation with GPU evidence", "[hang]") {
  // NPKIT_SAMPLE=1/2: AllReduce seq 1 was sampled (timed on both ranks), seq 0 and seq 2 not;
  // rank 1 never called seq 2, rank 0 enqueued it at 2 s.
  auto c = two_ranks();
  c.sample = "1/2";
  for (auto& m : c.instances[0].members) {
    m.timed = false;
    m.not_sampled = true;
    m.progress = Progress::kCompletionUnknown;
  }
  auto seq2 = in_flight(0, 2 * kSecond, Progress::kCompletionUnknown);
  seq2.not_sampled = true;
  c.instances.push_back(instance("AllReduce", 2, {seq2}));
  c.instances.back().missing_ranks = {1};
  {
    const auto h = analyze(c);
    CHECK(h.stalled());
    const auto& s = h.comms[0];
    CHECK(s.completion_known);  // the sampled operations have kernel events
    CHECK(s.last_gpu_evidence == "AllReduce seq 1");
    CHECK(s.verdict ==
          "rank 1 never called AllReduce seq 2; rank 0 enqueued it 8.000 s before its capture "
          "ended; completion unknown without kernel events (not sampled); the last operation "
          "with GPU evidence is AllReduce seq 1 (NPKIT_SAMPLE=1/2), completed on every rank with "
          "data");
  }
  // Both ranks enqueued seq 2 and nothing after: no rank is behind; completion unknown.
  c.instances.back().members.push_back(in_flight(1, 2 * kSecond, Progress::kCompletionUnknown));
  c.instances.back().members.back().not_sampled = true;
  c.instances.back().missing_ranks.clear();
  const auto h = analyze(c);
  CHECK_FALSE(h.stalled());
  CHECK(h.cannot_tell());
  CHECK(h.comms[0].verdict ==
        "no rank is behind the others: every rank enqueued AllReduce seq 2 last; completion "
        "unknown: sampling left it without kernel events: whether it finished cannot be told; the "
        "last operation with GPU evidence is AllReduce seq 1 (NPKIT_SAMPLE=1/2), completed on "
        "every rank with data");
}

TEST_CASE("hang: ranks without data are named, never spoken for", "[hang]") {
  // A communicator of 2 whose rank 1 left no file: only rank 0's records are known.
  auto c = two_ranks();
  c.ranks.pop_back();
  for (auto& inst : c.instances) inst.members.pop_back();
  c.absent_ranks = {1};
  {
    const auto h = analyze(c);
    CHECK_FALSE(h.stalled());
    CHECK(h.cannot_tell());
    const auto& s = h.comms[0];
    CHECK(s.ranks_without_data == std::vector<std::int32_t>{1});
    CHECK(s.verdict ==
          "rank 1 has no data: where it stopped cannot be told; rank 0, the only rank with data, "
          "completed its last operation (AllReduce seq 1)");
  }
  // Rank 0 entered seq 2 at 2 s and waits to receive from rank 1.
  c.instances.push_back(
      instance("AllReduce", 2, {in_flight(0, 2 * kSecond, Progress::kKernelRunning)}));
  c.in_flight.push_back(open_step(2, 0, 1, false, 2 * kSecond));
  {
    const auto h = analyze(c);
    CHECK(h.stalled());
    CHECK(h.cannot_tell());
    const auto& s = h.comms[0];
    CHECK(s.label == "AllReduce seq 2");
    // Rank 0's GPU times: 10 and 30 us, median 20 us.
    CHECK(s.verdict ==
          "rank 1 has no data: where it stopped cannot be told; rank 0 waits on it; rank 0, the "
          "only rank with data, entered AllReduce seq 2 and did not complete it (rank 0 waits on "
          "rank 1); it arrived 8.000 s before its capture ended (it usually takes 20.00 us): a "
          "peer or transport stall, or the job ended during the operation");
  }
  // Three ranks, rank 2 without data: the others are named, never "every rank".
  auto three = two_ranks();
  three.nranks = 3;
  three.absent_ranks = {2};
  const auto h = analyze(three);
  CHECK(h.comms[0].verdict ==
        "rank 2 has no data: where it stopped cannot be told; every rank with data (ranks 0 and "
        "1) completed its last operation (AllReduce seq 1)");
}
