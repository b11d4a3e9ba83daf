// Bandwidth rows from joined instances: nccl-tests S and factors, per-rank medians averaged over
// ranks, the cross-rank "true" time, untimed instances, --coll selection and switch points.
#include "analysis/bandwidth/bandwidth_table.hpp"
#include "import/npkt/npkt_run.hpp"
#include "run/nccl_tests_convention.hpp"

#include <catch2/catch.hpp>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::test::captures_from_spec;
using npkit::test::pointers;

namespace {

// Three ranks; GPU time = host time (offset 0). GPU spans (ns):
//   AllReduce seq 0, 750 floats = 3000 B, RING/LL:   r0 1000..2000, r1 1100..2300, r2 1300..2700
//   AllReduce seq 1, 3000 B, RING/LL:                r0 3000..4200, r1 3000..4000, r2 3100..5100
//   AllReduce seq 2, 250000 floats = 1e6 B, RING/SIMPLE: r0 10000..20000, r1 10000..30000, r2 none
//   AllReduce seq 3, 1e6 B, RING/SIMPLE: no KernelCh anywhere
//   ReduceScatter seq 0, 100 floats per rank: S = 100 x 4 x 3 = 1200 B, RING/LL: r0 5000..5600
//     (on channel 1: on channel 0 its start would precede an earlier work's, which marks the
//     earlier KernelCh stale)
std::string rank_spec(int rank, const char* spans) {
  return "comm hash=0x7 rank=" + std::to_string(rank) + R"( nranks=3
clock init before={B+0} after={B+0} gpu={B+0}
start 1 Coll host={B+1} seq=0 count=750 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
start 2 Coll host={B+2} seq=1 count=750 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
start 3 Coll host={B+3} seq=2 count=250000 func=AllReduce datatype=ncclFloat32 algo=RING proto=SIMPLE
start 4 Coll host={B+4} seq=3 count=250000 func=AllReduce datatype=ncclFloat32 algo=RING proto=SIMPLE
start 5 Coll host={B+5} seq=0 count=100 func=ReduceScatter datatype=ncclFloat32 algo=RING proto=LL
)" + spans;
}

std::string kernel(int id, int parent, long start, long stop, int channel = 0) {
  const std::string i = std::to_string(id);
  return "start " + i + " KernelCh host={B+" + std::to_string(start) +
         "} parent=" + std::to_string(parent) + " gpu_start={B+" + std::to_string(start) +
         "} channel=" + std::to_string(channel) + "\n" + "state " + i + " KernelCh host={B+" +
         std::to_string(stop) + "} state=22 value={B+" + std::to_string(stop) + "}\n";
}

std::vector<std::unique_ptr<npkit::RankCapture>> three_ranks() {
  return captures_from_spec(
      rank_spec(0, (kernel(10, 1, 1000, 2000) + kernel(11, 2, 3000, 4200) +
                    kernel(12, 3, 10000, 20000) + kernel(13, 5, 5000, 5600, 1))
                       .c_str()) +
      rank_spec(
          1, (kernel(10, 1, 1100, 2300) + kernel(11, 2, 3000, 4000) + kernel(12, 3, 10000, 30000))
                 .c_str()) +
      rank_spec(2, (kernel(10, 1, 1300, 2700) + kernel(11, 2, 3100, 5100)).c_str()));
}

}  // namespace

TEST_CASE("profiler bandwidth: rows per (func, size, algo, proto)", "[npkt][bandwidth]") {
  const auto captures = three_ranks();
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  const auto rows = npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "all");
  REQUIRE(rows.size() == 3);

  // Per-rank medians 1100, 1100, 1700 -> mean 1300; busbw factor 2(n-1)/n = 4/3.
  const auto& small = rows[0];
  CHECK(small.func == "AllReduce");
  CHECK(small.bytes == 3000);
  CHECK(small.count == 750);
  CHECK(small.type == "ncclFloat32");
  CHECK(small.algo == "RING");
  CHECK(small.proto == "LL");
  CHECK(small.nranks == 3);
  CHECK(small.instances == 2);
  CHECK((small.instances - small.timed_instances) == 0);
  REQUIRE(small.ranks.size() == 3);
  CHECK(small.ranks[2].median_ns == 1700.0);
  CHECK(small.time_ns == Approx(1300.0));
  CHECK(small.algbw_gbps == Approx(3000.0 / 1300.0));
  CHECK(small.busbw_gbps == Approx(3000.0 / 1300.0 * 4.0 / 3.0));
  // Period: seq 0 and seq 1 follow each other in every rank's stream, seq 1 is called (host
  // B+2, no API event) before seq 0's GPU stop: r0 3000 - 1000, r1 3000 - 1100, r2 3100 - 1300
  // -> mean 1900.
  CHECK(small.period_pairs == 3);
  REQUIRE(small.period_ns);
  CHECK(*small.period_ns == Approx(1900.0));
  CHECK(small.ranks[1].period_median_ns == 1900.0);
  CHECK(small.period_busbw_gbps == Approx(3000.0 / 1900.0 * 4.0 / 3.0));
  // True times: 1300..2700 = 1400 and 3100..5100 = 2000 -> median 1700.
  CHECK(small.true_instances == 2);
  REQUIRE(small.true_time_ns);
  CHECK(*small.true_time_ns == 1700.0);
  CHECK(small.true_busbw_gbps == Approx(3000.0 / 1700.0 * 4.0 / 3.0));

  // Only ranks 0 and 1 have spans: mean(10000, 20000) = 15000; no true time; seq 3 untimed.
  const auto& big = rows[1];
  CHECK(big.bytes == 1000000);
  CHECK(big.proto == "SIMPLE");
  CHECK(big.instances == 2);
  CHECK((big.instances - big.timed_instances) == 1);
  CHECK(big.ranks.size() == 2);
  CHECK(big.time_ns == 15000.0);
  CHECK(big.busbw_gbps == Approx(1e6 / 15000.0 * 4.0 / 3.0));
  CHECK_FALSE(big.true_time_ns);
  CHECK(big.true_instances == 0);
  CHECK_FALSE(big.period_ns);  // seq 3 has no span: no pair

  // ReduceScatter: S = 1200 over 600 ns, factor (n-1)/n = 2/3.
  const auto& rs = rows[2];
  CHECK(rs.func == "ReduceScatter");
  CHECK(rs.bytes == 1200);
  CHECK(rs.count == 100);  // nccl-tests prints the per-rank count: 1200 / 3 / 4
  CHECK(rs.algbw_gbps == Approx(2.0));
  CHECK(rs.busbw_gbps == Approx(4.0 / 3.0));
}

TEST_CASE("profiler bandwidth: --coll selects rows", "[npkt][bandwidth]") {
  const auto captures = three_ranks();
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  CHECK(npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "reducescatter").size() ==
        1);
  CHECK(npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "allreduce").size() == 2);
  CHECK(npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "sendrecv").empty());
  CHECK(npkit::valid_coll_option("reduce"));
  CHECK_FALSE(npkit::valid_coll_option("allsum"));
}

TEST_CASE("profiler bandwidth: switch points where the choice changes", "[npkt][bandwidth]") {
  const auto captures = three_ranks();
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  const auto switches =
      npkit::switch_points(npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "all"));
  REQUIRE(switches.size() == 1);
  CHECK(switches[0].func == "AllReduce");
  CHECK(switches[0].below_bytes == 3000);
  CHECK(switches[0].at_bytes == 1000000);
  CHECK(switches[0].from_proto == "LL");
  CHECK(switches[0].to_proto == "SIMPLE");
  CHECK(switches[0].busbw_below_gbps == Approx(3000.0 / 1300.0 * 4.0 / 3.0));
}

TEST_CASE("profiler bandwidth: the most frequent choice at a size decides", "[npkit][bandwidth]") {
  auto row = [](std::uint64_t bytes, const char* algo, std::uint64_t instances) {
    npkit::BandwidthRow r;
    r.func = "AllReduce";
    r.bytes = bytes;
    r.algo = algo;
    r.proto = "LL";
    r.instances = instances;
    return r;
  };
  // 1024: RING x1, TREE x3 -> TREE. 2048: RING x2, TREE x2 -> RING (first in name order).
  const std::vector<npkit::BandwidthRow> rows = {row(1024, "RING", 1), row(1024, "TREE", 3),
                                                 row(2048, "RING", 2), row(2048, "TREE", 2)};
  const auto switches = npkit::switch_points(rows);
  REQUIRE(switches.size() == 1);
  CHECK(switches[0].from_algo == "TREE");
  CHECK(switches[0].to_algo == "RING");
  CHECK(switches[0].at_bytes == 2048);
}

namespace {

// One AllReduce (or AllGather) launched by its own group: GroupApi id, CollApi id+1, Coll id+2
// (seq = id) and one KernelCh id+3 on `channel`, GPU time = host time, noticed as it starts.
// `group` reuses an earlier GroupApi id instead (operations of one group share a launch). Ids
// grow with time, as the plugin's do: the proxy starts a channel's KernelCh in work order.
std::string op(int id, long call, long gpu_start, long gpu_stop, const char* func = "AllReduce",
               int group = 0, int channel = 0) {
  const std::string g = std::to_string(group != 0 ? group : id);
  const std::string a = std::to_string(id + 1);
  const std::string c = std::to_string(id + 2);
  const std::string k = std::to_string(id + 3);
  const std::string count = std::string(func) == "AllReduce" ? "4096" : "16384";
  const std::string datatype = std::string(func) == "AllReduce" ? "ncclFloat32" : "ncclInt8";
  auto at = [](long t) { return "{B+" + std::to_string(t) + "}"; };
  std::string s;
  if (group == 0) s += "start " + g + " GroupApi host=" + at(call - 10) + " depth=1\n";
  s += "start " + a + " CollApi host=" + at(call) + " parent=" + g + " count=4096 func=" + func +
       " datatype=ncclFloat32\n";
  s += "start " + c + " Coll host=" + at(call + 100) + " parent=" + a +
       " seq=" + std::to_string(id) + " count=" + count + " func=" + func +
       " datatype=" + datatype + " algo=RING proto=SIMPLE channels=1\n";
  s += "start " + k + " KernelCh host=" + at(gpu_start) + " parent=" + c +
       " gpu_start=" + at(gpu_start) + " channel=" + std::to_string(channel) + "\n";
  s += "state " + k + " KernelCh host=" + at(gpu_stop) + " state=22 value=" + at(gpu_stop) + "\n";
  return s;
}

}  // namespace

TEST_CASE("profiler bandwidth: back-to-back period", "[npkt][bandwidth]") {
  // AllReduce 4096 floats = 16384 B (n = 2: busbw factor 1). Rank 0, in stream order (call =
  // CollApi start; GPU start..stop):
  //   op 1 call 1000  gpu 2000..3000
  //   op 2 call 1500  gpu 3100..4100   pair 1100, called before op 1's stop: back to back
  //   op 3 call 5000  gpu 6000..7000   pair 2900, called after op 2's stop (a synchronisation)
  //   op 4 call 8000  gpu 9000..10000  pair 3000, idem
  //   op 5 call 11000 gpu 12000..13000 pair 3000, idem
  //   op 6 call 12500 gpu 13200..14200 pair 1200, back to back
  //   AllGather call 13900 gpu 15000..15500: another operation, so op 6 and op 7 are no pair
  //   op 7 call 14000 gpu 16000..17000
  //   op 8 call 16500 gpu 17100..18100 pair 1100, back to back
  //   op 9 in op 8's group (one launch): no pair with op 8
  // Back-to-back pairs {1100, 1200, 1100}: three bursts of one interval each; the longest
  // burst, the last of equals, is ops 7..8: 1100 (median 1100; all six pairs' mean: 2050).
  // Rank 1 never launches back to back, so no burst stands apart from the gaps between bursts:
  //   gpu starts 2000, 3500, 5000, 6600 (each call after the previous stop) -> {1500, 1500,
  //   1600}: the median pair, 1500.
  // Period = mean(1100, 1500) = 1300 ns -> 16384 / 1300 GB/s.
  const std::string rank0 =
      "comm hash=0x5 rank=0 nranks=2\n"
      "clock init before={B+0} after={B+0} gpu={B+0}\n" +
      op(10, 1000, 2000, 3000) + op(20, 1500, 3100, 4100) + op(30, 5000, 6000, 7000) +
      op(40, 8000, 9000, 10000) + op(50, 11000, 12000, 13000) + op(60, 12500, 13200, 14200) +
      op(65, 13900, 15000, 15500, "AllGather") + op(70, 14000, 16000, 17000) +
      op(80, 16500, 17100, 18100) + op(90, 16600, 17100, 18100, "AllReduce", 80, 1);
  const std::string rank1 =
      "comm hash=0x5 rank=1 nranks=2\n"
      "clock init before={B+0} after={B+0} gpu={B+0}\n" +
      op(10, 1000, 2000, 2500) + op(20, 3000, 3500, 4000) + op(30, 4500, 5000, 5500) +
      op(40, 6000, 6600, 7100);
  const auto captures = captures_from_spec(rank0 + rank1);
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  const auto rows = npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "allreduce");
  REQUIRE(rows.size() == 1);
  const auto& r = rows[0];
  CHECK(r.bytes == 16384);
  REQUIRE(r.ranks.size() == 2);
  CHECK(r.ranks[0].period_pairs == 3);
  CHECK(r.ranks[0].period_median_ns == 1100.0);
  CHECK(r.ranks[0].period_ns == 1100.0);
  CHECK(r.ranks[1].period_pairs == 3);
  CHECK(r.ranks[1].period_median_ns == 1500.0);
  CHECK(r.ranks[1].period_ns == 1500.0);
  CHECK(r.period_pairs == 6);
  REQUIRE(r.period_ns);
  CHECK(*r.period_ns == Approx(1300.0));
  CHECK(r.period_algbw_gbps == Approx(16384.0 / 1300.0));
  CHECK(r.period_busbw_gbps == Approx(16384.0 / 1300.0));
  // --coll allgather: the AllGather still separates op 6 from op 7 when only it is selected;
  // its own row has a single instance and no pair.
  const auto ag = npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "allgather");
  REQUIRE(ag.size() == 1);
  CHECK_FALSE(ag[0].period_ns);
  // AllGather of 16384 bytes per rank, the user's type float (CollApi): S = 32768, per-rank
  // count 32768 / 2 / 4.
  CHECK(ag[0].bytes == 32768);
  CHECK(ag[0].count == 4096);
  CHECK(ag[0].type == "ncclFloat32");
}

TEST_CASE("profiler bandwidth: the period is a burst's elapsed time over its launches",
          "[npkt][bandwidth]") {
  // One burst of four back-to-back launches on each of two ranks whose start-to-start times
  // alternate 20.3, 20.3, 13.5 us (each call before the previous GPU stop): elapsed first start
  // to last start 54.1 us over 3 intervals = 18.033 us, as a wall clock over the launches
  // measures; the median pair (20.3 us) is not.
  std::string spec;
  for (int rank = 0; rank < 2; ++rank) {
    spec += "comm hash=0x9 rank=" + std::to_string(rank) +
            " nranks=2\nclock init before={B+0} after={B+0} gpu={B+0}\n" +
            op(10, 1000, 2000, 22000) + op(20, 1500, 22300, 42300) + op(30, 2000, 42600, 55800) +
            op(40, 2500, 56100, 76000);
  }
  const auto captures = captures_from_spec(spec);
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  const auto rows = npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "allreduce");
  REQUIRE(rows.size() == 1);
  REQUIRE(rows[0].ranks.size() == 2);
  CHECK(rows[0].ranks[0].period_pairs == 3);
  CHECK(rows[0].ranks[0].period_median_ns == 20300.0);
  CHECK(rows[0].ranks[0].period_ns == Approx(54100.0 / 3));
  REQUIRE(rows[0].period_ns);
  CHECK(*rows[0].period_ns == Approx(54100.0 / 3));
}

TEST_CASE("profiler bandwidth: the period is the timed loop's burst, not the warm-up's",
          "[npkt][bandwidth]") {
  // A driver's size: two warm-up launches back to back, a synchronisation, then four timed
  // launches back to back. The first warm-up waits 4580 ns for the second's start (one-time
  // set-up); the timed loop runs every 1000 ns. Bursts: {4580} (one interval) and {1000, 1000,
  // 1000} (three): the longest, the timed loop, gives 3000 / 3 = 1000 ns. Over every
  // back-to-back pair the mean would be (4580 + 3000) / 4 = 1895 ns.
  std::string spec;
  for (int rank = 0; rank < 2; ++rank) {
    spec += "comm hash=0x7 rank=" + std::to_string(rank) +
            " nranks=2\nclock init before={B+0} after={B+0} gpu={B+0}\n" +
            op(10, 1000, 2000, 6400) + op(20, 1500, 6580, 7500) + op(30, 9000, 10000, 10900) +
            op(40, 9100, 11000, 11900) + op(50, 9200, 12000, 12900) + op(60, 9300, 13000, 13900);
  }
  const auto captures = captures_from_spec(spec);
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  const auto rows = npkit::bandwidth_rows(npkit::npkt_run("", comms, diagnostics), "allreduce");
  REQUIRE(rows.size() == 1);
  REQUIRE(rows[0].ranks.size() == 2);
  CHECK(rows[0].ranks[0].period_pairs == 4);
  CHECK(rows[0].ranks[0].period_ns == 1000.0);
  CHECK(rows[0].ranks[0].period_median_ns == 1000.0);
  REQUIRE(rows[0].period_ns);
  CHECK(*rows[0].period_ns == 1000.0);
}

TEST_CASE("bandwidth row flags: what the row's time rests on", "[bandwidth]") {
  auto flags = [](std::uint64_t instances, std::uint64_t timed, std::uint64_t stale) {
    npkit::BandwidthRow r;
    r.instances = instances;
    r.timed_instances = timed;
    r.stale_instances = stale;
    return r.flags();
  };
  using Flags = std::vector<std::string>;
  CHECK(flags(6, 6, 0).empty());
  CHECK(flags(2, 1, 0).empty());  // half timed: at the floor, not under it
  CHECK(flags(3, 1, 0) == Flags{"few timed"});
  CHECK(flags(6, 1, 5) == Flags{"few timed", "5 stale"});
  CHECK(flags(6, 0, 6) == Flags{"untimed", "6 stale"});
  CHECK(flags(23, 20, 23) == Flags{"23 stale"});
  npkit::BandwidthRow disagree;
  disagree.instances = 6;
  disagree.timed_instances = 6;
  disagree.stale_instances = 1;
  disagree.host_disagree_instances = 2;
  CHECK(disagree.flags() == Flags{"1 stale", "2 host-disagree"});
  disagree.short_instances = 3;
  CHECK(disagree.flags() == Flags{"1 stale", "2 host-disagree", "3 short"});
}

TEST_CASE("bandwidth row flags: a sampling capture's rows say sampled k of n", "[bandwidth]") {
  auto flags = [](std::uint64_t instances, std::uint64_t timed, std::uint64_t not_sampled) {
    npkit::BandwidthRow r;
    r.instances = instances;
    r.timed_instances = timed;
    r.not_sampled_instances = not_sampled;
    return r.flags();
  };
  using Flags = std::vector<std::string>;
  CHECK(flags(24, 3, 21) == Flags{"sampled 3 of 24"});               // every sampled one timed
  CHECK(flags(24, 1, 21) == Flags{"sampled 3 of 24", "few timed"});  // 1 of 3 sampled
  CHECK(flags(24, 0, 21) == Flags{"sampled 3 of 24", "untimed"});
  CHECK(flags(5, 0, 5) == Flags{"none sampled"});  // not "untimed": left out on purpose
  CHECK(flags(5, 5, 0).empty());
}
