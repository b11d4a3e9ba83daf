// `report`'s one result (analysis/report/run_report.hpp) and its text and JSON
// (output/run_report_output.hpp) for .npkt event records, on the golden fixture
// tests/golden/cases/npkt_events/dump: every number below is computed by hand in its dump.spec.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>

#include "analysis/report/run_report.hpp"
#include "import/npkt/npkt_input.hpp"
#include "output/run_report_output.hpp"
#include "support/test_data.hpp"

namespace {

struct Reported {
  std::unique_ptr<npkit::RunInput> input;
  npkit::Run run;
  std::optional<npkit::RunReport> report;  // refers to `run`
};

std::unique_ptr<Reported> report_of(const std::string& fixture) {
  npkit::ImportOptions o;
  o.path = npkit::test::source_path("tests/golden/cases/" + fixture + "/dump");
  auto input = npkit::open_run_input(o);
  REQUIRE(input.ok());
  auto out = std::make_unique<Reported>();
  out->input = std::move(*input);
  npkit::RunInput& in = *out->input;
  auto sink = npkit::read_run<npkit::RunReportSink>(
      in, out->run, [&] { return npkit::RunReportSink(in.phases(), in.span_names().size()); });
  REQUIRE(sink.ok());
  out->report.emplace(npkit::build_run_report(out->run, std::move(*sink), in.has_spans(),
                                              in.phases(), in.span_names(), npkit::Thresholds{},
                                              in.diagnostics()));
  return out;
}

std::int64_t phase_ns(const npkit::RankPhases& r, const npkit::PhaseAssignment& a,
                      const std::string& phase, bool gpu) {
  for (std::size_t p = 0; p < a.phase_names.size(); ++p) {
    if (a.phase_names[p] == phase) return (gpu ? r.gpu : r.cpu).at(p).ns;
  }
  return -1;
}

}  // namespace

TEST_CASE("run report: per-rank phase split of the npkt_events fixture", "[report][events]") {
  const auto r = report_of("npkt_events");
  npkit::RunInput& in = *r->input;
  REQUIRE(in.has_spans());
  REQUIRE(r->report->phases.has_value());
  const auto& a = in.phases();
  const auto& ranks = r->report->phases->breakdown.ranks();
  REQUIRE(ranks.size() == 2);
  CHECK(ranks[0].gpu_reference_ns == 20000);
  CHECK(phase_ns(ranks[0], a, "other", true) == 2000);
  CHECK(phase_ns(ranks[0], a, "reduce_scatter", true) == 8000);
  CHECK(phase_ns(ranks[0], a, "all_gather", true) == 6000);
  CHECK(phase_ns(ranks[0], a, "sync", true) == 4000);
  CHECK(ranks[0].cpu_reference_ns == 200000);
  CHECK(phase_ns(ranks[0], a, "host_launch", false) == 200000);
  CHECK(ranks[1].gpu_reference_ns == 21000);
  CHECK(phase_ns(ranks[1], a, "other", true) == 2000);
  CHECK(phase_ns(ranks[1], a, "reduce_scatter", true) == 8000);
  CHECK(phase_ns(ranks[1], a, "all_gather", true) == 7000);
  CHECK(phase_ns(ranks[1], a, "sync", true) == 4000);
  CHECK(ranks[1].cpu_reference_ns == 210000);
  bool found = false;
  for (const auto& s : r->report->phases->spreads) {
    if (s.phase != "all_gather") continue;
    found = true;
    CHECK(s.total_ns == 13000);
    CHECK(s.count == 4);
    CHECK(s.median_ns == 6500);
    CHECK(s.slowest_rank == 1);
  }
  CHECK(found);
  // The fixture's own warnings (an unmatched EXIT, dropped records), no overlapping children.
  for (const auto& g : in.diagnostics().warnings()) CHECK(g.category != "overlapping children");

  // The report's text and JSON say the same.
  const npkit::ReportInput about{"fixture", in.event_table(), &in.phases(), &in.span_names()};
  std::string text;
  npkit::render_run_report(*r->report, about, npkit::OutputFormat::kTable, text);
  CHECK_THAT(text, Catch::StartsWith("fixture: .npkt capture, 2 file(s), "));
  CHECK_THAT(text, Catch::Contains("GPU span time 41.000 us (top-level spans summed over "
                                   "tracks); phases explain 90.2%; CPU span time 410.000 us"));
  std::string json;
  npkit::write_run_report_json(*r->report, about, in.diagnostics(), json);
  CHECK_THAT(json, Catch::Contains("\"has_spans\": true"));
  CHECK_THAT(json, Catch::Contains("\"gpu_collective_ns\": 41000"));
  CHECK_THAT(json, Catch::Contains("\"cpu_span_ns\": 410000"));
}

TEST_CASE("run report: an input without spans says so in its last line", "[report][events]") {
  const auto r = report_of("npkt_ring");
  CHECK_FALSE(r->input->has_spans());
  CHECK_FALSE(r->report->phases.has_value());
  const npkit::ReportInput about{"fixture", "", &r->input->phases(), &r->input->span_names()};
  std::string text;
  npkit::render_run_report(*r->report, about, npkit::OutputFormat::kTable, text);
  CHECK_THAT(text,
             Catch::Contains("\nNot in this input: phases (this .npkt capture holds no spans)"));
  CHECK_THAT(text, !Catch::Contains("Phases"));
}
