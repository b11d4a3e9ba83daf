// Files of hand-written captures (support/npkt_spec.hpp) in one directory, read through the CLI:
// which files are one run follows from each spec's communicator, window and settings.
#include <catch2/catch.hpp>

#include <string>

#include "support/cli_runner.hpp"
#include "support/npkt_spec.hpp"
#include "support/temp_dir.hpp"

using npkit::test::CliRun;
using npkit::test::run_cli;
using npkit::test::TempDir;
using npkit::test::write_npkt_spec;

namespace {

// One rank of a one-rank communicator `hash`, its capture window [start_s, end_s] seconds after
// 2023-11-14 22:13:20 UTC, capturing `events`.
std::string capture(const std::string& hash, int start_s, int end_s,
                    const std::string& events = "all") {
  const long long t0 = 1'700'000'000;
  return "comm hash=" + hash + " rank=0 nranks=1 start_ns=" + std::to_string(t0 + start_s) +
         "000000000 end_ns=" + std::to_string(t0 + end_s) +
         "000000000 clock_method=1 event_mask=4095\n"
         "meta hostname node0\nmeta nccl.version 2.28.9\nmeta capture.events " +
         events + "\nnames standard\n";
}

}  // namespace

TEST_CASE("npkt runs: two communicators of one job at the same time are one run",
          "[import][npkt_runs]") {
  TempDir tmp;
  const std::string dir = write_npkt_spec(tmp, capture("0xa", 0, 10) + capture("0xb", 5, 20));
  const CliRun run = run_cli({"summarize", dir, "-q"});
  CHECK(run.exit_code == 0);
  const CliRun info = run_cli({"info", dir});
  CHECK(info.err.find("mixed runs") == std::string::npos);
}

TEST_CASE("npkt runs: communicators apart in time are two runs, numbered by start",
          "[import][npkt_runs]") {
  TempDir tmp;
  // The later one's hash sorts first: the numbering follows time, not names.
  const std::string dir = write_npkt_spec(tmp, capture("0xb", 0, 10) + capture("0xa", 11, 20));
  const CliRun info = run_cli({"info", dir});
  CHECK(info.exit_code == 0);
  CHECK_THAT(info.err,
             Catch::Contains(
                 "1 × mixed runs: " + dir +
                 " holds the files of 2 runs, read together as one: run 1: 1 file(s): comm "
                 "000000000000000b rank 0; host node0; 2023-11-14 22:13:20 to 22:13:30 UTC; NCCL "
                 "2.28.9; events all; run 2: 1 file(s): comm 000000000000000a rank 0; host node0; "
                 "2023-11-14 22:13:31 to 22:13:40 UTC; NCCL 2.28.9; events all; read one with "
                 "--run N (numbered by start time)\n"));
  const CliRun one = run_cli({"info", dir, "--run", "2"});
  CHECK(one.exit_code == 0);
  CHECK(one.err.find("mixed runs") == std::string::npos);
  CHECK_THAT(one.out, Catch::Contains("files         1 ("));
  CHECK_THAT(one.out, Catch::Contains("comm 000000000000000a rank 0"));
  CHECK_THAT(one.out, Catch::Contains("2; run 2 read (--run 2)"));
}

TEST_CASE("npkt runs: a rerun with other NPKIT_EVENTS at an overlapping time is another run",
          "[import][npkt_runs]") {
  TempDir tmp;
  const std::string dir =
      write_npkt_spec(tmp, capture("0xa", 0, 10) + capture("0xb", 0, 10, "coll,kernel"));
  const CliRun refused = run_cli({"summarize", dir});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("holds the files of 2 runs") &&
                              Catch::Contains("events coll,kernel") &&
                              Catch::Contains("--pool-runs"));
  const CliRun pooled = run_cli({"summarize", dir, "--pool-runs"});
  CHECK(pooled.exit_code == 0);
  CHECK_THAT(pooled.err, Catch::Contains("mixed runs"));
  // --run once for both inputs of diff, or once per input.
  CHECK(run_cli({"diff", dir, dir, "--run", "1", "-q", "--allow-empty"}).exit_code == 0);
  CHECK(run_cli({"diff", dir, dir, "--run", "1", "--run", "2", "-q", "--allow-empty"}).exit_code ==
        0);
  CHECK(run_cli({"diff", dir, dir, "-q", "--allow-empty"}).exit_code == 2);
}

TEST_CASE("npkt runs: --run outside the input's runs is an error", "[import][npkt_runs]") {
  TempDir tmp;
  const std::string dir = write_npkt_spec(tmp, capture("0xa", 0, 10));
  CHECK(run_cli({"info", dir, "--run", "1", "-q"}).exit_code == 0);
  const CliRun two = run_cli({"info", dir, "--run", "2"});
  CHECK(two.exit_code == 2);
  CHECK_THAT(two.err,
             Catch::Contains("--run 2: " + dir + " holds the files of one run (--run 1 reads it)"));
  CHECK(run_cli({"info", dir, "--run", "0"}).exit_code == 2);
}
