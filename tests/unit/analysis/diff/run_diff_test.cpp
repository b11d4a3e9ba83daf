// diff_runs on hand-made summaries: verdicts, the deciding rank, algorithm changes and their
// cause candidates, rows in one run only, the minimum effect and the minimum sample size, and
// the --fail-on policies.
#include <catch2/catch.hpp>

#include "analysis/diff/run_diff.hpp"
#include "unit/run/summary/summary_test_support.hpp"

using npkit::RunDiff;
using npkit::RunSummary;
using npkit::Verdict;
using npkit::test::synthetic_row;

namespace {

// 20 durations around `center` ns: center − 95, −85, ..., +95 (median = center).
std::vector<std::int64_t> around(std::int64_t center) {
  std::vector<std::int64_t> v;
  for (int i = 0; i < 20; ++i) v.push_back(center - 95 + 10 * i);
  return v;
}

std::vector<std::int64_t> scaled(std::vector<std::int64_t> v, double f) {
  for (auto& x : v) x = static_cast<std::int64_t>(static_cast<double>(x) * f);
  return v;
}

RunSummary run(std::vector<npkit::CollectiveRow> rows) {
  RunSummary s;
  s.inputs = {"run"};
  s.config.nccl_versions = {"2.28.9"};
  s.collectives = std::move(rows);
  std::sort(s.collectives.begin(), s.collectives.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  return s;
}

}  // namespace

TEST_CASE("run diff: a rank 15 % slower is a regression decided by that rank", "[diff]") {
  const RunSummary base = run({synthetic_row("AllReduce", 1 << 20, "RING", "LL",
                                             {around(10000), around(10000), around(10000)}),
                               synthetic_row("AllReduce", 1 << 24, "RING", "SIMPLE",
                                             {around(80000), around(80000), around(80000)})});
  const RunSummary cand =
      run({synthetic_row("AllReduce", 1 << 20, "RING", "LL",
                         {around(10000), scaled(around(10000), 1.15), around(10000)}),
           synthetic_row("AllReduce", 1 << 24, "RING", "SIMPLE",
                         {around(80000), around(80000), around(80000)})});
  const RunDiff d = npkit::diff_runs(base, cand, npkit::NoiseRule{});
  REQUIRE(d.collectives.size() == 2);
  const auto& slow = d.collectives[0].judgement;
  CHECK(slow.verdict == Verdict::kRegression);
  CHECK(slow.deciding_rank == 1);
  CHECK(slow.deciding_change == Approx(0.15).margin(0.002));  // median 10000 → 11500
  // Pooled, one rank in three moved: the pooled median moves by less than 5 %.
  CHECK(slow.pooled.verdict == Verdict::kUnchanged);
  CHECK(d.collectives[1].judgement.verdict == Verdict::kUnchanged);
  CHECK(npkit::should_fail(d, npkit::FailOn::fail_safe()));
  const auto n = npkit::count_verdicts(d);
  CHECK(n.regressions == 1);
  CHECK(n.unchanged == 1);
}

TEST_CASE("run diff: an incomplete side keeps its verdict, and the detail says records were lost",
          "[diff]") {
  // The candidate's log lost records (all 20 instances are of such a communicator); rank 1 is
  // 15 % slower: still a regression. At 16 MiB the candidate lacks rank 2's time: missing, and the
  // detail says why it may be missing.
  npkit::CollectiveRow slower = synthetic_row("AllReduce", 1 << 20, "RING", "LL",
                                              {around(10000), scaled(around(10000), 1.15)});
  slower.incomplete_instances = 20;
  npkit::CollectiveRow lacking =
      synthetic_row("AllReduce", 1 << 24, "RING", "SIMPLE", {around(80000), around(80000), {}});
  lacking.incomplete_instances = 20;
  npkit::CollectiveRow full = synthetic_row("AllReduce", 1 << 24, "RING", "SIMPLE",
                                            {around(80000), around(80000), around(80000)});
  const RunSummary base = run(
      {synthetic_row("AllReduce", 1 << 20, "RING", "LL", {around(10000), around(10000)}), full});
  const RunDiff d = npkit::diff_runs(base, run({slower, lacking}), npkit::NoiseRule{});
  REQUIRE(d.collectives.size() == 2);
  const auto& slow = d.collectives[0];
  CHECK(slow.judgement.verdict == Verdict::kRegression);
  CHECK(slow.cand_quality.incomplete == 20);
  CHECK_FALSE(slow.base_quality.is_incomplete());
  CHECK(slow.judgement.reason ==
        "candidate incomplete: its log lost records (20/20 instance(s) of such a communicator)");
  const auto& missing = d.collectives[1].judgement;
  CHECK(missing.verdict == Verdict::kMissing);
  CHECK(missing.reason ==
        "rank(s) 2 timed in the baseline, not in the candidate; candidate incomplete: its log "
        "lost records (20/20 instance(s) of such a communicator)");
}

TEST_CASE("run diff: faster everywhere is an improvement, which fails only any-change", "[diff]") {
  const RunSummary base =
      run({synthetic_row("AllGather", 4096, "RING", "LL", {around(5000), around(5000)})});
  const RunSummary cand = run({synthetic_row(
      "AllGather", 4096, "RING", "LL", {scaled(around(5000), 0.8), scaled(around(5000), 0.8)})});
  const RunDiff d = npkit::diff_runs(base, cand, npkit::NoiseRule{});
  const auto& j = d.collectives.at(0).judgement;
  CHECK(j.verdict == Verdict::kImprovement);
  CHECK(j.pooled.change == Approx(-0.2).margin(0.001));
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::fail_safe()));
  CHECK(npkit::should_fail(d, npkit::FailOn::any_change()));
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::none()));
}

TEST_CASE("run diff: below the threshold nothing flags, too few iterations is inconclusive",
          "[diff]") {
  // 3 % slower everywhere: consistent (p tiny) but below the 5 % minimum effect.
  const RunSummary base = run({synthetic_row("AllReduce", 64, "RING", "LL", {around(10000)})});
  const RunSummary small =
      run({synthetic_row("AllReduce", 64, "RING", "LL", {scaled(around(10000), 1.03)})});
  RunDiff d = npkit::diff_runs(base, small, npkit::NoiseRule{});
  CHECK(d.collectives.at(0).judgement.pooled.p_value < 0.01);
  CHECK(d.collectives.at(0).judgement.verdict == Verdict::kUnchanged);
  npkit::NoiseRule strict;
  strict.min_effect = 0.02;  // --threshold 2%
  d = npkit::diff_runs(base, small, strict);
  CHECK(d.collectives.at(0).judgement.verdict == Verdict::kRegression);

  // Doubled, but 4 iterations against 4: not tested, so the move is shown as inconclusive and
  // the default gate passes.
  const RunSummary few =
      run({synthetic_row("AllReduce", 64, "RING", "LL", {{100, 101, 102, 103}})});
  const RunSummary few_slow =
      run({synthetic_row("AllReduce", 64, "RING", "LL", {{200, 201, 202, 203}})});
  d = npkit::diff_runs(few, few_slow, npkit::NoiseRule{});
  CHECK_FALSE(d.collectives.at(0).judgement.pooled.tested);
  CHECK(d.collectives.at(0).judgement.verdict == Verdict::kInconclusive);
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::fail_safe()));
  CHECK(npkit::should_fail(d, npkit::FailOn::fail_safe().with(Verdict::kInconclusive)));

  // 30 % slower in 20 iterations, but the two samples overlap too much for p < 0.001.
  std::vector<std::int64_t> spread_base;
  std::vector<std::int64_t> spread_cand;
  for (int i = 0; i < 20; ++i) {
    spread_base.push_back(i % 2 == 0 ? 1000 : 3000);
    spread_cand.push_back(i % 2 == 0 ? 1300 : 3900);
  }
  d = npkit::diff_runs(run({synthetic_row("AllReduce", 64, "RING", "LL", {spread_base})}),
                       run({synthetic_row("AllReduce", 64, "RING", "LL", {spread_cand})}),
                       npkit::NoiseRule{});
  const auto& noisy = d.collectives.at(0).judgement;
  CHECK(noisy.pooled.tested);
  CHECK(noisy.pooled.p_value >= 0.001);
  CHECK(noisy.verdict == Verdict::kInconclusive);
}

TEST_CASE("run diff: an algorithm change is judged on its times, with the setting as cause",
          "[diff]") {
  RunSummary base = run({synthetic_row("AllReduce", 1 << 20, "RING", "LL", {around(10000)}),
                         synthetic_row("Broadcast", 1 << 10, "RING", "LL", {around(3000)})});
  RunSummary cand = run({synthetic_row("AllReduce", 1 << 20, "TREE", "LL", {around(9000)}),
                         synthetic_row("AllGather", 1 << 10, "RING", "LL", {around(3000)})});
  base.config.env["NCCL_ALGO"] = {"Ring"};
  cand.config.env["NCCL_ALGO"] = {"Tree"};
  base.config.env["NPKIT_DUMP_DIR"] = {"/out/a"};
  cand.config.env["NPKIT_DUMP_DIR"] = {"/out/b"};
  base.config.hosts = {"node-a"};
  cand.config.hosts = {"node-b"};
  const RunDiff d = npkit::diff_runs(base, cand, npkit::NoiseRule{});
  REQUIRE(d.config.size() == 3);
  CHECK(d.config[0].describe() == "NCCL_ALGO: Ring → Tree");
  CHECK(d.config[0].cause_candidate);
  CHECK(d.config[1].describe() == "NPKIT_DUMP_DIR: /out/a → /out/b");
  CHECK_FALSE(d.config[1].cause_candidate);
  CHECK(d.config[2].describe() == "hosts: node-a → node-b");
  CHECK_FALSE(d.config[2].cause_candidate);
  CHECK(d.causes == std::vector<std::string>{"NCCL_ALGO: Ring → Tree"});

  REQUIRE(d.collectives.size() == 3);  // AllGather, AllReduce, Broadcast (key order)
  CHECK(d.collectives[0].collective == "AllGather");
  CHECK(d.collectives[0].judgement.verdict == Verdict::kNotComparable);
  CHECK(d.collectives[0].judgement.reason == "only in candidate");
  const auto& algo = d.collectives[1];
  // 10000 → 9000 ns in 20 iterations each, no overlap: the size got faster whatever NCCL chose.
  CHECK(algo.judgement.verdict == Verdict::kImprovement);
  CHECK(algo.judgement.reason == "algo changed: RING → TREE");
  CHECK(algo.base_choice == "RING/LL");
  CHECK(algo.cand_choice == "TREE/LL");
  CHECK(algo.judgement.pooled.change == Approx(-0.1).margin(0.001));
  // The baseline's Broadcast has no counterpart: the candidate lost it, and the gate fails.
  CHECK(d.collectives[2].judgement.verdict == Verdict::kMissing);
  CHECK(d.collectives[2].judgement.reason == "not in the candidate");
  CHECK(npkit::should_fail(d, npkit::FailOn::fail_safe()));
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::fail_safe().without(Verdict::kMissing)));
  CHECK(npkit::should_fail(d, npkit::FailOn::any_change()));
}

TEST_CASE("run diff: phase rows with span samples are judged, totals only are not", "[diff]") {
  RunSummary base = run({});
  RunSummary cand = run({});
  auto phase = [](const std::string& source, const std::string& name, std::int64_t ns,
                  const std::vector<std::int64_t>& spans) {
    npkit::PhaseRow row{{source, source == "spans" ? "gpu" : "net", name}, {}};
    for (std::int32_t r = 0; r < 2; ++r) {
      npkit::RankPhase p;
      p.rank = r;
      p.ns = ns;
      p.reference_ns = 4 * ns;
      for (const auto v : spans) p.span_ns.add(v);
      row.ranks.push_back(std::move(p));
    }
    return row;
  };
  base.phases = {phase("proxy", "net_send", 1000, {}),
                 phase("spans", "reduce_scatter", 2000, around(500))};
  cand.phases = {phase("proxy", "net_send", 3000, {}),
                 phase("spans", "reduce_scatter", 2600, scaled(around(500), 1.3))};
  const RunDiff d = npkit::diff_runs(base, cand, npkit::NoiseRule{});
  REQUIRE(d.phases.size() == 2);
  CHECK(d.phases[0].key.phase == "net_send");
  CHECK(d.phases[0].judgement.verdict == Verdict::kNotTested);
  CHECK_FALSE(d.phases[0].judgement.pooled.tested);
  CHECK(d.phases[0].base_share == Approx(0.25));
  CHECK(d.phases[1].judgement.verdict == Verdict::kRegression);
  CHECK(d.phases[1].judgement.deciding_change == Approx(0.3).margin(0.002));
}

TEST_CASE("run diff: untimed in both runs is not tested, and a gate that tested nothing fails",
          "[diff]") {
  // Every row untimed on both sides (an AlltoAll capture against itself): 9 rows, no samples.
  std::vector<npkit::CollectiveRow> rows;
  for (std::uint64_t size : {4096u, 65536u, 1048576u}) {
    auto row = synthetic_row("AlltoAll", size, "", "", {{}, {}, {}, {}});
    row.instances = 5;
    row.untimed_instances = 5;
    rows.push_back(row);
  }
  const RunDiff d = npkit::diff_runs(run(rows), run(rows), npkit::NoiseRule{});
  REQUIRE(d.collectives.size() == 3);
  for (const auto& c : d.collectives) CHECK(c.judgement.verdict == Verdict::kNotTested);
  const auto n = npkit::count_verdicts(d);
  CHECK(n.unchanged == 0);
  CHECK(n.not_tested == 3);
  CHECK_FALSE(d.untested.empty());
  CHECK(d.missing.empty());
  CHECK(npkit::should_fail(d, npkit::FailOn::fail_safe()));
  CHECK(npkit::should_fail(d, npkit::FailOn::none()));
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::fail_safe().allowing_empty()));
  CHECK(npkit::FailOn::fail_safe().allowing_empty().name() == "regression,missing,allow-empty");
  // any-change does not fail a row for not being tested.
  CHECK_FALSE(npkit::FailOn::any_change().fails(Verdict::kNotTested));
}

TEST_CASE("run diff: a row whose times are mostly flagged is not comparable, never a regression",
          "[diff]") {
  // The candidate's rank 1 is 9 % slower; of its 20 timed instances 12 have times of one host
  // that disagree: 8 clean of 20 timed is below the 50 % floor.
  auto base_row = synthetic_row("AllReduce", 4096, "TREE", "LL", {around(2460), around(2460)});
  auto cand_row =
      synthetic_row("AllReduce", 4096, "TREE", "LL", {around(2460), scaled(around(2460), 1.09)});
  cand_row.flagged_instances = 12;
  cand_row.host_disagree_instances = 12;
  RunDiff d = npkit::diff_runs(run({base_row}), run({cand_row}), npkit::NoiseRule{});
  REQUIRE(d.collectives.size() == 1);
  CHECK(d.collectives[0].judgement.verdict == Verdict::kNotComparable);
  CHECK(d.collectives[0].judgement.reason ==
        "flagged times (candidate: 12/20 timed flagged: 12 host-disagree)");
  CHECK(d.collectives[0].cand_quality.too_few_clean());
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::fail_safe().allowing_empty()));
  // 4 of 20 flagged: the 16 clean ones are judged, and the slowdown is a regression.
  cand_row.flagged_instances = 4;
  cand_row.host_disagree_instances = 0;
  cand_row.short_instances = 4;
  d = npkit::diff_runs(run({base_row}), run({cand_row}), npkit::NoiseRule{});
  CHECK(d.collectives[0].judgement.verdict == Verdict::kRegression);
  CHECK(d.collectives[0].cand_quality.text() == "20/20 timed, 2/2 ranks, 4 flagged");
}

TEST_CASE("run diff: NCCL_DEBUG variables are differences, never cause candidates", "[diff]") {
  RunSummary base = run({synthetic_row("AllReduce", 4096, "TREE", "LL", {around(2460)})});
  RunSummary cand = run({synthetic_row("AllReduce", 4096, "TREE", "LL", {around(2460)})});
  base.config.env["NCCL_DEBUG_SUBSYS"] = {"INIT"};
  cand.config.env["NCCL_DEBUG_SUBSYS"] = {"INIT,ENV"};
  base.config.env["NCCL_DEBUG"] = {"WARN"};
  cand.config.env["NCCL_DEBUG"] = {"INFO"};
  const RunDiff d = npkit::diff_runs(base, cand, npkit::NoiseRule{});
  REQUIRE(d.config.size() == 2);
  CHECK(d.config[0].what == "NCCL_DEBUG");
  CHECK_FALSE(d.config[0].cause_candidate);
  CHECK(d.config[1].what == "NCCL_DEBUG_SUBSYS");
  CHECK_FALSE(d.config[1].cause_candidate);
  CHECK(d.causes.empty());
}
