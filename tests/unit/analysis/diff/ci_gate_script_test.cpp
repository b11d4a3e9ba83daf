// scripts/ci-gate-example.sh, the local run of the example CI workflow, against the built
// npkit-analyze (beside this test binary): it must pass an unchanged candidate (exit 0) and
// fail one with an injected regression (exit 1), which the script checks and reports.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <cstdlib>
#include <filesystem>

#include "support/test_data.hpp"

TEST_CASE("ci gate example script: passes a clean run, fails an injected regression",
          "[diff][ci][script]") {
  namespace fs = std::filesystem;
  const fs::path analyze = fs::read_symlink("/proc/self/exe").parent_path() / "npkit-analyze";
  INFO("expects the built npkit-analyze at " << analyze.string());
  REQUIRE(fs::exists(analyze));
  const std::string script = npkit::test::source_path("scripts/ci-gate-example.sh");
  const std::string command = "bash '" + script + "' '" + analyze.string() + "' > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
