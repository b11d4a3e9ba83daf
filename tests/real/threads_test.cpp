// Reading on several threads gives byte-identical results to reading on one: tracks are split
// into contiguous runs and the per-thread results merged in track order.
#include <catch2/catch.hpp>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

TEST_CASE("info, report and bandwidth do not depend on --threads", "[real][threads]") {
  for (const std::string set : {"ring_simple", "tree_simple", "alltoall"}) {
    const std::string dump = npkit::test::source_path("samples/npkit-h200/" + set + "/dump");
    npkit::test::require_path(dump);
    for (const std::string command : {"info", "report", "bandwidth"}) {
      const auto one = npkit::test::run_cli({command, dump, "--format", "json", "--threads", "1"});
      REQUIRE(one.exit_code == 0);
      for (const std::string n : {"2", "3", "7"}) {
        INFO(set << " " << command << " --threads " << n);
        const auto many = npkit::test::run_cli({command, dump, "--format", "json", "--threads", n});
        CHECK(many.exit_code == 0);
        CHECK(many.out == one.out);
        CHECK(many.err == one.err);
      }
    }
  }
}
