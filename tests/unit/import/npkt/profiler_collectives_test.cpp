// Collectives of one rank: nccl-tests bytes per collective, the user's type from the API parent,
// GPU spans from KernelCh children, and P2p occurrence numbers. Hand-computed from the spec.
#include "import/npkt/profiler_collectives.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::NcclFunc;
using npkit::test::captures_from_spec;
using npkit::test::kBase;

namespace {

const npkit::ProfilerCollective& by_event_id(const npkit::RankCapture& c, std::uint64_t id) {
  const auto it = std::find_if(c.collectives.begin(), c.collectives.end(),
                               [&](const auto& op) { return c.events.id[op.event] == id; });
  REQUIRE(it != c.collectives.end());
  return *it;
}

}  // namespace

TEST_CASE("profiler collectives: nccl-tests bytes per function", "[npkt][model]") {
  // nranks = 4. AllGather and Broadcast Coll counts are bytes (ncclInt8); ReduceScatter's is the
  // per-rank output count.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=4
start 1 CollApi host={B+10} count=250 func=AllGather datatype=ncclFloat32
start 2 Coll host={B+20} parent=1 seq=0 count=1000 func=AllGather datatype=ncclInt8
start 3 Coll host={B+30} seq=0 count=100 func=ReduceScatter datatype=ncclFloat16
start 4 Coll host={B+40} seq=0 count=4096 func=Broadcast datatype=ncclInt8 root=2
start 5 Coll host={B+50} seq=0 count=10 func=Reduce datatype=ncclFloat64
start 6 Coll host={B+60} seq=0 count=3 func=AllReduce datatype=Unknown
start 7 Coll host={B+70} seq=0 count=8 func=AllReduce datatype=ncclBfloat16
)");
  const auto& c = *captures[0];
  REQUIRE(c.collectives.size() == 6);
  const auto& ag = by_event_id(c, 2);
  CHECK(ag.func == NcclFunc::kAllGather);
  CHECK(ag.bytes == 1000 * 1 * 4);
  CHECK(ag.datatype == "ncclInt8");
  CHECK(ag.type == "ncclFloat32");  // the user's, from CollApi
  CHECK(by_event_id(c, 3).bytes == 100 * 2 * 4);
  CHECK(by_event_id(c, 3).type == "ncclFloat16");
  CHECK(by_event_id(c, 4).bytes == 4096);
  CHECK(by_event_id(c, 4).root == 2);
  CHECK(by_event_id(c, 5).bytes == 10 * 8);
  CHECK(by_event_id(c, 6).bytes == 0);  // unknown element size
  CHECK(by_event_id(c, 7).bytes == 8 * 2);
  // Ordered by host start.
  CHECK(c.collectives.front().host_start_ns == static_cast<std::int64_t>(kBase + 20));
  CHECK(c.collectives.back().host_start_ns == static_cast<std::int64_t>(kBase + 70));
}

TEST_CASE("profiler collectives: GPU span over channels, on the host clock", "[npkt][model]") {
  // Clock: offset = (B+1050) - (B+0 + B+100) / 2 = 1000 (GPU ahead), so host = gpu - 1000.
  // Coll 1: ch 3 gpu 5000..7000, ch 5 gpu 4000..6500 -> gpu 4000..7000 -> host 3000..6000.
  // Coll 2: ch 0 has no stop timestamp -> no span. Coll 3: no KernelCh at all.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+100} gpu={B+1050}
start 1 Coll host={B+10} seq=0 count=4 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL channels=2 warps=4
start 2 Coll host={B+20} seq=1 count=4 func=AllReduce datatype=ncclFloat32 channels=2
start 3 Coll host={B+30} seq=2 count=4 func=AllReduce datatype=ncclFloat32 channels=1
start 10 KernelCh host={B+100} parent=1 gpu_start={B+5000} channel=3
start 11 KernelCh host={B+100} parent=1 gpu_start={B+4000} channel=5
state 10 KernelCh host={B+200} state=22 value={B+7000}
state 11 KernelCh host={B+200} state=22 value={B+6500}
start 12 KernelCh host={B+300} parent=2 gpu_start={B+9000} channel=0
start 13 KernelCh host={B+300} parent=2 gpu_start={B+9000} channel=1
state 13 KernelCh host={B+400} state=22 value={B+9500}
)");
  const auto& c = *captures[0];
  const auto& first = by_event_id(c, 1);
  CHECK(first.algo == "RING");
  CHECK(first.proto == "LL");
  CHECK(first.n_channels == 2);
  CHECK(first.n_warps == 4);
  REQUIRE(first.has_gpu_span);
  CHECK(first.gpu_start_ns == static_cast<std::int64_t>(kBase + 3000));
  CHECK(first.gpu_stop_ns == static_cast<std::int64_t>(kBase + 6000));
  CHECK(first.gpu_duration_ns() == 3000);
  CHECK(first.channels_seen == 2);
  CHECK(first.channels_open == 0);
  CHECK_FALSE(first.channels_disjoint);  // ch 3 and ch 5 both run during 5000..6500
  const auto& second = by_event_id(c, 2);
  CHECK_FALSE(second.has_gpu_span);
  CHECK(second.channels_seen == 2);
  CHECK(second.channels_open == 1);
  CHECK_FALSE(by_event_id(c, 3).has_gpu_span);
  CHECK(by_event_id(c, 3).channels_seen == 0);
}

TEST_CASE("profiler collectives: no usable clock, no GPU span", "[npkt][model]") {
  // No clock samples and a KernelCh without a GPU start: nothing to estimate the offset from.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
start 1 Coll host={B+10} seq=0 count=4 func=AllReduce datatype=ncclFloat32
start 2 KernelCh host={B+100} parent=1 gpu_start=0 channel=0
state 2 KernelCh host={B+200} state=22 value={B+7000}
)");
  CHECK_FALSE(captures[0]->clock.usable());
  CHECK_FALSE(captures[0]->collectives[0].has_gpu_span);
}

TEST_CASE("profiler collectives: P2p occurrences per (func, peer) in host start order",
          "[npkt][model]") {
  // Ids 20 and 21 both send to peer 1; 21 starts first, so it is occurrence 0.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=3
start 20 P2p host={B+900} count=16 peer=1 func=Send datatype=ncclFloat32
start 21 P2p host={B+800} count=16 peer=1 func=Send datatype=ncclFloat32
start 22 P2p host={B+850} count=16 peer=2 func=Send datatype=ncclFloat32
start 23 P2p host={B+950} count=16 peer=1 func=Recv datatype=ncclFloat32
)");
  const auto& c = *captures[0];
  CHECK(by_event_id(c, 21).seq == 0);
  CHECK(by_event_id(c, 20).seq == 1);
  CHECK(by_event_id(c, 22).seq == 0);
  CHECK(by_event_id(c, 23).seq == 0);
  CHECK(by_event_id(c, 23).peer == 1);
  CHECK(by_event_id(c, 20).bytes == 64);  // Send/Recv: count x element size, never x nranks
}

TEST_CASE("profiler collectives: a CeColl is a copy-engine collective without a GPU span",
          "[npkt][model]") {
  // AllGather of 262144 floats through the copy engine (NCCL 2.30: count in bytes, ncclInt8):
  // S = 1048576 x 1 x 2 ranks = 2097152; type from the CollApi parent.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2 profiler_api=6
start 1 CollApi host={B+100} count=262144 func=AllGather datatype=ncclFloat32
start 2 CeColl host={B+200} parent=1 seq=6 count=1048576 root=-1 func=AllGather datatype=ncclInt8 sync=MC ce_seq=9
stop 2 CeColl host={B+900}
)");
  const auto& c = *captures[0];
  REQUIRE(c.collectives.size() == 1);
  const npkit::ProfilerCollective& op = by_event_id(c, 2);
  CHECK(op.copy_engine);
  CHECK(op.func == NcclFunc::kAllGather);
  CHECK(op.algo == "CE");
  CHECK(op.proto == "MC");
  CHECK(op.seq == 6);
  CHECK(op.root == -1);
  CHECK(op.type == "ncclFloat32");
  CHECK(op.datatype == "ncclInt8");
  CHECK(op.bytes == 2097152);
  CHECK_FALSE(op.has_gpu_span);
  CHECK(op.host_start_ns == static_cast<std::int64_t>(kBase + 200));
  CHECK(op.api_start_ns == static_cast<std::int64_t>(kBase + 100));
}

TEST_CASE("profiler collectives: channels that never ran together are flagged", "[npkt][model]") {
  // ch 0 gpu 1000..2000 and ch 1 gpu 3000..4000: the latest start (3000) is after the earliest
  // stop (2000). The span is still min..max (1000..4000), flagged.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 Coll host={B+10} seq=0 count=4 func=AllReduce datatype=ncclFloat32 channels=2
start 2 KernelCh host={B+100} parent=1 gpu_start={B+1000} channel=0
start 3 KernelCh host={B+100} parent=1 gpu_start={B+3000} channel=1
state 2 KernelCh host={B+200} state=22 value={B+2000}
state 3 KernelCh host={B+200} state=22 value={B+4000}
)");
  const auto& op = captures[0]->collectives[0];
  REQUIRE(op.has_gpu_span);
  CHECK(op.channels_disjoint);
  CHECK(op.gpu_duration_ns() == 3000);
}
