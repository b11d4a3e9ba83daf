// Expected receive-buffer values, worked out by hand: send buffers hold rank + 1.
#include <catch2/catch.hpp>

#include <vector>

#include "check_pattern.hpp"

using npkit::driver::CollKind;
using npkit::driver::count_wrong;
using npkit::driver::expected_value;

TEST_CASE("Reductions expect the sum of rank + 1 over the ranks", "[nccl-driver]") {
  CHECK(expected_value(CollKind::kAllReduce, 0, 4, 100, 0) == 10.0f);  // 1 + 2 + 3 + 4
  CHECK(expected_value(CollKind::kReduceScatter, 3, 8, 16, 15) == 36.0f);
  CHECK(expected_value(CollKind::kAllReduce, 0, 1, 1, 0) == 1.0f);
}

TEST_CASE("AllGather and AlltoAll expect block j to hold j + 1", "[nccl-driver]") {
  // 3 ranks, 4 elements per rank: 1 1 1 1 2 2 2 2 3 3 3 3 on every rank.
  for (CollKind kind : {CollKind::kAllGather, CollKind::kAlltoAll}) {
    CHECK(expected_value(kind, 2, 3, 4, 0) == 1.0f);
    CHECK(expected_value(kind, 0, 3, 4, 3) == 1.0f);
    CHECK(expected_value(kind, 1, 3, 4, 4) == 2.0f);
    CHECK(expected_value(kind, 1, 3, 4, 11) == 3.0f);
  }
}

TEST_CASE("Broadcast expects the root's 1, SendRecv the left neighbour's rank + 1",
          "[nccl-driver]") {
  CHECK(expected_value(CollKind::kBroadcast, 5, 8, 10, 9) == 1.0f);
  CHECK(expected_value(CollKind::kSendRecv, 0, 4, 10, 0) == 4.0f);  // receives from rank 3
  CHECK(expected_value(CollKind::kSendRecv, 1, 4, 10, 0) == 1.0f);  // from rank 0
  CHECK(expected_value(CollKind::kSendRecv, 3, 4, 10, 0) == 3.0f);  // from rank 2
  CHECK(expected_value(CollKind::kSendRecv, 0, 1, 10, 0) == 1.0f);  // to and from itself
}

TEST_CASE("Wrong elements are counted chunk by chunk", "[nccl-driver]") {
  // AllGather on 2 ranks, 3 elements each: 1 1 1 2 2 2. Chunk of elements 2..5.
  const std::vector<float> chunk = {1.0f, 0.0f, 2.0f, 7.0f};
  CHECK(count_wrong(CollKind::kAllGather, 0, 2, 3, 2, chunk.data(), chunk.size()) == 2);
  const std::vector<float> sums(5, 3.0f);
  CHECK(count_wrong(CollKind::kAllReduce, 1, 2, 5, 0, sums.data(), sums.size()) == 0);
  CHECK(npkit::driver::received_elements(
            npkit::driver::shape_for(CollKind::kAllGather, 96, 4, 3)) == 24);
}
