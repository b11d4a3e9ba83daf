// The real 2×H200 device-recorder capture (samples/device-h200/collectives: 3 sizes × (2 warm-up
// + 5 timed) launches of each collective, 32 blocks per rank) across ranks: with the sample's
// phase map the kernel-wide spans are collectives, joined by occurrence per (name, stream).
// Expected counts come from the program's loop structure (samples/device-h200/collectives/run.txt).
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <string>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace {

constexpr std::uint64_t kSizes = 3;
constexpr std::uint64_t kLaunches = 2 + 5;

}  // namespace

TEST_CASE("device capture across ranks: every launch joined on both ranks, no gap", "[real]") {
  const std::string dump = npkit::test::source_path("samples/device-h200/collectives/dump");
  const std::string map = npkit::test::source_path("samples/device-collectives/phase-map.txt");
  const auto run =
      npkit::test::run_cli({"report", dump, "--phase-map", map, "--format", "json", "--quiet"});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(run.out);
  // The communicator of the event records' collective-level spans: scope = the dump's path.
  simdjson::dom::element cross;
  for (simdjson::dom::element c : doc["communicators"].get_array()) {
    if (c["comm"].get_string().value() == dump) cross = c;
  }
  REQUIRE(cross.is_object());
  CHECK(cross["join_gaps"].get_array().size() == 0);
  std::uint64_t allreduce = 0;
  std::uint64_t alltoall = 0;
  for (simdjson::dom::element c : cross["sync"]["collectives"].get_array()) {
    const std::string_view name = c["collective"].get_string();
    const std::uint64_t n = c["instances"].get_uint64();
    if (name == "AllReduce") allreduce = n;
    if (name == "AlltoAll") alltoall = n;
  }
  CHECK(allreduce == kSizes * kLaunches);
  CHECK(alltoall == kSizes * kLaunches);
}

TEST_CASE("device capture without a phase map: the report says how to join the ranks", "[real]") {
  const std::string dump = npkit::test::source_path("samples/device-h200/collectives/dump");
  const auto run = npkit::test::run_cli({"report", dump, "--quiet"});
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("Spans across ranks: no collective-level span to join "
                                      "(give the kernel-wide spans a collective in --phase-map"));
}
