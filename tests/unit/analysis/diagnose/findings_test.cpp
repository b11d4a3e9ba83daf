// Diagnosis rules on hand-made evidence: load imbalance (with max/median and CV computed by
// hand), network wait, NET within one host, small messages (with the latency model's share),
// too few channels; nothing below the thresholds; advice against the run's settings in force.
#include "analysis/diagnose/findings.hpp"
#include "analysis/diagnose/latency_model.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "analysis/sync/phase_imbalance.hpp"

namespace {

using Env = std::map<std::string, std::set<std::string>>;

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
  npkit::find_load_imbalance(phases, "dump", t, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].rule == "load_imbalance");
  CHECK(findings[0].summary ==
        "phase reduce_scatter (60.0% of the time): rank 2 spends 1.60x the median rank (160 ns "
        "vs 100 ns, each summed over the rank's spans or steps, which overlap in time: not wall "
        "time; min 100 ns, CV 0.24)");
  findings.clear();
  t.imbalance_min_share = 0.61;  // reduce_scatter holds 60%
  npkit::find_load_imbalance(phases, "dump", t, {}, findings);
  CHECK(findings.empty());
  t.imbalance_min_share = 0.05;
  t.imbalance = 1.7;  // reduce_scatter's 1.6 no longer counts
  npkit::find_load_imbalance(phases, "dump", t, {}, findings);
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
  npkit::find_network_wait(ranks, "comm", t, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].summary ==
        "NET proxy steps wait on the network for 60.0% of their time (600 ns of 1.000 us step "
        "time, summed over overlapping steps; rank 0 60.0%)");
  findings.clear();
  t.min_instances = 11;  // 10 steps are too few
  npkit::find_network_wait(ranks, "comm", t, {}, findings);
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
  npkit::find_small_messages(rows, "comm", t, {}, findings);
  REQUIRE(findings.size() == 1);
  // The latency model's share is checked on exact data in "small-message rule: ...".
  CHECK_THAT(findings[0].summary,
             Catch::Matchers::StartsWith(
                 "AllReduce: 100 operation(s) below 65536 B (sizes 1024 B) take 58.8% of its GPU "
                 "time at 0.10 GB/s busbw, 0.5% of its best (20.97 GB/s); under the run's latency "
                 "model ("));
  findings.clear();
  npkit::find_few_channels(rows, "comm", t, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].summary ==
        "AllGather 4194304 B (RING/SIMPLE): 1 channel(s), busbw 5.00 GB/s, 12.8% of the 38.97 "
        "GB/s that the run's latency model of RING/SIMPLE predicts at this size (10.399 us + S / "
        "96.61 GB/s, fitted on 4 sizes)");
  findings.clear();
  t.small_time_share = 0.6;
  t.min_channels = 1;
  npkit::find_small_messages(rows, "comm", t, {}, findings);
  npkit::find_few_channels(rows, "comm", t, {}, findings);
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
  npkit::find_few_channels(rows, "comm", npkit::Thresholds{}, {}, findings);
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

TEST_CASE("small-message rule: sizes named, the latency model's share, protocol advice",
          "[diagnose]") {
  // AllReduce RING/LL on the line t = 9 us + S / 100 GB/s (an exact fit: alpha 9000 ns):
  //   1024 B x 100 at 9010.24 ns, 4096 B x 100 at 9040.96 ns, 1 MiB x 10 at 19485.76 ns.
  //   Below 64 KiB: 200 ops, 1,805,120 ns of 1,999,977.6 ns (90.3%), 512,000 B at 0.28 GB/s
  //   against the best row's 1048576 / 19485.76 = 53.81 GB/s (0.5%); latency 200 x 9000 ns of
  //   1,805,120 ns = 99.7%.
  const std::vector<npkit::SizeEvidence> rows = {
      {"AllReduce", "RING", "LL", 1024, 100, 9010.24, 1024 / 9010.24, 1, 2},
      {"AllReduce", "RING", "LL", 4096, 100, 9040.96, 4096 / 9040.96, 1, 2},
      {"AllReduce", "RING", "LL", 1048576, 10, 19485.76, 1048576 / 19485.76, 1, 2}};
  std::vector<npkit::Finding> findings;
  npkit::find_small_messages(rows, "comm", npkit::Thresholds{}, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].summary ==
        "AllReduce: 200 operation(s) below 65536 B (sizes 1024 and 4096 B) take 90.3% of its GPU "
        "time at 0.28 GB/s busbw, 0.5% of its best (53.81 GB/s); under the run's latency model "
        "(9.000 us + S / 100.00 GB/s) 99.7% of their time is per-operation latency");
  // NCCL already ran every small size with LL: no protocol to try.
  CHECK(findings[0].next_step ==
        "fuse small collectives (bigger buckets, ncclGroupStart/End); NCCL already ran these "
        "sizes with LL, its low-latency protocol: their time is per-operation latency");
  using Settings = std::vector<std::pair<std::string, std::string>>;
  CHECK(findings[0].settings == Settings{{"NCCL_PROTO", ""}, {"NCCL_ALGO", ""}});
  // Where NCCL chose SIMPLE for a small size, LL is worth comparing.
  auto simple = rows;
  simple[1].proto = "SIMPLE";
  findings.clear();
  npkit::find_small_messages(simple, "comm", npkit::Thresholds{}, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].next_step ==
        "fuse small collectives (bigger buckets, ncclGroupStart/End); NCCL chose the protocol "
        "(NCCL_PROTO not set) and ran LL and SIMPLE here: compare NCCL_PROTO=LL at these sizes");

  // A protocol forced without LL is named and not recommended; NCCL_ALGO in force is named.
  const npkit::RunSettings forced(Env{{"NCCL_PROTO", {"Simple"}}, {"NCCL_ALGO", {"Ring"}}});
  findings.clear();
  npkit::find_small_messages(rows, "comm", npkit::Thresholds{}, forced, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].next_step ==
        "fuse small collectives (bigger buckets, ncclGroupStart/End); NCCL_PROTO=Simple is in "
        "force and keeps the low-latency protocols (LL, LL128) from these sizes: unset it; "
        "NCCL_ALGO=Ring is in force: compare NCCL's own choice (unset it)");
  CHECK(findings[0].settings == Settings{{"NCCL_PROTO", "Simple"}, {"NCCL_ALGO", "Ring"}});
  const npkit::RunSettings ll(Env{{"NCCL_PROTO", {"ll"}}});
  findings.clear();
  npkit::find_small_messages(rows, "comm", npkit::Thresholds{}, ll, findings);
  REQUIRE(findings.size() == 1);
  CHECK_THAT(findings[0].next_step, Catch::Matchers::EndsWith("; NCCL_PROTO=ll is in force"));
}

TEST_CASE("advice reads the run's settings: sockets, channels, imbalance", "[diagnose]") {
  std::vector<npkit::RankInfo> ranks(2);
  ranks[0].rank = 0;
  ranks[0].net = npkit::NetWait{1000, 600, 300, 10};
  ranks[1].rank = 1;
  std::vector<npkit::Finding> findings;
  npkit::find_network_wait(ranks, "comm", npkit::Thresholds{}, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].next_step ==
        "check the network path: GPUDirect RDMA (nvidia-peermem loaded; NCCL_DEBUG=INFO logs "
        "GDRDMA per channel; NCCL_NET_GDR_LEVEL), the NIC and its link");
  findings.clear();
  const npkit::RunSettings socket(Env{{"NCCL_NET", {"Socket"}}, {"NCCL_SOCKET_NTHREADS", {"4"}}});
  npkit::find_network_wait(ranks, "comm", npkit::Thresholds{}, socket, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].next_step ==
        "the run uses NET/Socket with NCCL_SOCKET_NTHREADS=4 in force: raise "
        "NCCL_NSOCKS_PERTHREAD (threads × sockets per thread at most 64) and compare busbw");
  findings.clear();
  const npkit::RunSettings both(Env{{"NCCL_IB_DISABLE", {"1"}},
                                    {"NCCL_SOCKET_NTHREADS", {"4"}},
                                    {"NCCL_NSOCKS_PERTHREAD", {"8"}}});
  npkit::find_network_wait(ranks, "comm", npkit::Thresholds{}, both, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].next_step ==
        "the run uses NET/Socket with NCCL_SOCKET_NTHREADS=4 and NCCL_NSOCKS_PERTHREAD=8 in force: "
        "check the NIC and its link, or move to an RDMA network (IB, RoCE)");

  // few_channels' 4 MiB AllGather row from "small-message and too-few-channels rules".
  const std::vector<npkit::SizeEvidence> rows = {
      {"AllGather", "RING", "SIMPLE", 1048576, 10, 20485.76, 25.5928, 0.5, 8},
      {"AllGather", "RING", "SIMPLE", 4194304, 10, 419430.4, 5, 0.5, 1},
      {"AllGather", "RING", "SIMPLE", 16777216, 10, 177772.16, 47.1874, 0.5, 8},
      {"AllGather", "RING", "SIMPLE", 67108864, 10, 681088.64, 49.2659, 0.5, 8}};
  findings.clear();
  npkit::find_few_channels(rows, "comm", npkit::Thresholds{}, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].next_step ==
        "raise NCCL_MIN_NCHANNELS to spread each rank's work over more channels (and check "
        "NCCL_NCHANNELS_PER_NET_PEER); compare busbw");
  findings.clear();
  npkit::find_few_channels(rows, "comm", npkit::Thresholds{},
                           npkit::RunSettings(Env{{"NCCL_MAX_NCHANNELS", {"1"}}}), findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].next_step ==
        "NCCL_MAX_NCHANNELS=1 is in force and may cap the channels: raise or unset it, then "
        "compare busbw");

  const std::vector<npkit::RankInfo> phased = {rank(0, {{"reduce_scatter", 100}}),
                                               rank(1, {{"reduce_scatter", 100}}),
                                               rank(2, {{"reduce_scatter", 160}})};
  findings.clear();
  npkit::find_load_imbalance(npkit::phase_imbalance(phased), "dump", npkit::Thresholds{},
                             npkit::RunSettings(Env{{"NCCL_MIN_NCHANNELS", {"16"}}}), findings);
  REQUIRE(findings.size() == 1);
  CHECK_THAT(findings[0].next_step,
             Catch::Matchers::EndsWith(
                 "; NCCL_MIN_NCHANNELS=16 is in force already: check NCCL_MAX_NCHANNELS and the "
                 "topology"));
}

TEST_CASE("GPU-wait rule: proxy steps paced by the kernels, not the network", "[diagnose][xrank]") {
  // Rank 0: 1000 ns of steps, 300 network, 600 GPU/peer (60%); rank 1: 500 of 1000 (50%, at the
  // threshold); rank 2: 400 of 1000 (40%). Ranks 0 and 1: 1100 of 2000 ns GPU (55.0%), network
  // 300 + 400 = 700 (35.0%).
  std::vector<npkit::RankInfo> ranks(3);
  ranks[0].rank = 0;
  ranks[0].net = npkit::NetWait{1000, 300, 600, 10};
  ranks[1].rank = 1;
  ranks[1].net = npkit::NetWait{1000, 400, 500, 10};
  ranks[2].rank = 2;
  ranks[2].net = npkit::NetWait{1000, 500, 400, 10};
  std::vector<npkit::Finding> findings;
  npkit::find_gpu_wait(ranks, "comm", npkit::Thresholds{}, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].rule == "gpu_wait");
  CHECK(
      findings[0].summary ==
      "NET proxy steps wait for the GPU or the peer for 55.0% of their time (1.100 us of 2.000 us "
      "step time, summed over overlapping steps; rank 0 60.0% and rank 1 50.0%) and on the network "
      "for 35.0%: the kernels, not "
      "the network, pace the transfers");
  CHECK_THAT(findings[0].next_step,
             Catch::Matchers::EndsWith("raise NCCL_MIN_NCHANNELS to spread each rank's work over "
                                       "more channels"));
  findings.clear();
  npkit::find_gpu_wait(ranks, "comm", npkit::Thresholds{},
                       npkit::RunSettings(Env{{"NCCL_NTHREADS", {"128"}}}), findings);
  REQUIRE(findings.size() == 1);
  CHECK_THAT(findings[0].next_step,
             Catch::Matchers::EndsWith("; NCCL_NTHREADS=128 is in force: compare NCCL's default"));
  findings.clear();
  npkit::Thresholds t;
  t.gpu_wait = 0.61;
  npkit::find_gpu_wait(ranks, "comm", t, {}, findings);
  CHECK(findings.empty());
}

TEST_CASE("NET within one host: the settings that disable P2P and SHM are named",
          "[diagnose][xrank]") {
  npkit::CrossRankInput in;
  in.scope = "comm 00000000000000aa";
  in.hosts_known = true;
  for (std::int32_t r = 0; r < 2; ++r) {
    npkit::RankInfo info;
    info.rank = r;
    info.host = "node7";
    info.net = npkit::NetWait{5000, 1000, 1000, 12};
    in.ranks.push_back(info);
  }
  const npkit::RunSettings disabled(Env{{"NCCL_P2P_DISABLE", {"1"}}, {"NCCL_SHM_DISABLE", {"1"}}});
  std::vector<npkit::Finding> findings;
  npkit::find_net_within_host(in, npkit::Thresholds{}, disabled, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].rule == "net_within_host");
  CHECK(findings[0].summary ==
        "all 2 ranks run on host node7, yet rank(s) 0 and 1 move data through the network "
        "transport: 24 NET proxy step(s), 10.00 us of step time summed over overlapping steps");
  CHECK(findings[0].next_step ==
        "NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1 in force keep the ranks of this host off P2P "
        "(NVLink, PCIe) and shared memory: unset them unless the run is meant to test the network");
  findings.clear();
  npkit::find_net_within_host(in, npkit::Thresholds{}, {}, findings);
  REQUIRE(findings.size() == 1);
  CHECK_THAT(findings[0].next_step,
             Catch::Matchers::StartsWith("the run's environment disables neither P2P nor SHM"));
  // Each rank its own NCCL_HOSTID (as when testing many ranks on one GPU): the cause is named.
  const npkit::RunSettings host_ids(Env{{"NCCL_HOSTID", {"onegpu-host-0", "onegpu-host-1"}}});
  findings.clear();
  npkit::find_net_within_host(in, npkit::Thresholds{}, host_ids, findings);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].next_step ==
        "NCCL_HOSTID differs between the ranks (onegpu-host-0|onegpu-host-1): NCCL takes each "
        "rank for a host of its own and connects them through the network; give the ranks of one "
        "host one NCCL_HOSTID (or unset it) unless the run is meant to test the network");

  // Two hosts: NET is expected between them; hosts unknown: nothing can be said; too few steps.
  findings.clear();
  auto two_hosts = in;
  two_hosts.ranks[1].host = "node8";
  npkit::find_net_within_host(two_hosts, npkit::Thresholds{}, disabled, findings);
  auto unknown = in;
  unknown.hosts_known = false;
  npkit::find_net_within_host(unknown, npkit::Thresholds{}, disabled, findings);
  npkit::Thresholds strict;
  strict.min_instances = 13;
  npkit::find_net_within_host(in, strict, disabled, findings);
  CHECK(findings.empty());
}
