// On a host that refuses to start threads (at its process limit), commands asked for several
// threads still finish, on the calling thread, with the same output: `trace` (pass 1 read in
// parallel, tracks encoded in ordered chunks, the directory's stats, the background writer) in
// both formats and `report`, on a real NPKit dump, against the same commands run normally.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"
#include "support/without_threads.hpp"

TEST_CASE("commands on a host that refuses threads give the same output", "[real]") {
  npkit::test::TempDir tmp;
  const std::string dump = npkit::test::readable_copy(
      npkit::test::source_path("samples/npkit-h200/ring_simple/dump"), tmp.path());
  const std::vector<std::vector<std::string>> commands = {
      {"trace", dump, "--threads", "4", "--quiet"},
      {"trace", dump, "--format", "perfetto", "--threads", "4", "--quiet"},
      {"report", dump, "--threads", "4"},
  };
  for (const auto& args : commands) {
    INFO(args[0] << " " << args[2] << " " << args[3]);
    const auto normal = npkit::test::run_cli(args);
    REQUIRE(normal.exit_code == 0);
    REQUIRE(normal.out.size() > 1000);
    const std::string failed = npkit::test::run_without_threads([&]() -> std::string {
      const auto alone = npkit::test::run_cli(args);
      if (alone.exit_code != 0) return "exit " + std::to_string(alone.exit_code) + ": " + alone.err;
      if (alone.out != normal.out) return "other output";
      if (alone.err != normal.err) return "other messages: " + alone.err;
      return "";
    });
    CHECK(failed == "");
  }
}
