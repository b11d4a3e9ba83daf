// diff of two real 2×H200 captures that differ only in NCCL_PROTO (samples/nccl-h200/proto-ll
// and proto-simple: AllReduce 4 KiB .. 16 MiB, x4, 23 launches per size; README there): the
// setting is the one cause candidate, every size is judged on its time although NCCL ran it with
// the other protocol, and the verdicts match the driver's own tables (LL faster up to 1 MiB,
// Simple from 4 MiB). Two sizes lack data on one side (README there: stale channels).
#include <catch2/catch.hpp>

#include "analysis/diff/run_diff.hpp"
#include "support/test_data.hpp"
#include "unit/run/summary/summary_test_support.hpp"

using npkit::RunSummary;
using npkit::Verdict;
using npkit::test::source_path;

TEST_CASE("real captures: NCCL_PROTO=LL against Simple names the setting", "[diff][real]") {
  const RunSummary ll =
      npkit::test::summarize_path(source_path("samples/nccl-h200/proto-ll/dump"), "ll");
  const RunSummary simple =
      npkit::test::summarize_path(source_path("samples/nccl-h200/proto-simple/dump"), "simple");
  const auto d = npkit::diff_runs(ll, simple, npkit::NoiseRule{});

  // ENV.txt of the two runs: NCCL_PROTO differs; the dump directory and the debug log path
  // differ too, but are paths, not causes.
  CHECK(d.causes == std::vector<std::string>{"NCCL_PROTO: LL → Simple"});
  REQUIRE(d.config.size() == 3);

  // 4 KiB .. 16 MiB by 4: 7 sizes, each RING/LL against RING/SIMPLE.
  REQUIRE(d.collectives.size() == 7);
  std::uint64_t size = 4096;
  for (const auto& r : d.collectives) {
    INFO(r.size_bytes);
    CHECK(r.size_bytes == size);
    size *= 4;
    CHECK(r.base_choice == "RING/LL");
    CHECK(r.cand_choice == "RING/SIMPLE");
  }
  auto at = [&](std::uint64_t bytes) -> const npkit::RowJudgement& {
    for (const auto& r : d.collectives) {
      if (r.size_bytes == bytes) return r.judgement;
    }
    FAIL("no row of " << bytes << " B");
    throw;
  };
  // 4 KiB: the LL run has 10 of 23 instances timed, on rank 0 only (rank 1's one span that
  // passed the channel checks overlaps another launch): below the quality floor, so a move is
  // not confirmed. 16 KiB: no timed instance in the LL run.
  CHECK(at(4096).verdict == Verdict::kInconclusive);
  CHECK_THAT(at(4096).reason,
             Catch::Contains("baseline below the quality floor (10/23 timed, 1/2 ranks"));
  CHECK(at(16384).verdict == Verdict::kNotComparable);
  CHECK(at(16384).reason == "untimed in the baseline");
  // The driver's tables (driver.txt): Simple slower at 256 KiB and 1 MiB, faster from 4 MiB.
  for (std::uint64_t bytes : {262144u, 1048576u}) {
    INFO(bytes);
    CHECK(at(bytes).verdict == Verdict::kRegression);
    CHECK(at(bytes).reason == "proto changed: LL → SIMPLE (RING)");
  }
  for (std::uint64_t bytes : {4194304u, 16777216u}) {
    INFO(bytes);
    CHECK(at(bytes).verdict == Verdict::kImprovement);
  }
  CHECK(at(1048576).pooled.change > 0.2);
  CHECK(at(16777216).pooled.change < -0.2);
  CHECK(npkit::should_fail(d, npkit::FailOn::fail_safe()));
  CHECK(npkit::should_fail(d, npkit::FailOn::any_change()));
}
