// The nccl-tests size conventions, with expected values worked out by hand from nccl-tests'
// rules (anchors section 1.1): per-rank counts of AllGather/ReduceScatter/AlltoAll are
// floor(bytes / 4 / n) rounded down to 4 floats (16 bytes).
#include <catch2/catch.hpp>

#include "coll_shape.hpp"

using npkit::driver::CollKind;
using npkit::driver::CollShape;
using npkit::driver::shape_for;

TEST_CASE("AllReduce and Broadcast use the whole buffer as count", "[nccl-driver]") {
  const CollShape ar = shape_for(CollKind::kAllReduce, 1048576, 4, 2);
  CHECK(ar.count == 262144);
  CHECK(ar.send_bytes == 1048576);
  CHECK(ar.recv_bytes == 1048576);
  CHECK(ar.size_bytes == 1048576);
  // 10 bytes of floats: 2 whole elements, the row reports 8 bytes.
  CHECK(shape_for(CollKind::kAllReduce, 10, 4, 2).count == 2);
  CHECK(shape_for(CollKind::kAllReduce, 10, 4, 2).size_bytes == 8);
  CHECK(shape_for(CollKind::kBroadcast, 6, 4, 8).count == 1);
  CHECK(shape_for(CollKind::kBroadcast, 2, 4, 8).count == 0);
}

TEST_CASE("AllGather: per-rank count, total size", "[nccl-driver]") {
  // all_gather_perf on 8 GPUs prints "1048576  32768" for the 1 MiB row.
  const CollShape eight = shape_for(CollKind::kAllGather, 1048576, 4, 8);
  CHECK(eight.count == 32768);
  CHECK(eight.send_bytes == 131072);
  CHECK(eight.recv_bytes == 1048576);
  CHECK(eight.size_bytes == 1048576);
  // 1000 B on 3 ranks: 250 floats / 3 = 83, rounded down to 80; size 80 * 4 * 3 = 960.
  const CollShape three = shape_for(CollKind::kAllGather, 1000, 4, 3);
  CHECK(three.count == 80);
  CHECK(three.send_bytes == 320);
  CHECK(three.recv_bytes == 960);
  CHECK(three.size_bytes == 960);
  // 8 B on 2 ranks: 1 float per rank rounds down to 0: the row is skipped.
  CHECK(shape_for(CollKind::kAllGather, 8, 4, 2).count == 0);
  CHECK(shape_for(CollKind::kAllGather, 16, 4, 2).count == 0);
  CHECK(shape_for(CollKind::kAllGather, 32, 4, 2).count == 4);
}

TEST_CASE("ReduceScatter and AlltoAll mirror AllGather's counts", "[nccl-driver]") {
  const CollShape rs = shape_for(CollKind::kReduceScatter, 1000, 4, 3);
  CHECK(rs.count == 80);
  CHECK(rs.send_bytes == 960);
  CHECK(rs.recv_bytes == 320);
  CHECK(rs.size_bytes == 960);
  const CollShape a2a = shape_for(CollKind::kAlltoAll, 1000, 4, 3);
  CHECK(a2a.count == 80);
  CHECK(a2a.send_bytes == 960);
  CHECK(a2a.recv_bytes == 960);
  CHECK(a2a.size_bytes == 960);
  // A 2-byte type aligns per-rank counts to 8 elements: 100 B = 50 halves, / 2 = 25 -> 24.
  CHECK(shape_for(CollKind::kAlltoAll, 100, 2, 2).count == 24);
}

TEST_CASE("SendRecv sends and receives the whole size, as sendrecv_perf", "[nccl-driver]") {
  const CollShape sr = shape_for(CollKind::kSendRecv, 1048576, 4, 4);
  CHECK(sr.count == 262144);
  CHECK(sr.send_bytes == 1048576);
  CHECK(sr.recv_bytes == 1048576);
  CHECK(sr.size_bytes == 1048576);
  CHECK(npkit::driver::busbw_factor(CollKind::kSendRecv, 8) == Approx(1.0));
  CHECK(npkit::driver::redop_name(CollKind::kSendRecv) == "none");
  CHECK(npkit::driver::root_rank(CollKind::kSendRecv) == -1);
}

TEST_CASE("busbw factors are the nccl-tests ones", "[nccl-driver]") {
  using npkit::driver::busbw_factor;
  CHECK(busbw_factor(CollKind::kAllReduce, 2) == Approx(1.0));
  CHECK(busbw_factor(CollKind::kAllReduce, 8) == Approx(1.75));
  CHECK(busbw_factor(CollKind::kAllGather, 2) == Approx(0.5));
  CHECK(busbw_factor(CollKind::kReduceScatter, 8) == Approx(0.875));
  CHECK(busbw_factor(CollKind::kAlltoAll, 4) == Approx(0.75));
  CHECK(busbw_factor(CollKind::kBroadcast, 8) == Approx(1.0));
}

TEST_CASE("Size sweeps run from min to max inclusive", "[nccl-driver]") {
  using npkit::driver::size_sweep;
  const auto full = size_sweep(8, std::size_t{256} << 20, 2);  // 2^3 .. 2^28
  REQUIRE(full.size() == 26);
  CHECK(full.front() == 8);
  CHECK(full.back() == 268435456);
  CHECK(size_sweep(1024, std::size_t{64} << 20, 4) ==
        std::vector<std::size_t>{1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216,
                                 67108864});
  CHECK(size_sweep(3, 20, 2) == std::vector<std::size_t>{3, 6, 12});
  CHECK(size_sweep(10, 5, 2).empty());
}

TEST_CASE("Collective names parse case-insensitively and print the nccl-tests columns",
          "[nccl-driver]") {
  using npkit::driver::parse_coll;
  CHECK(parse_coll("AllReduce") == CollKind::kAllReduce);
  CHECK(parse_coll("alltoall") == CollKind::kAlltoAll);
  CHECK(parse_coll("SendRecv") == CollKind::kSendRecv);
  CHECK(npkit::driver::default_colls().size() == 5);  // sendrecv only when asked for
  CHECK(npkit::driver::known_colls().size() == 6);
  CHECK(npkit::driver::coll_name(CollKind::kSendRecv) == "sendrecv");
  CHECK_FALSE(parse_coll("allreduce2").has_value());
  CHECK_FALSE(parse_coll("").has_value());
  CHECK(npkit::driver::redop_name(CollKind::kReduceScatter) == "sum");
  CHECK(npkit::driver::redop_name(CollKind::kAllGather) == "none");
  CHECK(npkit::driver::root_rank(CollKind::kBroadcast) == 0);
  CHECK(npkit::driver::root_rank(CollKind::kAllReduce) == -1);
}
