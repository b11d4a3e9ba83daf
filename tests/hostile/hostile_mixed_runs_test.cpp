// A directory of many captures whose metadata conflict (each its own NCCL version): grouping stays
// fast, and what names the runs stays bounded.
#include <catch2/catch.hpp>

#include <string>

#include "hostile/hostile_run.hpp"
#include "support/npkt_spec.hpp"

using npkit::test::CliRun;
using npkit::test::run_hostile;
using npkit::test::TempDir;
using npkit::test::write_npkt_spec;

TEST_CASE("hostile npkt: 300 captures of conflicting NCCL versions name at most 8 runs",
          "[hostile]") {
  TempDir tmp;
  std::string spec;
  constexpr int kFiles = 300;
  for (int i = 1; i <= kFiles; ++i) {
    spec += "comm hash=" + std::to_string(i) +
            " rank=0 nranks=1 start_ns=1700000000000000000 end_ns=1700000001000000000 "
            "clock_method=1 event_mask=4095\nmeta hostname node0\nmeta nccl.version 2." +
            std::to_string(i) + "\nnames standard\n";
  }
  write_npkt_spec(tmp, spec);
  const CliRun info = run_hostile(tmp, {"info", "$DIR/dump"});
  CHECK(info.exit_code == 0);
  CHECK_THAT(info.err, Catch::Contains("1 × mixed runs: $DIR/dump holds the files of 300 runs"));
  CHECK_THAT(info.err, Catch::Contains("; and 292 more; read one with --run N"));
  const auto line_end = info.err.find('\n', info.err.find("mixed runs"));
  CHECK(line_end - info.err.find("mixed runs") < 8 * 200);
  CHECK_THAT(info.out,
             Catch::Contains("300, read together (--run N reads one); the first 8 named"));
  CHECK_THAT(info.out, Catch::Contains("\nrun 8 "));
  CHECK(info.out.find("\nrun 9 ") == std::string::npos);
  // The last run is there to read alone.
  const CliRun last = run_hostile(tmp, {"summarize", "$DIR/dump", "--run", "300", "-q"});
  CHECK(last.exit_code == 0);
  CHECK_THAT(last.out, Catch::Contains("\"nccl_versions\": [\"2."));
}
