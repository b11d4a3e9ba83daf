// The run model of joined .npkt communicators, as cross-rank input: seq jumps, instances whose
// ranks disagree, missing ranks, dropped records, absent ranks, hosts from metadata.

#include <catch2/catch.hpp>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::test::captures_from_spec;
using npkit::test::pointers;

TEST_CASE("plugin cross-rank input: gaps of the join", "[npkt][join][xrank]") {
  // nranks 3, files for ranks 0 and 1 (rank 2 absent). Rank 0 dropped 7 records and its
  // AllReduce seqs jump 0 -> 3 (1 and 2 missing); rank 1 holds seq 0..3. Seq 3 disagrees on the
  // count (1 vs 2): not used. Seqs 1 and 2 lack rank 0.
  const auto captures = captures_from_spec(R"(
comm hash=0xc rank=0 nranks=3 dropped=7
meta hostname a
start 1 Coll host={B+100} seq=0 count=1 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
start 2 Coll host={B+400} seq=3 count=1 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
comm hash=0xc rank=1 nranks=3
meta hostname a
start 1 Coll host={B+110} seq=0 count=1 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
start 2 Coll host={B+210} seq=1 count=1 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
start 3 Coll host={B+310} seq=2 count=1 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
start 4 Coll host={B+410} seq=3 count=2 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
)");
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  REQUIRE(comms.size() == 1);
  const auto in = npkit::test::cross_rank_of(comms[0]);
  CHECK(in.scope == "comm 000000000000000c");
  CHECK(in.nranks == 3);
  CHECK(in.hosts_known);
  REQUIRE(in.ranks.size() == 2);
  CHECK(in.ranks[1].host == "a");
  CHECK_FALSE(in.ranks[0].net.has_value());
  REQUIRE(in.gaps.size() == 5);
  CHECK(in.gaps[0].kind == "dropped records");
  CHECK(in.gaps[0].detail ==
        "rank 0: 7 record(s) dropped (buffer full), 0 incomplete; operations may lack events");
  CHECK(in.gaps[1].kind == "seq jump");
  CHECK(in.gaps[1].detail ==
        "rank 0 AllReduce: 2 seq number(s) missing (1-2): records dropped, or operations NCCL did "
        "not report");
  CHECK(in.gaps[2].kind == "count mismatch");
  CHECK(in.gaps[2].detail ==
        "AllReduce seq 3: rank 0 count 1 ncclFloat32 RING/LL, rank 1 count 2 ncclFloat32 RING/LL; "
        "not used");
  CHECK(in.gaps[3].kind == "absent ranks");
  CHECK(in.gaps[3].detail == "no data for rank(s) 2 of 3");
  CHECK(in.gaps[4].kind == "missing ranks");
  CHECK(in.gaps[4].detail ==
        "2 instance(s) lack ranks that have data (AllReduce seq 1 lacks rank 0; AllReduce seq 2 "
        "lacks rank 0); analysed with the ranks present");
  // Seq 0, 1, 2 are used (seq 3 is not); no KernelCh, so no rank has times.
  REQUIRE(in.instances.size() == 3);
  CHECK(in.instances[0].label == "AllReduce seq 0");
  CHECK(in.instances[0].bytes == 4);
  CHECK(in.instances[0].ranks.empty());
}

TEST_CASE("plugin cross-rank input: a file without hostname makes hosts unknown",
          "[npkt][join][xrank]") {
  const auto captures = captures_from_spec(R"(
comm hash=0xd rank=0 nranks=2
meta hostname a
comm hash=0xd rank=1 nranks=2
)");
  npkit::Diagnostics diagnostics;
  const auto comms = npkit::join_communicators(pointers(captures), diagnostics);
  const auto in = npkit::test::cross_rank_of(comms[0]);
  CHECK_FALSE(in.hosts_known);
  CHECK(in.ranks[0].host.empty());
  CHECK(in.gaps.empty());
}
