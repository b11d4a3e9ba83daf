// AlltoAll recognised from one group of Send/Recv to every rank, and only from such groups.
#include "import/npkt/profiler_alltoall.hpp"

#include <catch2/catch.hpp>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::NcclFunc;
using npkit::test::captures_from_spec;
using npkit::test::kBase;

namespace {

// Rank 1 of 3: group 1 sends to / receives from ranks 0, 1 (itself, no KernelCh, as NCCL runs
// the local copy) and 2 with 64 floats each; KernelCh gpu 5000..9000 and 4000..8000 with a
// 1000 ns offset -> host 3000..8000.
// Group 10 has only a Send: not an AlltoAll. Group 20 has unequal counts: not an AlltoAll.
const char* const kSpec = R"(
comm hash=0x1 rank=1 nranks=3
clock init before={B+0} after={B+0} gpu={B+1000}
start 1 GroupApi host={B+10}
start 2 P2pApi host={B+11} parent=1 count=64 func=Send datatype=ncclFloat32
start 3 P2pApi host={B+12} parent=1 count=64 func=Recv datatype=ncclFloat32
start 4 P2pApi host={B+13} parent=1 count=64 func=Send datatype=ncclFloat32
start 5 P2pApi host={B+14} parent=1 count=64 func=Recv datatype=ncclFloat32
start 40 P2pApi host={B+15} parent=1 count=64 func=Send datatype=ncclFloat32
start 41 P2pApi host={B+16} parent=1 count=64 func=Recv datatype=ncclFloat32
start 42 P2p host={B+104} parent=40 count=64 peer=1 func=Send datatype=ncclFloat32 channels=1
start 43 P2p host={B+105} parent=41 count=64 peer=1 func=Recv datatype=ncclFloat32 channels=1
stop 42 P2p host={B+203}
stop 43 P2p host={B+204}
start 6 P2p host={B+100} parent=2 count=64 peer=0 func=Send datatype=ncclFloat32 channels=2
start 7 P2p host={B+101} parent=3 count=64 peer=0 func=Recv datatype=ncclFloat32 channels=2
start 8 P2p host={B+102} parent=4 count=64 peer=2 func=Send datatype=ncclFloat32 channels=2
start 9 P2p host={B+103} parent=5 count=64 peer=2 func=Recv datatype=ncclFloat32 channels=2
stop 6 P2p host={B+200}
stop 7 P2p host={B+201}
stop 8 P2p host={B+202}
stop 9 P2p host={B+250}
start 30 KernelCh host={B+300} parent=6 gpu_start={B+5000} channel=0
start 31 KernelCh host={B+300} parent=9 gpu_start={B+4000} channel=1
state 30 KernelCh host={B+400} state=22 value={B+9000}
state 31 KernelCh host={B+400} state=22 value={B+8000}
start 10 GroupApi host={B+1000}
start 11 P2pApi host={B+1001} parent=10 count=64 func=Send datatype=ncclFloat32
start 12 P2p host={B+1002} parent=11 count=64 peer=2 func=Send datatype=ncclFloat32
start 20 GroupApi host={B+2000}
start 21 P2pApi host={B+2001} parent=20 count=64 func=Send datatype=ncclFloat32
start 22 P2pApi host={B+2002} parent=20 count=32 func=Recv datatype=ncclFloat32
start 23 P2pApi host={B+2003} parent=20 count=64 func=Send datatype=ncclFloat32
start 24 P2pApi host={B+2004} parent=20 count=64 func=Recv datatype=ncclFloat32
start 25 P2p host={B+2010} parent=21 count=64 peer=0 func=Send datatype=ncclFloat32
start 26 P2p host={B+2011} parent=22 count=32 peer=0 func=Recv datatype=ncclFloat32
start 27 P2p host={B+2012} parent=23 count=64 peer=2 func=Send datatype=ncclFloat32
start 28 P2p host={B+2013} parent=24 count=64 peer=2 func=Recv datatype=ncclFloat32
)";

}  // namespace

TEST_CASE("alltoall: a group with one Send and one Recv per peer, equal counts", "[npkt][model]") {
  const auto captures = captures_from_spec(kSpec);
  const auto& scan = captures[0]->alltoall;
  REQUIRE(scan.alltoalls.size() == 1);
  const auto& a = scan.alltoalls[0];
  CHECK(a.func == NcclFunc::kAllToAll);
  CHECK(a.func_name == "AlltoAll");
  CHECK(a.event == npkit::kNoEvent);
  CHECK(a.seq == 0);
  CHECK(a.count == 64);
  CHECK(a.bytes == 64 * 4 * 3);
  CHECK(a.host_start_ns == static_cast<std::int64_t>(kBase + 100));
  CHECK(a.host_stop_ns == static_cast<std::int64_t>(kBase + 250));
  REQUIRE(a.has_gpu_span);
  CHECK(a.gpu_start_ns == static_cast<std::int64_t>(kBase + 3000));
  CHECK(a.gpu_stop_ns == static_cast<std::int64_t>(kBase + 8000));
  CHECK(a.channels_seen == 2);
  CHECK(scan.p2p_events == 11);
  CHECK(scan.groups_with_p2p == 3);
  CHECK(scan.self_ops == 2);
  CHECK(scan.self_ops_without_kernel_channels == 2);
  CHECK(a.group_api == captures[0]->events.find(1));
  CHECK(a.api_start_ns == static_cast<std::int64_t>(kBase + 10));
  CHECK(scan.reason.empty());
  // The six Send/Recv of the first group are marked; the others are plain.
  std::size_t marked = 0;
  for (const auto& op : captures[0]->collectives) marked += op.in_alltoall ? 1 : 0;
  CHECK(marked == 6);
}

TEST_CASE("alltoall: a group without the rank itself is a plain exchange", "[npkt][model]") {
  // Rank 0 of 2 sends to and receives from rank 1 in one group, as nccl-tests' sendrecv does at 2
  // ranks: one Send to and one Recv from every other rank, but no Send/Recv to itself, which
  // ncclAlltoAll always adds. Read as an AlltoAll it would be one of twice the SendRecv's size.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
start 1 GroupApi host={B+10}
start 2 P2pApi host={B+11} parent=1 count=1024 func=Send datatype=ncclFloat32
start 3 P2pApi host={B+12} parent=1 count=1024 func=Recv datatype=ncclFloat32
start 4 P2p host={B+100} parent=2 count=1024 peer=1 func=Send datatype=ncclFloat32 channels=1
start 5 P2p host={B+101} parent=3 count=1024 peer=1 func=Recv datatype=ncclFloat32 channels=1
)");
  const auto& scan = captures[0]->alltoall;
  CHECK(scan.alltoalls.empty());
  CHECK(scan.reason ==
        "no group holds exactly one Send to and one Recv from every rank, itself included, with "
        "equal counts");
  for (const auto& op : captures[0]->collectives) CHECK_FALSE(op.in_alltoall);
}

TEST_CASE("alltoall: why none was found", "[npkt][model]") {
  const auto no_p2p = captures_from_spec("comm hash=0x1 rank=0 nranks=2\n");
  CHECK(no_p2p[0]->alltoall.reason == "no Send/Recv (P2p) events");
  // API v4: P2p events without P2pApi parents.
  const auto no_api = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2 profiler_api=4
start 1 Group host={B+10}
start 2 P2p host={B+11} parent=1 count=64 peer=1 func=Send datatype=ncclFloat32
start 3 P2p host={B+12} parent=1 count=64 peer=1 func=Recv datatype=ncclFloat32
)");
  CHECK(no_api[0]->alltoall.p2p_without_group == 2);
  CHECK(no_api[0]->alltoall.reason ==
        "the P2p events have no P2pApi/GroupApi parents (API events not captured, or profiler "
        "API v4)");
}

TEST_CASE("alltoall: Send/Recv to the rank itself without KernelCh are counted", "[npkt][model]") {
  // Rank 0 of 2, the rank itself included: Send/Recv to peer 0 have no KernelCh (as NCCL 2.28.9
  // runs the local copy), Send/Recv to peer 1 share channel 16: gpu 2000..5000 (offset 0).
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 GroupApi host={B+10}
start 2 P2pApi host={B+11} parent=1 count=8 func=Send datatype=ncclFloat32
start 3 P2pApi host={B+12} parent=1 count=8 func=Recv datatype=ncclFloat32
start 4 P2pApi host={B+13} parent=1 count=8 func=Send datatype=ncclFloat32
start 5 P2pApi host={B+14} parent=1 count=8 func=Recv datatype=ncclFloat32
start 6 P2p host={B+100} parent=2 count=8 peer=0 func=Send datatype=ncclFloat32 channels=1
start 7 P2p host={B+101} parent=3 count=8 peer=0 func=Recv datatype=ncclFloat32 channels=1
start 8 P2p host={B+102} parent=4 count=8 peer=1 func=Send datatype=ncclFloat32 channels=1
start 9 P2p host={B+103} parent=5 count=8 peer=1 func=Recv datatype=ncclFloat32 channels=1
start 10 KernelCh host={B+2000} parent=8 gpu_start={B+2000} channel=16
start 11 KernelCh host={B+2000} parent=9 gpu_start={B+2000} channel=16
state 10 KernelCh host={B+5000} state=22 value={B+5000}
state 11 KernelCh host={B+5000} state=22 value={B+5000}
)");
  const auto& scan = captures[0]->alltoall;
  REQUIRE(scan.alltoalls.size() == 1);
  CHECK(scan.self_ops == 2);
  CHECK(scan.self_ops_without_kernel_channels == 2);
  const auto& a = scan.alltoalls[0];
  REQUIRE(a.has_gpu_span);
  CHECK(a.gpu_duration_ns() == 3000);
  CHECK(a.kernel_channels == 2);
  CHECK(a.channels_seen == 1);
}
