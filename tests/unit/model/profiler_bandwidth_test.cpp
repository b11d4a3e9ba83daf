// Bandwidth rows from joined instances: nccl-tests S and factors, per-rank medians averaged over
// ranks, the cross-rank "true" time, untimed instances, --coll selection and switch points.
#include "model/profiler_bandwidth.hpp"

#include <catch2/catch.hpp>

#include "unit/model/profiler_test_captures.hpp"

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
  const auto rows = npkit::bandwidth_rows(comms, "all");
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
  CHECK(small.untimed_instances == 0);
  REQUIRE(small.ranks.size() == 3);
  CHECK(small.ranks[2].median_ns == 1700.0);
  CHECK(small.time_ns == Approx(1300.0));
  CHECK(small.algbw_gbps == Approx(3000.0 / 1300.0));
  CHECK(small.busbw_gbps == Approx(3000.0 / 1300.0 * 4.0 / 3.0));
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
  CHECK(big.untimed_instances == 1);
  CHECK(big.ranks.size() == 2);
  CHECK(big.time_ns == 15000.0);
  CHECK(big.busbw_gbps == Approx(1e6 / 15000.0 * 4.0 / 3.0));
  CHECK_FALSE(big.true_time_ns);
  CHECK(big.true_instances == 0);

  // ReduceScatter: S = 1200 over 600 ns, factor (n-1)/n = 2/3.
  const auto& rs = rows[2];
  CHECK(rs.func == "ReduceScatter");
  CHECK(rs.bytes == 1200);
  CHECK(rs.algbw_gbps == Approx(2.0));
  CHECK(rs.busbw_gbps == Approx(4.0 / 3.0));
}

TEST_CASE("profiler bandwidth: --coll selects rows", "[npkt][bandwidth]") {
  const auto captures = three_ranks();
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  CHECK(npkit::bandwidth_rows(comms, "reducescatter").size() == 1);
  CHECK(npkit::bandwidth_rows(comms, "allreduce").size() == 2);
  CHECK(npkit::bandwidth_rows(comms, "sendrecv").empty());
  CHECK(npkit::valid_profiler_coll("reduce"));
  CHECK_FALSE(npkit::valid_profiler_coll("allsum"));
}

TEST_CASE("profiler bandwidth: switch points where the choice changes", "[npkt][bandwidth]") {
  const auto captures = three_ranks();
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  const auto switches = npkit::switch_points(npkit::bandwidth_rows(comms, "all"));
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
    npkit::ProfilerBandwidthRow r;
    r.func = "AllReduce";
    r.bytes = bytes;
    r.algo = algo;
    r.proto = "LL";
    r.instances = instances;
    return r;
  };
  // 1024: RING x1, TREE x3 -> TREE. 2048: RING x2, TREE x2 -> RING (first in name order).
  const std::vector<npkit::ProfilerBandwidthRow> rows = {
      row(1024, "RING", 1), row(1024, "TREE", 3), row(2048, "RING", 2), row(2048, "TREE", 2)};
  const auto switches = npkit::switch_points(rows);
  REQUIRE(switches.size() == 1);
  CHECK(switches[0].from_algo == "TREE");
  CHECK(switches[0].to_algo == "RING");
  CHECK(switches[0].at_bytes == 2048);
}
