// Diagnosis rules on hand-made evidence: load imbalance (with max/median and CV computed by
// hand), network wait, small messages, too few channels; nothing below the thresholds.
#include "analysis/diagnose/findings.hpp"
#include "analysis/diagnose/latency_model.hpp"

#include <catch2/catch.hpp>

#include "analysis/sync/phase_imbalance.hpp"

namespace {

npkit::RankInfo rank(std::int32_t r, std::vector<npkit::PhaseTime> phases) {
  npkit::RankInfo info;
  info.rank = r;
  info.reference_ns = 200;
  info.phases = std::move(phases);
  return info;
}

}  // namespace

TEST_CASE("phase imbalance and the load-imbalance rule", "[diagnose][sync][xrank]") {
  // reduce_scatter {100, 100, 160}: median 100, max 160 (rank 2), ratio 1.6; mean 120,
  //   variance (400 + 400 + 1600) / 3 = 800, CV sqrt(800) / 120 = 0.23570; share 360 / 600.
  // sync {10, 30, 0 (rank 2 has none)}: median 10, max 30 (rank 1), ratio 3; mean 40/3,
  //   variance ((10-40/3)^2 + (30-40/3)^2 + (40/3)^2) / 3 = 155.556, CV 0.93541; share 40 / 600.
  const std::vector<npkit::RankInfo> ranks = {rank(0, {{"reduce_scatter", 100}, {"sync", 10}}),
                                              rank(1, {{"reduce_scatter", 100}, {"sync", 30}}),
                                              rank(2, {{"reduce_scatter", 160}})};
  const auto phases = npkit::phase_imbalance(ranks);
  REQUIRE(phases.size() == 2);
  CHECK(phases[0].phase == "reduce_scatter");
  CHECK(phases[0].min_ns == 100);
  CHECK(phases[0].median_ns == 100);
  CHECK(phases[0].max_ns == 160);
  CHECK(phases[0].max_rank == 2);
  CHECK(phases[0].max_over_median == Approx(1.6));
  CHECK(phases[0].cv == Approx(0.23570).epsilon(1e-4));
  CHECK(phases[0].share == Approx(0.6));
  CHECK(phases[1].min_ns == 0);
  CHECK(phases[1].max_rank == 1);
  CHECK(phases[1].max_over_median == Approx(3.0));
  CHECK(phases[1].cv == Approx(0.93541).epsilon(1e-4));
  CHECK(phases[1].share == Approx(40.0 / 600.0));

  // sync crosses the ratio but rank 2 never enters it (a role, not a load): no finding.
  npkit::Thresholds t;
  std::vector<npkit::Finding> findings;
  npkit::find_load_imbalance(phases, "dump", t, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].rule == "load_imbalance");
  CHECK(findings[0].summary ==
        "phase reduce_scatter (60.0% of the time): rank 2 spends 1.60x the median rank (0.160 us "
        "vs 0.100 us; min 0.100 us, CV 0.24)");
  findings.clear();
  t.imbalance_min_share = 0.61;  // reduce_scatter holds 60%
  npkit::find_load_imbalance(phases, "dump", t, findings);
  CHECK(findings.empty());
  t.imbalance_min_share = 0.05;
  t.imbalance = 1.7;  // reduce_scatter's 1.6 no longer counts
  npkit::find_load_imbalance(phases, "dump", t, findings);
  CHECK(findings.empty());
}

TEST_CASE("network-wait rule: NET proxy steps only, per rank share", "[diagnose][xrank]") {
  std::vector<npkit::RankInfo> ranks(3);
  ranks[0].rank = 0;
  ranks[0].net = npkit::NetWait{1000, 600, 300, 10};  // 60%
  ranks[1].rank = 1;
  ranks[1].net = npkit::NetWait{1000, 400, 500, 10};  // 40%
  ranks[2].rank = 2;                                  // no NET transport
  npkit::Thresholds t;
  std::vector<npkit::Finding> findings;
  npkit::find_network_wait(ranks, "comm", t, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].summary ==
        "NET proxy steps wait on the network for 60.0% of their time (0.600 us of 1.000 us step "
        "time; rank 0 60.0%)");
  findings.clear();
  t.min_instances = 11;  // 10 steps are too few
  npkit::find_network_wait(ranks, "comm", t, findings);
  CHECK(findings.empty());
}

TEST_CASE("small-message and too-few-channels rules", "[diagnose][xrank]") {
  // AllReduce, n = 2 (busbw factor 1):
  //   1 KiB  x 100 at 10 us: algbw 1024 / 10000 = 0.1024 GB/s
  //   64 KiB x 10  at 20 us: 3.2768 GB/s (not below small_bytes 65536)
  //   1 MiB  x 10  at 50 us: 20.97152 GB/s, the best
  //   time 1e6 + 2e5 + 5e5 = 1.7e6 ns; below 64 KiB 1e6: share 0.588 >= 0.2, busbw 0.1024 <
  //   0.1 x 20.97 -> small_messages.
  // AllGather RING/SIMPLE (n = 2, busbw = S / t x 0.5) on 8 channels follows 10 us + S / 100 GB/s
  //   at 1, 16 and 64 MiB; 4 MiB runs on 1 channel in 419.43 us (5 GB/s). The latency model
  //   fitted on the four rows (weights 1/t^2, by hand: alpha 10399.19 ns, beta 96.61 GB/s)
  //   predicts 53,814 ns at 4 MiB, busbw 38.97 GB/s: the 4 MiB row is bandwidth-bound, on 1 < 4
  //   channels, at 12.8% < 50% of it -> few_channels. The 1 MiB AllReduce has no model (one
  //   RING/SIMPLE row): no finding.
  const std::vector<npkit::SizeEvidence> rows = {
      {"AllReduce", "RING", "LL", 1024, 100, 10000, 0.1024, 1, 1},
      {"AllReduce", "RING", "LL", 65536, 10, 20000, 3.2768, 1, 2},
      {"AllReduce", "RING", "SIMPLE", 1048576, 10, 50000, 20.97152, 1, 2},
      {"AllGather", "RING", "SIMPLE", 1048576, 10, 20485.76, 25.5928, 0.5, 8},
      {"AllGather", "RING", "SIMPLE", 4194304, 10, 419430.4, 5, 0.5, 1},
      {"AllGather", "RING", "SIMPLE", 16777216, 10, 177772.16, 47.1874, 0.5, 8},
      {"AllGather", "RING", "SIMPLE", 67108864, 10, 681088.64, 49.2659, 0.5, 8}};
  npkit::Thresholds t;
  std::vector<npkit::Finding> findings;
  npkit::find_small_messages(rows, "comm", t, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].summary ==
        "AllReduce: 100 operation(s) below 65536 B take 58.8% of its GPU time at 0.10 GB/s busbw, "
        "0.5% of its best (20.97 GB/s)");
  findings.clear();
  npkit::find_few_channels(rows, "comm", t, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].summary ==
        "AllGather 4194304 B (RING/SIMPLE): 1 channel(s), busbw 5.00 GB/s, 12.8% of the 38.97 "
        "GB/s that the run's latency model of RING/SIMPLE predicts at this size (10.399 us + S / "
        "96.61 GB/s, fitted on 4 sizes)");
  findings.clear();
  t.small_time_share = 0.6;
  t.min_channels = 1;
  npkit::find_small_messages(rows, "comm", t, findings);
  npkit::find_few_channels(rows, "comm", t, findings);
  CHECK(findings.empty());
}

TEST_CASE("few-channels rule: a latency-bound size is not judged against large sizes' busbw",
          "[diagnose]") {
  // AllReduce RING/SIMPLE, busbw factor 1: 1 MiB on 2 channels at 40 us (26.2 GB/s), 16 and
  // 64 MiB on 16 channels at 100 and 300 us (167.8, 223.7 GB/s). 26.2 < 0.5 x 223.7, but the
  // fitted model (by hand: alpha 35.77 us, beta 256.45 GB/s) puts 1 MiB's transfer at 4.09 us,
  // below its fixed cost: latency-bound, no finding.
  const std::vector<npkit::SizeEvidence> rows = {
      {"AllReduce", "RING", "SIMPLE", 1048576, 20, 40000, 26.2144, 1, 2},
      {"AllReduce", "RING", "SIMPLE", 16777216, 20, 100000, 167.77216, 1, 16},
      {"AllReduce", "RING", "SIMPLE", 67108864, 20, 300000, 223.69621, 1, 16}};
  std::vector<npkit::Finding> findings;
  npkit::find_few_channels(rows, "comm", npkit::Thresholds{}, findings);
  CHECK(findings.empty());
  const auto model =
      npkit::fit_latency_model({{1048576, 40000}, {16777216, 100000}, {67108864, 300000}});
  REQUIRE(model);
  CHECK(model->alpha_ns == Approx(35766.29).epsilon(1e-6));
  CHECK(1.0 / model->ns_per_byte == Approx(256.4465).epsilon(1e-6));
  CHECK_FALSE(model->bandwidth_bound(1048576));
  CHECK(model->bandwidth_bound(16777216));
}

TEST_CASE("latency model: two distinct sizes at least, and a positive slope", "[diagnose]") {
  CHECK_FALSE(npkit::fit_latency_model({{1024, 10}}));
  CHECK_FALSE(npkit::fit_latency_model({{1024, 10}, {1024, 12}}));
  CHECK_FALSE(npkit::fit_latency_model({{1024, 100}, {4096, 50}}));  // larger is faster
  const auto exact = npkit::fit_latency_model({{1000, 2000}, {3000, 4000}});
  REQUIRE(exact);
  CHECK(exact->alpha_ns == Approx(1000));
  CHECK(exact->ns_per_byte == Approx(1));
  CHECK(exact->text() == "1.000 us + S / 1.00 GB/s");
}
