// compare_runs on hand-made summaries: the best run per size, no best where a run lacks the size
// or holds it without a timed instance, and none where diff's rule sees no difference.
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

// `n` durations from `first`, 1 ns apart.
std::vector<std::int64_t> series(std::int64_t first, int n = 10) {
  std::vector<std::int64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(first + i);
  return v;
}

}  // namespace

TEST_CASE("compare: a time never wins against a missing one", "[compare]") {
  // 4 KiB: both timed, LL 10 us against SIMPLE 12 us, ten iterations each (enough for diff's
  // test). 16 KiB: LL present but untimed (no duration on any rank). 64 KiB: only in the second
  // run.
  npkit::CollectiveRow untimed = synthetic_row("AllReduce", 16384, "RING", "LL", {{}, {}});
  untimed.instances = 3;
  untimed.untimed_instances = 3;
  const auto ll = run(
      "ll",
      {synthetic_row("AllReduce", 4096, "RING", "LL", {series(10000), series(10000)}), untimed});
  const auto simple = run(
      "simple", {synthetic_row("AllReduce", 4096, "RING", "SIMPLE", {series(12000), series(12000)}),
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

TEST_CASE("compare: no best where diff's rule sees no difference", "[compare]") {
  // 4 KiB: run [2] 1 ns slower per iteration (+0.01 %): diff calls it unchanged.
  // 16 KiB: run [1] 10.0045 us (median of 10000..10009); run [2] 20 us, ten iterations a rank
  // (a regression against [1]); run [3] 12 us but two iterations a rank: too few for diff's test
  // (8), so +19.9 % is inconclusive and [1] is not named best.
  // 64 KiB: run [1] against [2] and [3], both ten iterations, 20 us and 30 us: [1] is best.
  const auto a = run("a", {synthetic_row("AllReduce", 4096, "RING", "LL", {series(10000)}),
                           synthetic_row("AllReduce", 16384, "RING", "LL", {series(10000)}),
                           synthetic_row("AllReduce", 65536, "RING", "LL", {series(10000)})});
  const auto b = run("b", {synthetic_row("AllReduce", 4096, "RING", "LL", {series(10001)}),
                           synthetic_row("AllReduce", 16384, "RING", "LL", {series(20000)}),
                           synthetic_row("AllReduce", 65536, "RING", "LL", {series(20000)})});
  const auto c = run("c", {synthetic_row("AllReduce", 4096, "RING", "LL", {series(10002)}),
                           synthetic_row("AllReduce", 16384, "RING", "LL", {{12000, 12000}}),
                           synthetic_row("AllReduce", 65536, "RING", "LL", {series(30000)})});
  const npkit::RunComparison cmp = npkit::compare_runs({a, b, c});
  REQUIRE(cmp.rows.size() == 3);
  CHECK_FALSE(cmp.rows[0].best.has_value());
  CHECK(cmp.rows[0].unranked.empty());
  CHECK(cmp.rows[0].no_difference ==
        "run [1] is fastest, but run [2] (+0.0%) is not slower beyond noise (diff: unchanged)");
  CHECK_FALSE(cmp.rows[1].best.has_value());
  CHECK(cmp.rows[1].no_difference ==
        "run [1] is fastest, but run [3] (+19.9%) is not slower beyond noise (diff: "
        "inconclusive)");
  REQUIRE(cmp.rows[2].best.has_value());
  CHECK(*cmp.rows[2].best == 0);
  CHECK(cmp.rows[2].no_difference.empty());
  CHECK(cmp.wins == std::vector<std::uint64_t>{1, 0, 0});
}
