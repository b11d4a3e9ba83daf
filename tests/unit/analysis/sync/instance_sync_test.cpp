// Sync per instance and per rank: arrival skew, true duration, capped waits, ties, margins,
// straggler order; and the straggler rule on the same numbers.
#include "analysis/sync/instance_sync.hpp"

#include <catch2/catch.hpp>

#include "analysis/diagnose/findings.hpp"

namespace {

// Three ranks, hosts unknown (one clock). Hand-computed below each instance:
//   I1: r0 [0,100]   r1 [20,100]  r2 [50,110]  last r2 at 50, spread 50, true 110-50 = 60,
//       margin 50-20 = 30; skews 50/30/0, durations 100/80/60, waits 50/30/0 (sum 80)
//   I2: r0 [200,240] r1 [200,300] r2 [230,300] last r2 at 230, spread 30, true 70, margin 30;
//       skews 30/30/0, durations 40/100/70, waits 30/30/0 (sum 60)
//   I3: r0 [400,450] r1 [430,450] r2 [400,450] last r1 at 430, spread 30, true 20, margin 30;
//       skews 30/0/30, durations 50/20/50, waits 30/0/30 (sum 60)
//   I4: r0 [600,620] r1 [590,620] r2 [600,620] r0 and r2 tie last at 600: margin 0, last_rank 0;
//       spread 10, true 20; skews 0/10/0, durations 20/30/20, waits 0/10/0 (sum 10)
//   I5: rank 0 alone: skipped.
// Instance k is labelled "AllReduce seq k".
npkit::CrossRankInput straggler_input() {
  npkit::CrossRankInput in;
  in.scope = "test";
  for (std::int32_t r = 0; r < 3; ++r) in.ranks.push_back(npkit::RankInfo{r, "", 0, {}, {}, {}});
  auto add = [&](std::vector<npkit::RankTimes> t) {
    npkit::JoinedInstance i;
    i.collective = "AllReduce";
    i.label = "AllReduce seq " + std::to_string(in.instances.size() + 1);
    i.ranks = std::move(t);
    in.instances.push_back(std::move(i));
  };
  add({{0, 0, 100}, {1, 20, 100}, {2, 50, 110}});
  add({{0, 200, 240}, {1, 200, 300}, {2, 230, 300}});
  add({{0, 400, 450}, {1, 430, 450}, {2, 400, 450}});
  add({{0, 600, 620}, {1, 590, 620}, {2, 600, 620}});
  add({{0, 700, 800}});
  return in;
}

}  // namespace

TEST_CASE("sync: skew, true duration, capped waits, ties and stragglers", "[sync][xrank]") {
  const auto in = straggler_input();
  const auto sync = npkit::analyze_sync(in, npkit::estimate_host_offsets(in));
  REQUIRE(sync.instances.size() == 4);
  CHECK(sync.instances[0].last_rank == 2);
  CHECK(sync.instances[0].spread_ns == 50);
  CHECK(sync.instances[0].true_duration_ns == 60);
  CHECK(sync.instances[0].margin_ns == 30);
  CHECK(sync.instances[0].wait_ns == 80);
  CHECK(sync.instances[1].true_duration_ns == 70);
  CHECK(sync.instances[2].last_rank == 1);
  CHECK(sync.instances[3].last_rank == 0);
  CHECK(sync.instances[3].margin_ns == 0);
  CHECK(sync.instances[3].spread_ns == 10);
  CHECK(sync.violations == 0);

  REQUIRE(sync.ranks.size() == 3);
  const auto& r0 = sync.ranks[0];
  // r0: skews {0,30,30,50}: median 30, max 50; last once (the tie), margin 0;
  // wait 50+30+30+0 = 110 of busy 100+40+50+20 = 210.
  CHECK(r0.instances == 4);
  CHECK(r0.skew_median_ns == 30);
  CHECK(r0.skew_max_ns == 50);
  CHECK(r0.arrived_last == 1);
  CHECK(r0.margin_median_ns == 0);
  CHECK(r0.wait_ns == 110);
  CHECK(r0.busy_ns == 210);
  CHECK(r0.wait_share == Approx(110.0 / 210.0));
  // r1: skews {0,10,30,30}: median 20; last once (I3), margin 30; wait 70 of 230.
  CHECK(sync.ranks[1].skew_median_ns == 20);
  CHECK(sync.ranks[1].arrived_last == 1);
  CHECK(sync.ranks[1].margin_median_ns == 30);
  CHECK(sync.ranks[1].wait_ns == 70);
  CHECK(sync.ranks[1].busy_ns == 230);
  // r2: last 3 times (I1, I2, I4), margins {0,30,30}: median 30, max 30; wait 30 of 200.
  const auto& r2 = sync.ranks[2];
  CHECK(r2.arrived_last == 3);
  CHECK(r2.arrived_last_share == 0.75);
  CHECK(r2.skew_median_ns == 0);
  CHECK(r2.skew_max_ns == 30);
  CHECK(r2.margin_median_ns == 30);
  CHECK(r2.margin_max_ns == 30);
  CHECK(r2.wait_ns == 30);
  CHECK(r2.busy_ns == 200);
  // Order: r2 (3 times last), then r1 and r0 (once each) by median margin 30 > 0.
  CHECK(sync.straggler_order == std::vector<std::int32_t>{2, 1, 0});

  REQUIRE(sync.collectives.size() == 1);
  // spreads {10,30,30,50}: median 30, max 50; true {20,20,60,70}: median 40; waits 210.
  CHECK(sync.collectives[0].instances == 4);
  CHECK(sync.collectives[0].spread_median_ns == 30);
  CHECK(sync.collectives[0].spread_max_ns == 50);
  CHECK(sync.collectives[0].true_duration_median_ns == 40);
  CHECK(sync.collectives[0].wait_ns == 210);
}

TEST_CASE("straggler rule: fires only past every threshold", "[diagnose][xrank]") {
  const auto in = straggler_input();
  const auto sync = npkit::analyze_sync(in, npkit::estimate_host_offsets(in));
  npkit::Thresholds t;
  std::vector<npkit::Finding> findings;
  npkit::find_straggler(sync, in, t, findings);
  CHECK(findings.empty());  // 4 instances < min_instances 8
  t.min_instances = 4;
  npkit::find_straggler(sync, in, t, findings);
  CHECK(findings.empty());  // margin 30 ns < 1000 ns
  t.straggler_min_margin_ns = 30;
  npkit::find_straggler(sync, in, t, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].rule == "straggler");
  CHECK(findings[0].summary ==
        "rank 2 arrives last at 3 of 4 instances (75.0%), a median 30 ns (max 30 ns) after "
        "the next-latest rank; the other ranks wait for it; largest margins: AllReduce seq 1 "
        "(30 ns) and AllReduce seq 2 (30 ns)");
  findings.clear();
  t.straggler_share = 0.76;
  npkit::find_straggler(sync, in, t, findings);
  CHECK(findings.empty());
}

TEST_CASE("straggler rule: a margin within the clocks' uncertainty is not raised",
          "[diagnose][xrank]") {
  auto in = straggler_input();
  const auto sync = npkit::analyze_sync(in, npkit::estimate_host_offsets(in));
  npkit::Thresholds t;
  t.min_instances = 4;
  t.straggler_min_margin_ns = 30;
  // Rank 2 arrives last by a median 30 ns. Its clock ±15 ns plus the worst other rank's ±15 ns:
  // 30 ns could be the clocks alone.
  for (auto& r : in.ranks) r.clock_uncertainty_ns = 15.0;
  std::vector<npkit::Finding> findings;
  npkit::find_straggler(sync, in, t, findings);
  CHECK(findings.empty());
  // ±10 and at most ±12 elsewhere: 22 ns < 30 ns, raised, with the uncertainty quoted.
  for (auto& r : in.ranks) r.clock_uncertainty_ns = r.rank == 2 ? 10.0 : 12.0;
  in.ranks[0].clock_uncertainty_ns = 5.0;
  npkit::find_straggler(sync, in, t, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].summary ==
        "rank 2 arrives last at 3 of 4 instances (75.0%), a median 30 ns (max 30 ns) after "
        "the next-latest rank, beyond the clocks' 22 ns uncertainty; the other ranks wait for "
        "it; largest margins: AllReduce seq 1 (30 ns) and AllReduce seq 2 (30 ns)");
  CHECK(findings[0].numbers.back() == std::pair<std::string, double>{"clock_uncertainty_ns", 22});
  // One rank's uncertainty unknown: the rule falls back to the thresholds alone.
  findings.clear();
  in.ranks[1].clock_uncertainty_ns.reset();
  for (auto& r : in.ranks) {
    if (r.rank != 1) r.clock_uncertainty_ns = 100.0;
  }
  npkit::find_straggler(sync, in, t, findings);
  CHECK(findings.size() == 1);
}

TEST_CASE("sync: a rank completing before the last arrival is a violation", "[sync][xrank]") {
  npkit::CrossRankInput in;
  in.ranks = {npkit::RankInfo{0, "", 0, {}, {}, {}}, npkit::RankInfo{1, "", 0, {}, {}, {}}};
  npkit::JoinedInstance i;
  i.collective = "AllGather";
  i.ranks = {{0, 0, 40}, {1, 50, 45}};  // r1 ends before it starts: duration counts 0
  in.instances.push_back(i);
  const auto sync = npkit::analyze_sync(in, npkit::estimate_host_offsets(in));
  REQUIRE(sync.instances.size() == 1);
  CHECK(sync.instances[0].true_duration_ns == -5);
  CHECK(sync.violations == 1);
  CHECK(sync.ranks[0].wait_ns == 40);  // skew 50 capped by its duration 40
  CHECK(sync.ranks[1].busy_ns == 0);
}
