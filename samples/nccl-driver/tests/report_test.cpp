// Table and CSV rows; bandwidths worked out by hand: algbw = bytes / seconds / 1e9.
#include <catch2/catch.hpp>

#include "report.hpp"

using npkit::driver::CollKind;
using npkit::driver::Row;

namespace {

Row make_row(CollKind kind, std::size_t count, std::size_t size, int nranks, double time_us) {
  Row row;
  row.kind = kind;
  row.shape.count = count;
  row.shape.size_bytes = size;
  row.nranks = nranks;
  row.time_us = time_us;
  return row;
}

}  // namespace

TEST_CASE("Bandwidths follow nccl-tests", "[nccl-driver]") {
  // 1 MiB in 10 us: 1048576 / 1e-5 s = 104.8576e9 B/s; AllReduce factor on 2 ranks is 1.
  const Row ar = make_row(CollKind::kAllReduce, 262144, 1048576, 2, 10.0);
  CHECK(npkit::driver::algbw_gbps(ar) == Approx(104.8576));
  CHECK(npkit::driver::busbw_gbps(ar) == Approx(104.8576));
  // 4 MiB AllGather on 4 ranks in 100 us: 41.94304 GB/s, busbw x 3/4 = 31.45728.
  const Row ag = make_row(CollKind::kAllGather, 262144, 4194304, 4, 100.0);
  CHECK(npkit::driver::algbw_gbps(ag) == Approx(41.94304));
  CHECK(npkit::driver::busbw_gbps(ag) == Approx(31.45728));
  CHECK(npkit::driver::algbw_gbps(make_row(CollKind::kAllReduce, 1, 4, 2, 0.0)) == 0.0);
}

TEST_CASE("CSV rows carry the agreed columns", "[nccl-driver]") {
  CHECK(npkit::driver::csv_header() ==
        "coll,size_bytes,count,type,nranks,time_us,algbw_gbps,busbw_gbps\n");
  CHECK(npkit::driver::csv_row(make_row(CollKind::kAllReduce, 262144, 1048576, 2, 10.0)) ==
        "allreduce,1048576,262144,float,2,10.000,104.8576,104.8576\n");
  CHECK(npkit::driver::csv_row(make_row(CollKind::kAllGather, 262144, 4194304, 4, 100.0)) ==
        "allgather,4194304,262144,float,4,100.000,41.9430,31.4573\n");
}

TEST_CASE("Table rows read like nccl-tests", "[nccl-driver]") {
  Row ar = make_row(CollKind::kAllReduce, 262144, 1048576, 2, 10.0);
  ar.wrong = 0;
  CHECK(npkit::driver::table_row(ar) ==
        "     1048576          262144  float    sum    -1     10.00      104.86      104.86      "
        "0\n");
  const Row bc = make_row(CollKind::kBroadcast, 16777216, 67108864, 2, 12345.6);
  CHECK(npkit::driver::table_row(bc) ==
        "    67108864        16777216  float   none     0     12346        5.44        5.44    "
        "N/A\n");
  const std::string header = npkit::driver::table_header(CollKind::kAllGather, 2);
  CHECK_THAT(header, Catch::StartsWith("# allgather: 2 ranks, float\n"));
  CHECK_THAT(header, Catch::Contains("size(B) count(elements)   type  redop  root  time(us) "
                                     "algbw(GB/s) busbw(GB/s) #wrong"));
}

TEST_CASE("Footers report the check and the mean bus bandwidth", "[nccl-driver]") {
  CHECK(npkit::driver::table_footer(12.5, std::int64_t{0}) ==
        "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 12.5\n#\n");
  CHECK(npkit::driver::table_footer(1.0, std::int64_t{7}) ==
        "# Out of bounds values : 7 FAILED\n# Avg bus bandwidth    : 1\n#\n");
  CHECK(npkit::driver::table_footer(3.25, std::nullopt) == "# Avg bus bandwidth    : 3.25\n#\n");
}

TEST_CASE("Percentiles interpolate between the closest ranks", "[nccl-driver]") {
  using npkit::driver::percentile;
  // Sorted: 1 2 3 4 5 6 7 8 9 10. p10 at position 0.9: 1.9; median at 4.5: 5.5; p90 at 8.1: 9.1.
  const std::vector<double> values = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  CHECK(percentile(values, 50.0) == Approx(5.5));
  CHECK(percentile(values, 10.0) == Approx(1.9));
  CHECK(percentile(values, 90.0) == Approx(9.1));
  CHECK(percentile(values, 0.0) == Approx(1.0));
  CHECK(percentile(values, 100.0) == Approx(10.0));
  CHECK(percentile({7.0}, 90.0) == Approx(7.0));
  CHECK(percentile({}, 50.0) == 0.0);
}

TEST_CASE("Launch-cost rows: table and CSV", "[nccl-driver]") {
  npkit::driver::CostRow row;
  row.kind = CollKind::kAllReduce;
  row.shape.count = 256;
  row.shape.size_bytes = 1024;
  row.nranks = 2;
  row.calls = 100;
  row.median_us = 12.3456;
  row.p10_us = 10.0;
  row.p90_us = 20.5;
  CHECK(npkit::driver::cost_csv_header() ==
        "coll,size_bytes,count,nranks,calls,median_us,p10_us,p90_us\n");
  CHECK(npkit::driver::cost_csv_row(row) == "allreduce,1024,256,2,100,12.346,10.000,20.500\n");
  CHECK(npkit::driver::cost_table_row(row) ==
        "        1024             256    100      12.35      10.00      20.50\n");
  CHECK_THAT(npkit::driver::cost_table_header(CollKind::kAllReduce, 2, 50),
             Catch::StartsWith("# launch cost: allreduce, 2 ranks, 50 calls per rank and size"));
}
