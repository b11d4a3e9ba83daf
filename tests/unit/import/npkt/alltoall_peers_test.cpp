// AlltoAll traffic per peer and direction, from the Send/Recv inside a recognised AlltoAll.
#include <catch2/catch.hpp>

#include "import/npkt/profiler_alltoall.hpp"
#include "unit/import/npkt/profiler_test_captures.hpp"

TEST_CASE("alltoall per-peer traffic: bytes, timed spans, GB/s", "[npkt][sync][xrank]") {
  // Rank 1 of 3, clock offset 1000 ns (GPU ahead). One AlltoAll group of 64 floats (256 B) per
  // rank, itself included; the Send to rank 0 has a KernelCh gpu 5000..9000 -> host 4000..8000
  // (4000 ns), the Recv from rank 2 gpu 4000..6000 -> 2000 ns; the other four have no KernelCh
  // (not timed; the copy to itself never has one).
  //   peer 0 send: 256 B in 4000 ns = 0.064 GB/s; peer 2 recv: 256 / 2000 = 0.128 GB/s.
  const auto captures = npkit::test::captures_from_spec(R"(
comm hash=0x1 rank=1 nranks=3
clock init before={B+0} after={B+0} gpu={B+1000}
start 1 GroupApi host={B+10}
start 2 P2pApi host={B+11} parent=1 count=64 func=Send datatype=ncclFloat32
start 3 P2pApi host={B+12} parent=1 count=64 func=Recv datatype=ncclFloat32
start 4 P2pApi host={B+13} parent=1 count=64 func=Send datatype=ncclFloat32
start 5 P2pApi host={B+14} parent=1 count=64 func=Recv datatype=ncclFloat32
start 10 P2pApi host={B+15} parent=1 count=64 func=Send datatype=ncclFloat32
start 11 P2pApi host={B+16} parent=1 count=64 func=Recv datatype=ncclFloat32
start 12 P2p host={B+104} parent=10 count=64 peer=1 func=Send datatype=ncclFloat32 channels=2
start 13 P2p host={B+105} parent=11 count=64 peer=1 func=Recv datatype=ncclFloat32 channels=2
start 6 P2p host={B+100} parent=2 count=64 peer=0 func=Send datatype=ncclFloat32 channels=2
start 7 P2p host={B+101} parent=3 count=64 peer=0 func=Recv datatype=ncclFloat32 channels=2
start 8 P2p host={B+102} parent=4 count=64 peer=2 func=Send datatype=ncclFloat32 channels=2
start 9 P2p host={B+103} parent=5 count=64 peer=2 func=Recv datatype=ncclFloat32 channels=2
start 30 KernelCh host={B+300} parent=6 gpu_start={B+5000} channel=0
start 31 KernelCh host={B+300} parent=9 gpu_start={B+4000} channel=1
state 30 KernelCh host={B+400} state=22 value={B+9000}
state 31 KernelCh host={B+400} state=22 value={B+6000}
)");
  REQUIRE(captures[0]->alltoall.alltoalls.size() == 1);
  const auto rows = npkit::alltoall_peer_traffic(captures[0]->collectives, 1);
  REQUIRE(rows.size() == 6);
  CHECK(rows[0].peer == 0);
  CHECK(rows[0].send);
  CHECK(rows[0].operations == 1);
  CHECK(rows[0].bytes == 256);
  CHECK(rows[0].timed == 1);
  CHECK(rows[0].time_ns == 4000);
  CHECK(rows[0].gbps == Approx(0.064));
  CHECK(rows[1].peer == 0);
  CHECK_FALSE(rows[1].send);
  CHECK(rows[1].timed == 0);
  CHECK(rows[1].gbps == 0);
  CHECK(rows[2].peer == 1);
  CHECK(rows[2].timed == 0);
  CHECK(rows[3].peer == 1);
  CHECK(rows[3].timed == 0);
  CHECK(rows[4].peer == 2);
  CHECK(rows[4].send);
  CHECK(rows[4].timed == 0);
  CHECK(rows[5].peer == 2);
  CHECK_FALSE(rows[5].send);
  CHECK(rows[5].time_ns == 2000);
  CHECK(rows[5].gbps == Approx(0.128));
  CHECK(rows[5].rank == 1);
}
