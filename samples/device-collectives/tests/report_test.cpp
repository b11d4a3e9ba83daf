// Rows, bandwidths and the CSV, worked out by hand: algbw = bytes / seconds / 1e9.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "report.hpp"

using device_collectives::Measurement;
using device_collectives::summarize;

TEST_CASE("report: nccl-tests bandwidths, mean and max over ranks", "[device-collectives]") {
  // 1 MiB all-reduce, ranks took 10 us and 30 us: mean 20 us; 1048576 / 20e-6 / 1e9 = 52.4288.
  const auto ar = summarize(Measurement{"allreduce", 1048576, 262144, 5, {10.0, 30.0}, 0}, 2);
  CHECK(ar.time_us == Approx(20.0));
  CHECK(ar.time_max_us == Approx(30.0));
  CHECK(ar.algbw_gbps == Approx(52.4288));
  CHECK(ar.busbw_gbps == Approx(52.4288));  // 2(n-1)/n = 1 for n = 2
  // 4 ranks: all-reduce factor 1.5, all-to-all 0.75.
  CHECK(device_collectives::bus_factor("allreduce", 4) == Approx(1.5));
  CHECK(device_collectives::bus_factor("alltoall", 4) == Approx(0.75));
  const auto a2a =
      summarize(Measurement{"alltoall", 4000000, 250000, 5, {100, 100, 100, 100}, 3}, 4);
  CHECK(a2a.algbw_gbps == Approx(40.0));
  CHECK(a2a.busbw_gbps == Approx(30.0));
  CHECK(a2a.wrong == 3);
}

TEST_CASE("report: CSV header and one line per row", "[device-collectives]") {
  char path[] = "/tmp/npkit-device-collectives-report-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  const auto row = summarize(Measurement{"allreduce", 1000, 250, 2, {1.0, 1.0}, 0}, 2);
  std::string error;
  REQUIRE(device_collectives::write_csv(path, {row}, "plain", &error));
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  unlink(path);
  CHECK(text.str() ==
        "build,coll,size_bytes,count,iters,time_us,time_max_us,algbw_gbps,busbw_gbps,wrong\n"
        "plain,allreduce,1000,250,2,1.000,1.000,1.000,1.000,0\n");
  CHECK_FALSE(device_collectives::write_csv("/nonexistent-dir/x.csv", {row}, "plain", &error));
  CHECK_THAT(error, Catch::Contains("/nonexistent-dir/x.csv"));
}
