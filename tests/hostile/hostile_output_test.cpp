// Hostile output: an -o FILE that cannot be written. Every command that writes a file either
// leaves the previous file as it was or replaces it whole, and says which path failed and how:
// a missing directory (nothing can be created), a target that a rename cannot replace (here a
// directory: the temporary beside it is removed again), and a device that refuses the bytes
// (/dev/full, written in place). Traces cover their three writers: legacy dumps, .npkt
// captures and JSON traces.
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "hostile/hostile_run.hpp"
#include "support/legacy_dump_writer.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

// Two ranks of one 4096-byte ALL_REDUCE_RING span each, with clocks (hostile_legacy_test.cpp).
const std::string kDump =
    "rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n"
    "rank 1 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n"
    "rank 0 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=4096 ts=5000 | "
    "0x02 size=4096 ts=6000\n"
    "rank 1 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=4096 ts=5200 | "
    "0x02 size=4096 ts=6400\n";

const std::string kError = "npkit-analyze: error: ";

// The trace inputs: a legacy dump made here, then two committed fixtures.
std::vector<std::string> trace_inputs(const TempDir& tmp) {
  write_legacy_dump(tmp, kDump);
  return {"$DIR/dump", source_path("tests/golden/cases/npkt_ring/dump"),
          source_path("tests/golden/cases/json_generator_report/npkit_event_trace.json")};
}

TEST_CASE("hostile output: -o in a missing directory names the file it could not create",
          "[hostile]") {
  TempDir tmp;
  for (const std::string& input : trace_inputs(tmp)) {
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "$DIR/missing/trace.json"});
    CHECK(trace.exit_code == 2);
    CHECK(trace.err == kError +
                           "cannot write $DIR/missing/trace.json: cannot create "
                           "$DIR/missing/trace.json.tmp\n");
  }
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump", "-o", "$DIR/missing/r.txt"});
  CHECK(report.exit_code == 2);
  CHECK(report.err ==
        kError + "cannot write $DIR/missing/r.txt: cannot create $DIR/missing/r.txt.tmp\n");
  CHECK_FALSE(fs::exists(tmp.file("missing")));
}

TEST_CASE("hostile output: a target the rename cannot replace stays, the temporary goes",
          "[hostile]") {
  TempDir tmp;
  const std::string target = tmp.make_dir("taken");
  tmp.write_file("taken/keep", "x");
  for (const std::string& input : trace_inputs(tmp)) {
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "$DIR/taken"});
    CHECK(trace.exit_code == 2);
    CHECK(trace.err == kError + "cannot write $DIR/taken: rename failed\n");
    CHECK(fs::is_directory(target));
    CHECK(fs::exists(tmp.file("taken/keep")));
    CHECK_FALSE(fs::exists(tmp.file("taken.tmp")));
  }
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump", "-o", "$DIR/taken"});
  CHECK(report.exit_code == 2);
  CHECK(report.err == kError + "cannot write $DIR/taken: rename failed\n");
  CHECK_FALSE(fs::exists(tmp.file("taken.tmp")));
}

TEST_CASE("hostile output: a device that refuses the bytes is a failed run, not a short file",
          "[hostile]") {
  if (!fs::exists("/dev/full")) {
    WARN("no /dev/full on this machine: the full-device case is not run");
    return;
  }
  TempDir tmp;
  for (const std::string& input : trace_inputs(tmp)) {
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "/dev/full"});
    CHECK(trace.exit_code == 2);
    CHECK(trace.err == kError + "cannot write /dev/full (disk full?)\n");
  }
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump", "-o", "/dev/full"});
  CHECK(report.exit_code == 2);
  CHECK(report.err == kError + "cannot write /dev/full (disk full?)\n");
}

TEST_CASE("hostile output: a trace that can be written replaces the old file whole", "[hostile]") {
  TempDir tmp;
  for (const std::string& input : trace_inputs(tmp)) {
    tmp.write_file("trace.json", "an older file");
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "$DIR/trace.json"});
    CHECK(trace.exit_code == 0);
    CHECK_THAT(trace.err, Catch::StartsWith("wrote "));
    CHECK_THAT(trace.err, Catch::Contains(" events to $DIR/trace.json\n"));
    CHECK(fs::file_size(tmp.file("trace.json")) > 100);
    CHECK_FALSE(fs::exists(tmp.file("trace.json.tmp")));
  }
}

}  // namespace
}  // namespace npkit::test
