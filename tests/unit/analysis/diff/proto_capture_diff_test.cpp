// diff of two real 2×H200 captures that differ only in NCCL_PROTO (samples/nccl-h200/proto-ll
// and proto-simple: AllReduce 4 KiB .. 16 MiB, x4, 23 launches per size; README there): the
// setting is the one cause candidate, every size is not comparable because NCCL ran it with the
// other protocol, and the direction of the change matches the driver's own tables (LL faster up
// to 1 MiB, Simple from 4 MiB).
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
    CHECK(r.judgement.verdict == Verdict::kNotComparable);
    CHECK(r.judgement.reason == "proto changed: LL → SIMPLE (RING)");
    CHECK(r.base_choice == "RING/LL");
    CHECK(r.cand_choice == "RING/SIMPLE");
  }
  // The driver's tables (driver.txt): Simple slower at 1 MiB, faster at 16 MiB.
  auto change_at = [&](std::uint64_t bytes) {
    for (const auto& r : d.collectives) {
      if (r.size_bytes == bytes) return r.judgement.pooled.change;
    }
    return 0.0;
  };
  CHECK(change_at(1048576) > 0.2);
  CHECK(change_at(16777216) < -0.2);
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::kRegression));
  CHECK(npkit::should_fail(d, npkit::FailOn::kAnyChange));
}
