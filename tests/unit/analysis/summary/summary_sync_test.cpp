// The sync rows of a summary (analysis/summary/summarize_run.hpp): per rank, its GPU start minus
// the earliest rank's, per instance timed on two or more ranks, and how often it started last.
#include <catch2/catch.hpp>

#include "analysis/summary/summarize_run.hpp"
#include "import/npkt/npkt_run.hpp"
#include "support/test_data.hpp"
#include "unit/import/npkt/profiler_test_captures.hpp"
#include "unit/run/summary/summary_test_support.hpp"

using npkit::test::captures_from_spec;
using npkit::test::pointers;

TEST_CASE("summary sync rows: skews, maxima and arrived last of a hand-made capture",
          "[summary][join]") {
  // GPU starts (host = gpu, offset 0), three instances:
  //   seq 0: r0 1000, r1 1500, r2 1200 -> skews 0, 500, 200; last r1
  //   seq 1: r0 3000, r1 3100, r2 3600 -> 0, 100, 600; last r2
  //   seq 2: r0 5000, r1 5400, r2 5400 -> 0, 400, 400; last r1 and r2 (tie)
  // r0 {0,0,0}: median 0, max 0, last 0; r1 {500,100,400}: median 400, max 500, last 2;
  // r2 {200,600,400}: median 400, max 600, last 2.
  // seq 3 has a span on rank 0 only: not compared. The proxy notices each start and stop as it
  // happens (KernelCh host time = GPU time).
  auto rank = [](int r, long a, long b, long c) {
    auto k = [](int id, int parent, long start) {
      const std::string stop = std::to_string(start + 100);
      return "start " + std::to_string(id) + " KernelCh host={B+" + std::to_string(start) +
             "} parent=" + std::to_string(parent) + " gpu_start={B+" + std::to_string(start) +
             "} channel=0\nstate " + std::to_string(id) + " KernelCh host={B+" + stop +
             "} state=22 value={B+" + stop + "}\n";
    };
    std::string s = "comm hash=0x9 rank=" + std::to_string(r) + " nranks=3\n" +
                    "clock init before={B+0} after={B+0} gpu={B+0}\n";
    for (int seq = 0; seq < 4; ++seq) {
      s += "start " + std::to_string(seq + 1) + " Coll host={B+" + std::to_string(seq) +
           "} seq=" + std::to_string(seq) + " count=1 func=AllReduce datatype=ncclFloat32\n";
    }
    s += k(10, 1, a) + k(11, 2, b) + k(12, 3, c);
    if (r == 0) s += k(13, 4, 7000);
    return s;
  };
  const auto captures = captures_from_spec(rank(0, 1000, 3000, 5000) + rank(1, 1500, 3100, 5400) +
                                           rank(2, 1200, 3600, 5400));
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  const npkit::Run run = npkit::npkt_run("", comms, diagnostics);
  const npkit::PhaseAssignment phases =
      npkit::assign_phases(npkit::PhaseMap{}, npkit::EventTable{});
  const npkit::RunSummary summary = npkit::summarize_run(run, npkit::SummarySpanSink(phases));
  const auto& sync = summary.sync;
  REQUIRE(sync.size() == 3);
  for (const auto& s : sync) CHECK(s.instances == 3);
  CHECK(sync[0].skew_ns.median() == 0.0);
  CHECK(sync[0].arrived_last == 0);
  CHECK(sync[1].skew_ns.median() == 400.0);
  CHECK(sync[1].skew_ns.max() == 500);
  CHECK(sync[1].arrived_last == 2);
  CHECK(sync[2].skew_ns.median() == 400.0);
  CHECK(sync[2].skew_ns.max() == 600);
  CHECK(sync[2].arrived_last == 2);
}

TEST_CASE("summary sync rows: a two-host run's starts on one clock, not its clock offset",
          "[summary][xrank]") {
  // tests/golden/cases/xrank_hosts/dump.spec: ranks 0 and 1 on hostA, rank 2 on hostB whose clock
  // reads 50 us ahead; `report` aligns hostB by -50 us. True arrivals after each T_k: seq 0-4 and
  // 6-10 r0 0, r1 20, r2 5 us (rank 1 last); seq 5 and 11 r0 0, r1 10, r2 30 us (rank 2 last).
  // Starts minus the earliest: r0 always 0; r1 ten 20 and two 10 us (median 20, max 20, last
  // 10 times); r2 ten 5 and two 30 us (median 5, max 30, last twice) — report's arrived-last
  // counts. On the recorded clocks rank 2 would read 55 / 80 us and arrive last every time.
  const npkit::RunSummary s = npkit::test::summarize_path(
      npkit::test::require_path(npkit::test::source_path("tests/golden/cases/xrank_hosts/dump")),
      "xrank");
  REQUIRE(s.sync.size() == 3);
  for (const auto& r : s.sync) CHECK(r.instances == 12);
  CHECK(s.sync[0].skew_ns.max() == 0);
  CHECK(s.sync[0].arrived_last == 0);
  CHECK(s.sync[1].skew_ns.median() == Approx(20000).margin(1));
  CHECK(s.sync[1].skew_ns.max() == Approx(20000).margin(1));
  CHECK(s.sync[1].arrived_last == 10);
  CHECK(s.sync[2].skew_ns.median() == Approx(5000).margin(1));
  CHECK(s.sync[2].skew_ns.max() == Approx(30000).margin(1));
  CHECK(s.sync[2].arrived_last == 2);
}
