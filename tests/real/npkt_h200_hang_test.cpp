// `hang` on the shipped H200 captures: every run ended normally (each driver printed its full
// table; the PyTorch job its summary), so nothing may be stuck — including the capture written at
// process exit, where rank 0's proxy thread delivered no KernelCh stop at all.
#include <string>

#include <catch2/catch.hpp>

#include "real/npkt_h200_driver.hpp"
#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

TEST_CASE("hang on the shipped captures: runs that ended normally have nothing stuck",
          "[npkt][real][hang]") {
  for (const char* name :
       {"agree", "socket", "nvlink", "proto-ll", "proto-simple", "torch", "exit"}) {
    INFO(name);
    const std::string dir = npkit::test::require_path(npkit::test::sample_dir(name));
    const auto run = npkit::test::run_cli({"hang", dir + "/dump", "--quiet"});
    INFO(run.out << run.err);
    CHECK(run.exit_code == 0);
    CHECK(run.out.find("STALLED") == std::string::npos);
    CHECK(run.out.find("nothing is stuck: every rank completed its last operation") !=
          std::string::npos);
  }
}
