// Real captures of different runs copied into one directory: the runs found are the ones the files
// were copied from, numbered by start time as each sample's run.txt dates it, and --run N reads
// exactly what the run's own directory holds (its summary is the same as the directory's).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using npkit::test::CliRun;
using npkit::test::run_cli;
using npkit::test::source_path;
using npkit::test::TempDir;

namespace {

// run.txt dates each: 2.28.9 n2-default 21:16:01Z, 2.30.7 n2-default 21:20:22Z, 2.30.7 n4-default
// 21:20:27Z (2026-12-04). nccl-h200/agree captured events coll,kernel, nccl-h200/nvlink all.
const std::string kOld2 = "samples/onegpu-h200/nccl-2.28.9/matrix/n2-default/dump";
const std::string kNew2 = "samples/onegpu-h200/nccl-2.30.7/matrix/n2-default/dump";
const std::string kNew4 = "samples/onegpu-h200/nccl-2.30.7/matrix/n4-default/dump";
const std::string kCollKernel = "samples/nccl-h200/agree/dump";
const std::string kAllEvents = "samples/nccl-h200/nvlink/dump";

// A directory under `tmp` holding copies of every file of `dirs`.
std::string mixed(const TempDir& tmp, const std::vector<std::string>& dirs) {
  const std::string out = tmp.make_dir("mixed");
  for (const auto& dir : dirs) {
    for (const auto& e : fs::directory_iterator(source_path(dir))) {
      fs::copy_file(e.path(), fs::path(out) / e.path().filename());
    }
  }
  return out;
}

// The summary of `path` (--env none, one label, so that only what the files hold can differ).
CliRun summary(const std::string& path, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"summarize", source_path(path), "--env", "none", "--label", "x",
                                   "-q"};
  if (path.starts_with("/")) args[1] = path;
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

}  // namespace

TEST_CASE("mixed runs: the files of one run give no mixed runs warning", "[real][mixed_runs]") {
  TempDir tmp;
  const std::string dir = mixed(tmp, {kNew4});
  const CliRun info = run_cli({"info", dir});
  CHECK(info.exit_code == 0);
  CHECK(info.err.find("mixed runs") == std::string::npos);
  CHECK(info.out.find("\nruns") == std::string::npos);
  CHECK(summary(dir).exit_code == 0);
}

TEST_CASE("mixed runs: NCCL 2.28.9 and 2.30.7 runs in one directory are two runs",
          "[real][mixed_runs]") {
  TempDir tmp;
  const std::string dir = mixed(tmp, {kNew2, kOld2});
  const CliRun info = run_cli({"info", dir});
  CHECK(info.exit_code == 0);
  INFO(info.out << info.err);
  CHECK_THAT(info.err, Catch::Contains("mixed runs: " + dir + " holds the files of 2 runs"));
  // run 1 is 2.28.9's (the earlier), run 2 2.30.7's, each with the files copied from it.
  CHECK_THAT(info.err, Catch::Contains("run 1: 2 file(s): comm f71e551407866e38 ranks 0-1; host "
                                       "vm; 2026-12-04 21:1"));
  CHECK_THAT(info.err, Catch::Contains("run 2: 2 file(s): comm 8d36ed01034b50b2 ranks 0-1; host "
                                       "vm; 2026-12-04 21:"));
  CHECK_THAT(info.err, Catch::Contains("NCCL 2.28.9"));
  CHECK_THAT(info.out, Catch::Contains("runs"));
  CHECK_THAT(info.out, Catch::Contains("2, read together (--run N reads one)"));

  // The gate refuses to pool them, and says how to pick one or pool them.
  const CliRun refused = summary(dir);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("holds the files of 2 runs"));
  CHECK_THAT(refused.err, Catch::Contains("--run N"));
  CHECK_THAT(refused.err, Catch::Contains("--pool-runs"));
  const CliRun diff = run_cli({"diff", dir, source_path(kOld2), "-q"});
  CHECK(diff.exit_code == 2);
  CHECK_THAT(diff.err, Catch::Contains("holds the files of 2 runs"));
  CHECK(summary(dir, {"--pool-runs"}).exit_code == 0);

  // --run N is the run's own directory.
  const CliRun old_alone = summary(kOld2);
  const CliRun new_alone = summary(kNew2);
  REQUIRE(old_alone.exit_code == 0);
  REQUIRE(new_alone.exit_code == 0);
  const CliRun run1 = summary(dir, {"--run", "1"});
  const CliRun run2 = summary(dir, {"--run", "2"});
  CHECK(run1.exit_code == 0);
  CHECK(run2.exit_code == 0);
  CHECK(run1.out == old_alone.out);
  CHECK(run2.out == new_alone.out);
  CHECK(run1.out != run2.out);
  // And so is its report, but for the input's path.
  const CliRun report = run_cli({"report", dir, "--run", "2", "--env", "none", "-q"});
  const CliRun alone = run_cli({"report", source_path(kNew2), "--env", "none", "-q"});
  REQUIRE(report.exit_code == 0);
  std::string expected = alone.out;
  expected.replace(expected.find(source_path(kNew2)), source_path(kNew2).size(), dir);
  CHECK(report.out == expected);

  // A run that is not there.
  const CliRun third = summary(dir, {"--run", "3"});
  CHECK(third.exit_code == 2);
  CHECK_THAT(third.err, Catch::Contains("--run 3: " + dir + " holds the files of 2 runs"));
}

TEST_CASE("mixed runs: two runs of one NCCL version apart in time are two runs",
          "[real][mixed_runs]") {
  TempDir tmp;
  const std::string dir = mixed(tmp, {kNew4, kNew2});
  const CliRun info = run_cli({"info", dir});
  INFO(info.err);
  CHECK_THAT(info.err, Catch::Contains("run 1: 2 file(s): comm 8d36ed01034b50b2 ranks 0-1"));
  CHECK_THAT(info.err, Catch::Contains("run 2: 4 file(s): comm 29a7a495480d2e0a ranks 0-3"));
  CHECK(summary(dir, {"--run", "2"}).out == summary(kNew4).out);
  // report reads one run alone without a warning; info says which run it read.
  const CliRun report = run_cli({"report", dir, "--run", "1"});
  CHECK(report.exit_code == 0);
  CHECK(report.err.find("mixed runs") == std::string::npos);
  CHECK_THAT(run_cli({"info", dir, "--run", "1", "-q"}).out,
             Catch::Contains("2; run 1 read (--run 1)"));
}

TEST_CASE("mixed runs: a rerun with other NPKIT_EVENTS is another run", "[real][mixed_runs]") {
  TempDir tmp;
  const std::string dir = mixed(tmp, {kCollKernel, kAllEvents});
  const CliRun info = run_cli({"info", dir});
  INFO(info.err);
  CHECK_THAT(info.err, Catch::Contains("holds the files of 2 runs"));
  CHECK_THAT(info.err, Catch::Contains("events coll,kernel"));
  CHECK(summary(dir, {"--run", "1"}).exit_code == 0);
}
