// The HTML model of a summary: tests/golden/cases/summarize_agree/expected.out, the summary of
// the real 2×H200 capture samples/nccl-h200/agree (AllReduce 1–256 MiB, 23 instances per size).
#include <catch2/catch.hpp>

#include <string>
#include <variant>

#include "import/summary/summary_json_reader.hpp"
#include "output/html/summary_report_model.hpp"
#include "support/test_data.hpp"

using namespace npkit;
using namespace npkit::html;

TEST_CASE("summary html: busbw points follow nccl-tests' AllReduce convention", "[html]") {
  auto summary =
      read_summary_file(test::source_path("tests/golden/cases/summarize_agree/expected.out"));
  REQUIRE(summary.ok());
  const ReportModel m = build_summary_report_model(*summary);
  REQUIRE(m.sections.front().id == "bandwidth");
  const auto& blocks = m.sections.front().blocks;
  REQUIRE(std::holds_alternative<LinePlot>(blocks.front()));
  const auto& busbw = std::get<LinePlot>(blocks.front());
  CHECK(busbw.title == "AllReduce on 2 ranks: bus bandwidth vs size");
  std::size_t points = 0;
  for (const auto& s : busbw.series) points += s.points.size();
  CHECK(points == summary->collectives.size());
  // The 1 MiB row: time = each rank's median, mean over ranks: rank 0's 23 values have median
  // 10,400 ns and rank 1's 16,960 ns (the summary file's samples), so 13,680 ns; busbw =
  // S / t × 2(n−1)/n with n = 2.
  const PlotSeries& first = busbw.series.front();
  REQUIRE_FALSE(first.points.empty());
  CHECK(first.points.front().x == 1048576.0);
  CHECK(first.points.front().y == Approx(1048576.0 / 13680.0 * 2.0 * 1.0 / 2.0));
}

TEST_CASE("summary html: phases and waits per rank", "[html]") {
  auto summary =
      read_summary_file(test::source_path("tests/golden/cases/summarize_agree/expected.out"));
  REQUIRE(summary.ok());
  const ReportModel m = build_summary_report_model(*summary);
  REQUIRE(m.sections.size() == 3);
  CHECK(m.sections[1].id == "phases");
  CHECK(m.sections[2].id == "waits");
  const auto& waits = std::get<Table>(m.sections[2].blocks.front());
  CHECK(waits.table.rows.size() == summary->sync.size());
}

TEST_CASE("summary html: busbw only for a collective that run/measures has a bus factor for",
          "[html]") {
  auto summary =
      read_summary_file(test::source_path("tests/golden/cases/summarize_agree/expected.out"));
  REQUIRE(summary.ok());
  // NCCL spells it "AllReduce", and run/measures.hpp (which `diff` and `compare` use for the same
  // rows) has nccl-tests' factor for NCCL's names only: this spelling gets a time plot and the
  // table, but no busbw plot and no busbw value.
  for (auto& row : summary->collectives) row.key.collective = "ALLREDUCE";
  const ReportModel m = build_summary_report_model(*summary);
  const auto& blocks = m.sections.front().blocks;
  REQUIRE(blocks.size() == 2);
  REQUIRE(std::holds_alternative<LinePlot>(blocks[0]));
  CHECK(std::get<LinePlot>(blocks[0]).title == "ALLREDUCE on 2 ranks: time vs size");
  REQUIRE(std::holds_alternative<Table>(blocks[1]));
  const TextTable& table = std::get<Table>(blocks[1]).table;
  CHECK(table.columns.back() == "busbw (GB/s)");
  REQUIRE(table.rows.size() == summary->collectives.size());
  for (const auto& row : table.rows) CHECK(row.back() == "-");
}
