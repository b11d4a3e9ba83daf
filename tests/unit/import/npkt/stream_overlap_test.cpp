// Launches of one rank whose GPU spans overlap lose their spans; the others keep theirs.
#include "import/npkt/stream_overlap.hpp"

#include <catch2/catch.hpp>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::test::captures_from_spec;
using npkit::test::kBase;

namespace {

// One rank, GPU clock = host clock (offset 0, tolerance 5 µs: uncertainty 0 + the margin). Five
// AllReduce launches, each its own GroupApi, called 100 ns apart from B+8000 (so every GPU start
// below lies after its API call), GPU spans on channel 0:
//   seq 0  10000..20000
//   seq 1  12000..30000   starts 8000 ns before seq 0 ends (> 5000): both lose their spans
//   seq 2  40000..50000   after both: keeps its span
//   seq 3  52000..60000, and a second channel whose GPU start (1000) lies before its API call
//          (8300) − 5000: stale, so seq 3 has no span, but channel 0 says it ran 52000..60000
//   seq 4  54000..58000   starts 6000 ns before seq 3's valid channel ends: loses its span
const char* const kSpec = R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 GroupApi host={B+8000}
start 2 CollApi host={B+8001} parent=1 count=256 func=AllReduce datatype=ncclFloat32
start 3 Coll host={B+8002} parent=2 seq=0 count=256 func=AllReduce datatype=ncclFloat32 channels=1
start 4 KernelCh host={B+100000} parent=3 gpu_start={B+10000} channel=0
state 4 KernelCh host={B+100001} state=22 value={B+20000}
start 11 GroupApi host={B+8100}
start 12 CollApi host={B+8101} parent=11 count=256 func=AllReduce datatype=ncclFloat32
start 13 Coll host={B+8102} parent=12 seq=1 count=256 func=AllReduce datatype=ncclFloat32 channels=1
start 14 KernelCh host={B+100002} parent=13 gpu_start={B+12000} channel=0
state 14 KernelCh host={B+100003} state=22 value={B+30000}
start 21 GroupApi host={B+8200}
start 22 CollApi host={B+8201} parent=21 count=256 func=AllReduce datatype=ncclFloat32
start 23 Coll host={B+8202} parent=22 seq=2 count=256 func=AllReduce datatype=ncclFloat32 channels=1
start 24 KernelCh host={B+100004} parent=23 gpu_start={B+40000} channel=0
state 24 KernelCh host={B+100005} state=22 value={B+50000}
start 31 GroupApi host={B+8300}
start 32 CollApi host={B+8301} parent=31 count=256 func=AllReduce datatype=ncclFloat32
start 33 Coll host={B+8302} parent=32 seq=3 count=256 func=AllReduce datatype=ncclFloat32 channels=2
start 34 KernelCh host={B+100006} parent=33 gpu_start={B+52000} channel=0
state 34 KernelCh host={B+100007} state=22 value={B+60000}
start 35 KernelCh host={B+100008} parent=33 gpu_start={B+1000} channel=1
state 35 KernelCh host={B+100009} state=22 value={B+2000}
start 41 GroupApi host={B+8400}
start 42 CollApi host={B+8401} parent=41 count=256 func=AllReduce datatype=ncclFloat32
start 43 Coll host={B+8402} parent=42 seq=4 count=256 func=AllReduce datatype=ncclFloat32 channels=1
start 44 KernelCh host={B+100010} parent=43 gpu_start={B+54000} channel=0
state 44 KernelCh host={B+100011} state=22 value={B+58000}
)";

}  // namespace

TEST_CASE("stream overlap: launches that overlap on one rank lose their GPU spans",
          "[npkt][model]") {
  const auto captures = captures_from_spec(kSpec);
  const auto& ops = captures[0]->collectives;
  REQUIRE(ops.size() == 5);
  for (std::size_t i = 0; i < ops.size(); ++i) REQUIRE(ops[i].seq == i);
  CHECK_FALSE(ops[0].has_gpu_span);
  CHECK(ops[0].stream_overlap);
  CHECK_FALSE(ops[1].has_gpu_span);
  CHECK(ops[1].stream_overlap);
  CHECK(ops[2].has_gpu_span);
  CHECK_FALSE(ops[2].stream_overlap);
  CHECK(ops[2].gpu_start_ns == static_cast<std::int64_t>(kBase + 40000));
  CHECK(ops[2].gpu_stop_ns == static_cast<std::int64_t>(kBase + 50000));
  // seq 3 was untimed by its stale channel already; its valid channel still counts as evidence.
  CHECK(ops[3].channels_stale == 1);
  CHECK(ops[3].has_valid_channels);
  CHECK(ops[3].valid_channels_start_ns == static_cast<std::int64_t>(kBase + 52000));
  CHECK(ops[3].valid_channels_stop_ns == static_cast<std::int64_t>(kBase + 60000));
  CHECK_FALSE(ops[4].has_gpu_span);
  CHECK(ops[4].stream_overlap);
  CHECK(ops[4].has_stale_channel());

  const auto& check = captures[0]->stream_overlaps;
  CHECK(check.untimed == 3);  // seq 0, 1 and 4 lost a span; seq 3 had none to lose
  REQUIRE(check.first);
  CHECK(check.first->earlier->seq == 0);
  CHECK(check.first->later->seq == 1);
  CHECK(check.first->earlier_end_ns == static_cast<std::int64_t>(kBase + 20000));
  CHECK(check.first->later_start_ns == static_cast<std::int64_t>(kBase + 12000));
}

TEST_CASE("stream overlap: operations of one group share a launch and may overlap",
          "[npkt][model]") {
  // A Send and a Recv in one GroupApi run in one kernel: their channels overlap, as they may.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 GroupApi host={B+8000}
start 2 P2pApi host={B+8001} parent=1 count=64 func=Send datatype=ncclFloat32
start 3 P2pApi host={B+8002} parent=1 count=64 func=Recv datatype=ncclFloat32
start 4 P2p host={B+8003} parent=2 count=64 peer=1 func=Send datatype=ncclFloat32 channels=1
start 5 P2p host={B+8004} parent=3 count=64 peer=1 func=Recv datatype=ncclFloat32 channels=1
start 6 KernelCh host={B+100000} parent=4 gpu_start={B+10000} channel=0
state 6 KernelCh host={B+100001} state=22 value={B+30000}
start 7 KernelCh host={B+100002} parent=5 gpu_start={B+12000} channel=1
state 7 KernelCh host={B+100003} state=22 value={B+28000}
)");
  for (const auto& op : captures[0]->collectives) {
    CHECK(op.has_gpu_span);
    CHECK_FALSE(op.stream_overlap);
  }
  CHECK(captures[0]->stream_overlaps.untimed == 0);
  CHECK_FALSE(captures[0]->stream_overlaps.first);
}
