// Collective instances across ranks: (func, seq) keys, occurrences of repeated keys, Send/Recv
// pairs, missing ranks, duplicate and inconsistent files.
#include "import/npkt/communicator_join.hpp"

#include <catch2/catch.hpp>

#include "support/find_warning.hpp"
#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::test::captures_from_spec;
using npkit::test::find_warning;
using npkit::test::pointers;

TEST_CASE("join: (func, seq) across ranks, repeats by occurrence, missing ranks reported",
          "[npkt][join]") {
  // Three ranks. AllReduce seq 0 appears twice on every rank (a frozen seq, as in graph replays):
  // occurrences 0 and 1 in host start order. Rank 2 lacks AllGather seq 0.
  const auto captures = captures_from_spec(R"(
comm hash=0xa rank=0 nranks=3
start 1 Coll host={B+100} seq=0 count=1 func=AllReduce datatype=ncclFloat32
start 2 Coll host={B+300} seq=0 count=1 func=AllReduce datatype=ncclFloat32
start 3 Coll host={B+500} seq=0 count=1 func=AllGather datatype=ncclInt8
comm hash=0xa rank=1 nranks=3
start 1 Coll host={B+310} seq=0 count=1 func=AllReduce datatype=ncclFloat32
start 2 Coll host={B+110} seq=0 count=1 func=AllReduce datatype=ncclFloat32
start 3 Coll host={B+510} seq=0 count=1 func=AllGather datatype=ncclInt8
comm hash=0xa rank=2 nranks=3
start 1 Coll host={B+90} seq=0 count=1 func=AllReduce datatype=ncclFloat32
start 2 Coll host={B+320} seq=0 count=1 func=AllReduce datatype=ncclFloat32
)");
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  REQUIRE(comms.size() == 1);
  const auto& comm = comms[0];
  CHECK(comm.comm_hash == 0xa);
  CHECK(comm.nranks == 3);
  CHECK(comm.absent_ranks.empty());
  REQUIRE(comm.instances.size() == 3);
  const auto& first = comm.instances[0];
  CHECK(first.func_name == "AllReduce");
  CHECK(first.occurrence == 0);
  CHECK(first.first_host_start_ns == static_cast<std::int64_t>(npkit::test::kBase + 90));
  REQUIRE(first.members.size() == 3);
  // Rank 1's occurrence 0 is its earlier start (B+110), though it comes second in its file.
  CHECK(first.members[1].rank == 1);
  CHECK(first.members[1].op->host_start_ns == static_cast<std::int64_t>(npkit::test::kBase + 110));
  CHECK(comm.instances[1].occurrence == 1);
  const auto& gather = comm.instances[2];
  CHECK(gather.func_name == "AllGather");
  CHECK(gather.members.size() == 2);
  CHECK(gather.missing_ranks == std::vector<std::int32_t>{2});
  CHECK(comm.instances_missing_ranks == 1);
  CHECK(diagnostics.warnings().empty());
}

TEST_CASE("join: copy-engine collectives join among themselves", "[npkt][join]") {
  // Kernel AllGather seq 2 and CE AllGather seq 2 on both ranks: same func and seq, two instances
  // (CE seq numbers are NCCL's CE sequence, not the kernel collectives').
  const auto captures = captures_from_spec(R"(
comm hash=0xc rank=0 nranks=2
start 1 Coll host={B+100} seq=2 count=8 func=AllGather datatype=ncclInt8
start 2 CeColl host={B+200} seq=2 count=8 func=AllGather datatype=ncclInt8 sync=UC
comm hash=0xc rank=1 nranks=2
start 1 Coll host={B+110} seq=2 count=8 func=AllGather datatype=ncclInt8
start 2 CeColl host={B+210} seq=2 count=8 func=AllGather datatype=ncclInt8 sync=UC
)");
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  REQUIRE(comms.size() == 1);
  REQUIRE(comms[0].instances.size() == 2);
  const auto& kernel = comms[0].instances[0];
  const auto& ce = comms[0].instances[1];
  CHECK_FALSE(kernel.copy_engine);
  CHECK(ce.copy_engine);
  CHECK(ce.func_name == "AllGather");
  CHECK(ce.seq == 2);
  REQUIRE(ce.members.size() == 2);
  for (const auto& member : ce.members) CHECK(member.op->copy_engine);
  CHECK(ce.missing_ranks.empty());
}

TEST_CASE("join: Send/Recv pairs, absent ranks, duplicate files", "[npkt][join]") {
  // nranks 4, files for ranks 0, 1 and a second file for rank 1. Rank 0 sends twice to 1 and
  // once to 3 (rank 3 has no file, so nothing is missing); rank 1 receives once from 0.
  const auto captures = captures_from_spec(R"(
comm hash=0xb rank=0 nranks=4
start 1 P2p host={B+100} count=8 peer=1 func=Send datatype=ncclFloat32
start 2 P2p host={B+200} count=8 peer=1 func=Send datatype=ncclFloat32
start 3 P2p host={B+300} count=8 peer=3 func=Send datatype=ncclFloat32
comm hash=0xb rank=1 nranks=4
start 1 P2p host={B+150} count=8 peer=0 func=Recv datatype=ncclFloat32
comm hash=0xb rank=1 nranks=4 file=again.npkt
start 1 P2p host={B+150} count=8 peer=0 func=Recv datatype=ncclFloat32
)");
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  REQUIRE(comms.size() == 1);
  const auto& comm = comms[0];
  CHECK(comm.ranks.size() == 2);
  CHECK(comm.absent_ranks == std::vector<std::int32_t>{2, 3});
  const auto* dup = find_warning(diagnostics, "duplicate rank");
  REQUIRE(dup != nullptr);
  CHECK(dup->count == 1);
  REQUIRE(comm.instances.size() == 3);
  const auto& pair = comm.instances[0];
  CHECK(pair.is_pair());
  CHECK(pair.func_name == "SendRecv");
  CHECK(pair.sender == 0);
  CHECK(pair.receiver == 1);
  CHECK(pair.seq == 0);
  CHECK(pair.members.size() == 2);
  CHECK(pair.missing_ranks.empty());
  // The second Send to 1 has no Recv on rank 1, which has a file: missing.
  CHECK(comm.instances[1].seq == 1);
  CHECK(comm.instances[1].missing_ranks == std::vector<std::int32_t>{1});
  // The Send to rank 3 (no file) misses nobody that could have it.
  CHECK(comm.instances[2].receiver == 3);
  CHECK(comm.instances[2].missing_ranks.empty());
}

TEST_CASE("join: communicators apart, nranks disagreement warned", "[npkt][join]") {
  const auto captures = captures_from_spec(R"(
comm hash=0x2 rank=0 nranks=2
comm hash=0x1 rank=0 nranks=2
comm hash=0x1 rank=1 nranks=3
comm hash=0x1 rank=-1 nranks=2
)");
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  REQUIRE(comms.size() == 2);
  CHECK(comms[0].comm_hash == 0x1);
  CHECK(comms[0].nranks == 3);
  CHECK(comms[0].ranks.size() == 2);  // the rank -1 file takes no part
  CHECK(comms[0].absent_ranks == std::vector<std::int32_t>{2});
  CHECK(comms[1].comm_hash == 0x2);
  CHECK(find_warning(diagnostics, "differing sizes") != nullptr);
}
