#include "analysis/summary/summarize_run.hpp"

#include <catch2/catch.hpp>

namespace {

using namespace npkit;

RunMember member(std::int32_t rank, std::int64_t start, std::int64_t end, bool timed = true) {
  RunMember m;
  m.rank = rank;
  m.timed = timed;
  m.start_ns = start;
  m.end_ns = end;
  return m;
}

RunInstance instance(std::string func, std::uint64_t bytes, std::vector<RunMember> members) {
  RunInstance i;
  i.func = std::move(func);
  i.bytes = bytes;
  i.algo = "RING";
  i.proto = "LL";
  i.members = std::move(members);
  return i;
}

// Two ranks, three AllReduce of 1 KiB (one untimed), one Send/Recv pair; rank 1 has proxy steps.
Run hand_run() {
  Run run;
  run.path = "hand";
  run.config.formats = {"npkt"};
  run.config.files = 2;
  RunCommunicator c;
  c.hash = 0xabc;
  c.nranks = 2;
  c.ranks.resize(2);
  c.ranks[1].rank = 1;
  ProxyStepBreakdown steps;
  steps.steps = 3;
  steps.steps_never_stopped = 1;
  steps.step_ns = 100;
  steps.net_send_ns = 40;
  steps.net_recv_ns = 30;
  steps.sync_ns = 20;
  steps.other_ns = 10;
  c.ranks[1].proxy = steps;
  c.instances.push_back(instance("AllReduce", 1024, {member(0, 100, 150), member(1, 130, 160)}));
  c.instances.push_back(instance("AllReduce", 1024, {member(0, 300, 320), member(1, 290, 330)}));
  c.instances.push_back(
      instance("AllReduce", 1024, {member(0, 0, 0, false), member(1, 0, 0, false)}));
  RunInstance pair = instance("SendRecv", 64, {member(0, 500, 510), member(1, 505, 520)});
  pair.sender = 0;
  pair.receiver = 1;
  pair.algo = pair.proto = "";
  c.instances.push_back(pair);
  run.comms.push_back(c);
  return run;
}

}  // namespace

TEST_CASE("summarize_run: rows, untimed instances, sync and proxy phases of a hand-built run",
          "[summary]") {
  const Run run = hand_run();
  const PhaseAssignment phases = assign_phases(PhaseMap{}, EventTable{});
  const RunSummary s = summarize_run(run, SummarySpanSink(phases));

  CHECK(s.inputs == std::vector<std::string>{"hand"});
  CHECK(s.config.formats == std::set<std::string>{"npkt"});
  REQUIRE(s.config.communicators.count("0000000000000abc") == 1);
  CHECK(s.config.communicators.at("0000000000000abc").nranks == 2);
  CHECK(s.config.communicators.at("0000000000000abc").ranks == std::set<std::int32_t>{0, 1});

  REQUIRE(s.collectives.size() == 2);
  const CollectiveRow& ar = s.collectives[0];
  CHECK(ar.key.collective == "AllReduce");
  CHECK(ar.key.size_bytes == 1024);
  CHECK(ar.key.algo == "RING");
  CHECK(ar.instances == 3);
  CHECK(ar.untimed_instances == 1);
  CHECK(ar.bytes_sum == 3 * 1024);
  REQUIRE(ar.ranks.size() == 2);
  CHECK(ar.ranks[0].time_ns.count() == 2);
  // rank 0: 50 and 20 ns, median 35; rank 1: 30 and 40, median 35.
  CHECK(ar.time_ns() == Approx(35.0));
  const CollectiveRow& sr = s.collectives[1];
  CHECK(sr.key.collective == "SendRecv");
  CHECK(sr.instances == 1);

  // Sync: the two timed AllReduce only (the pair is left out). Rank 1 starts last at the first
  // (130 vs 100), rank 0 at the second (300 vs 290).
  REQUIRE(s.sync.size() == 2);
  CHECK(s.sync[0].rank == 0);
  CHECK(s.sync[0].instances == 2);
  CHECK(s.sync[0].arrived_last == 1);
  CHECK(s.sync[0].skew_ns.max() == 10);
  CHECK(s.sync[1].skew_ns.max() == 30);

  // Proxy phases of rank 1: 2 stopped steps, reference = the step time.
  REQUIRE(s.phases.size() == 4);
  for (const PhaseRow& p : s.phases) {
    CHECK(p.key.source == "proxy");
    REQUIRE(p.ranks.size() == 1);
    CHECK(p.ranks[0].rank == 1);
    CHECK(p.ranks[0].reference_ns == 100);
    CHECK(p.ranks[0].count == 2);
  }
  CHECK(s.phases[0].key.phase == "net_recv");
  CHECK(s.phases[0].ranks[0].ns == 30);
}

TEST_CASE("summarize_run: every instance of a communicator whose log lost records is incomplete",
          "[summary]") {
  // The hand-built run's communicator, and a second one (hash 0xdef, 2 ranks) with one
  // AllReduce of 1 KiB. Rank 1 of the first lost 2 collective records: its 3 AllReduce and its
  // Send/Recv pair are incomplete; the second communicator's AllReduce is not.
  Run run = hand_run();
  RunCommunicator other;
  other.hash = 0xdef;
  other.nranks = 2;
  other.ranks.resize(2);
  other.ranks[1].rank = 1;
  other.ranks[1].lost.p2p = 5;  // lost Send/Recv records do not make its collectives incomplete
  other.instances.push_back(
      instance("AllReduce", 1024, {member(0, 700, 750), member(1, 710, 760)}));
  run.comms.push_back(other);
  CHECK_FALSE(run.comms[0].collectives_incomplete());
  run.comms[0].ranks[1].lost.collectives = 2;
  CHECK(run.comms[0].collectives_incomplete());
  CHECK_FALSE(run.comms[1].collectives_incomplete());

  const PhaseAssignment phases = assign_phases(PhaseMap{}, EventTable{});
  const RunSummary s = summarize_run(run, SummarySpanSink(phases));
  REQUIRE(s.collectives.size() == 2);
  CHECK(s.collectives[0].key.collective == "AllReduce");
  CHECK(s.collectives[0].instances == 4);
  CHECK(s.collectives[0].incomplete_instances == 3);
  CHECK(s.collectives[1].key.collective == "SendRecv");
  CHECK(s.collectives[1].incomplete_instances == 1);
}
