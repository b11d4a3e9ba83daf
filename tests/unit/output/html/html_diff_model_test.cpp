// The HTML model of `diff` on the golden pair tests/golden/cases/diff_regression (baseline and
// candidate summaries: AllReduce 1 MiB 15 % slower on rank 1, 4 MiB unchanged, 16 MiB switched
// from LL to Simple and 9.9 % faster): every bar's colour must agree with its row's verdict.
#include <catch2/catch.hpp>

#include <string>
#include <variant>

#include "analysis/diff/run_diff.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/html/diff_report_model.hpp"
#include "output/html/regression_bars.hpp"
#include "support/test_data.hpp"

using namespace npkit;
using namespace npkit::html;

namespace {

// The golden pair; `drop_size`, when not 0, is removed from the candidate.
RunDiff golden_diff(std::uint64_t drop_size = 0) {
  auto base = read_summary_file(test::source_path("tests/golden/cases/diff_regression/base.json"));
  auto cand = read_summary_file(test::source_path("tests/golden/cases/diff_regression/cand.json"));
  REQUIRE(base.ok());
  REQUIRE(cand.ok());
  std::erase_if(cand->collectives,
                [&](const CollectiveRow& r) { return r.key.size_bytes == drop_size; });
  return diff_runs(*base, *cand, NoiseRule{});
}

const Section& section(const ReportModel& m, const std::string& id) {
  for (const auto& s : m.sections) {
    if (s.id == id) return s;
  }
  FAIL("no section " << id);
  return m.sections.front();
}

}  // namespace

TEST_CASE("diff html: one bar per comparable size, coloured as its row was judged", "[html]") {
  const RunDiff diff = golden_diff();
  const ReportModel m = build_diff_report_model(diff, FailOn::fail_safe());
  CHECK(m.subtitle == "FAIL");
  const Section& regressions = section(m, "regressions");
  REQUIRE(std::holds_alternative<RegressionBars>(regressions.blocks.front()));
  const auto& bars = std::get<RegressionBars>(regressions.blocks.front());
  CHECK_FALSE(bars.higher_is_better);
  std::size_t comparable = 0;
  for (const auto& row : diff.collectives) {
    if (row.judgement.verdict == Verdict::kNotComparable ||
        row.judgement.verdict == Verdict::kMissing) {
      continue;
    }
    REQUIRE(comparable < bars.bars.size());
    const RegressionBar& bar = bars.bars[comparable++];
    INFO(bar.label);
    const std::string expected = row.judgement.verdict == Verdict::kRegression    ? "regression"
                                 : row.judgement.verdict == Verdict::kImprovement ? "improvement"
                                                                                  : "within-noise";
    CHECK(regression_verdict(bar, false) == expected);
    CHECK(bar.noise_low_percent <= -5.0);
    CHECK(bar.noise_high_percent >= 5.0);
  }
  CHECK(comparable == bars.bars.size());
  CHECK(bars.bars.size() == 3);  // 1 MiB, 4 MiB, and 16 MiB although it changed protocol
  CHECK(bars.bars[0].label == "1 MiB");
  CHECK(regression_verdict(bars.bars[0], false) == "regression");
  CHECK(regression_verdict(bars.bars[1], false) == "within-noise");
  CHECK(regression_verdict(bars.bars[2], false) == "improvement");
}

TEST_CASE("diff html: a size the candidate lacks is listed, not drawn, and config comes first",
          "[html]") {
  const RunDiff diff = golden_diff(4194304);
  CHECK(build_diff_report_model(diff, FailOn::fail_safe()).subtitle == "FAIL");
  const ReportModel m = build_diff_report_model(diff, FailOn::none());
  CHECK(m.subtitle == "PASS");
  REQUIRE(m.sections.front().id == "config");
  const auto& config = std::get<Table>(m.sections.front().blocks.front());
  REQUIRE_FALSE(config.table.rows.empty());
  CHECK(config.table.rows.front() == std::vector<std::string>{"NCCL_PROTO", "LL", "Simple", "yes"});
  const Section& regressions = section(m, "regressions");
  REQUIRE(std::holds_alternative<Table>(regressions.blocks.back()));
  const auto& listed = std::get<Table>(regressions.blocks.back());
  REQUIRE(listed.table.rows.size() == 1);
  CHECK(listed.table.rows[0] == std::vector<std::string>{"missing", "AllReduce", "2", "4194304",
                                                         "RING/SIMPLE", "not in the candidate"});
}
