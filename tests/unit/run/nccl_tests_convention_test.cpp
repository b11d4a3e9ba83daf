// nccl-tests' S and count(elements), worked out by hand from its size(B) and count columns:
// e.g. all_gather_perf with 8 ranks, 1024 float per rank: size 32768 B, count 1024 elements.
#include "run/nccl_tests_convention.hpp"

#include <catch2/catch.hpp>

using npkit::nccl_tests_bytes;
using npkit::nccl_tests_count;
using npkit::NcclFunc;

TEST_CASE("nccl-tests convention: S and count of one rank's operation", "[run]") {
  // AllReduce: S = count × 4 B; count = S / 4.
  CHECK(nccl_tests_bytes(NcclFunc::kAllReduce, 262144, 4, 8) == 1048576);
  CHECK(nccl_tests_count(NcclFunc::kAllReduce, 1048576, 4, 8) == 262144);
  // AllGather, ReduceScatter, AlltoAll: S counts every rank's part; count is one rank's part.
  CHECK(nccl_tests_bytes(NcclFunc::kAllGather, 1024, 4, 8) == 32768);
  CHECK(nccl_tests_count(NcclFunc::kAllGather, 32768, 4, 8) == 1024);
  CHECK(nccl_tests_bytes(NcclFunc::kReduceScatter, 1000, 2, 4) == 8000);
  CHECK(nccl_tests_count(NcclFunc::kAllToAll, 8000, 2, 4) == 1000);
  // Broadcast and SendRecv: one rank's bytes.
  CHECK(nccl_tests_bytes(NcclFunc::kBroadcast, 10, 8, 16) == 80);
  CHECK(nccl_tests_count(NcclFunc::kSendRecv, 80, 8, 2) == 10);
  // An unknown element size gives 0, and a communicator size of 0 counts as 1.
  CHECK(nccl_tests_bytes(NcclFunc::kAllReduce, 100, 0, 8) == 0);
  CHECK(nccl_tests_count(NcclFunc::kAllGather, 4096, 0, 8) == 0);
  CHECK(nccl_tests_count(NcclFunc::kAllGather, 4096, 4, 0) == 1024);
}

TEST_CASE("coll option: selects its own collective only", "[run]") {
  using npkit::coll_selects;
  CHECK(coll_selects("all", "sendrecv"));
  CHECK(coll_selects("alltoall", "alltoall"));
  // An AlltoAll is one instance of its own: --coll alltoall lists no plain Send/Recv.
  CHECK_FALSE(coll_selects("alltoall", "sendrecv"));
  CHECK_FALSE(coll_selects("sendrecv", "alltoall"));
  CHECK_FALSE(coll_selects("allreduce", "allgather"));
}
