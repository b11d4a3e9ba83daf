// compare_runs on hand-made summaries: the best run per size, and no best where a run lacks the
// size or holds it without a timed instance.
#include "analysis/diff/run_compare.hpp"

#include <catch2/catch.hpp>

#include "unit/run/summary/summary_test_support.hpp"

using npkit::test::synthetic_row;

namespace {

npkit::RunSummary run(const std::string& name, std::vector<npkit::CollectiveRow> rows) {
  npkit::RunSummary s;
  s.inputs = {name};
  s.collectives = std::move(rows);
  std::sort(s.collectives.begin(), s.collectives.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  return s;
}

}  // namespace

TEST_CASE("compare: a time never wins against a missing one", "[compare]") {
  // 4 KiB: both timed, LL 10 us against SIMPLE 12 us. 16 KiB: LL present but untimed (no
  // duration on any rank). 64 KiB: only in the second run.
  npkit::CollectiveRow untimed = synthetic_row("AllReduce", 16384, "RING", "LL", {{}, {}});
  untimed.instances = 3;
  untimed.untimed_instances = 3;
  const auto ll =
      run("ll", {synthetic_row("AllReduce", 4096, "RING", "LL", {{10000}, {10000}}), untimed});
  const auto simple =
      run("simple", {synthetic_row("AllReduce", 4096, "RING", "SIMPLE", {{12000}, {12000}}),
                     synthetic_row("AllReduce", 16384, "RING", "SIMPLE", {{17000}, {17000}}),
                     synthetic_row("AllReduce", 65536, "RING", "SIMPLE", {{20000}, {20000}})});
  const npkit::RunComparison c = npkit::compare_runs({ll, simple});
  REQUIRE(c.rows.size() == 3);
  REQUIRE(c.rows[0].best.has_value());
  CHECK(*c.rows[0].best == 0);
  CHECK(c.rows[0].unranked.empty());
  CHECK_FALSE(c.rows[1].best.has_value());
  CHECK(c.rows[1].unranked == "run [1] has no timed instance");
  CHECK_FALSE(c.rows[2].best.has_value());
  CHECK(c.rows[2].unranked == "run [1] lacks the size");
  CHECK(c.wins == std::vector<std::uint64_t>{1, 0});
}

TEST_CASE("compare: an incomplete run's time does not win", "[compare]") {
  // The first run is faster at 4 KiB, but its log lost records: no run is best.
  npkit::CollectiveRow lossy = synthetic_row("AllReduce", 4096, "RING", "LL", {{10000}, {10000}});
  lossy.incomplete_instances = 1;
  const npkit::RunComparison c = npkit::compare_runs(
      {run("lossy", {lossy}),
       run("whole", {synthetic_row("AllReduce", 4096, "RING", "LL", {{12000}, {12000}})})});
  REQUIRE(c.rows.size() == 1);
  CHECK_FALSE(c.rows[0].best.has_value());
  CHECK(c.rows[0].unranked ==
        "run [1] is incomplete: its log lost records (1/1 timed, 2/2 ranks, 1 incomplete "
        "(records lost))");
  CHECK(c.rows[0].runs[0].quality.incomplete == 1);
  CHECK(c.wins == std::vector<std::uint64_t>{0, 0});
}
