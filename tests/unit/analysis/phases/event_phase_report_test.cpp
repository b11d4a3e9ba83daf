// The phase split of .npkt event records (commands/npkt_event_report.hpp), on the golden fixture
// tests/golden/cases/npkt_events/dump: every number below is computed by hand in its dump.spec.
#include <catch2/catch.hpp>

#include "commands/npkt_event_report.hpp"
#include "support/test_data.hpp"

using npkit::OutputFormat;
using npkit::cli::CommonOptions;

namespace {

CommonOptions options_for(const std::string& fixture) {
  CommonOptions o;
  o.path = npkit::test::source_path("tests/golden/cases/" + fixture + "/dump");
  return o;
}

std::int64_t phase_ns(const npkit::RankPhases& r, const npkit::PhaseAssignment& a,
                      const std::string& phase, bool gpu) {
  for (std::size_t p = 0; p < a.phase_names.size(); ++p) {
    if (a.phase_names[p] == phase) return (gpu ? r.gpu : r.cpu).at(p).ns;
  }
  return -1;
}

}  // namespace

TEST_CASE("event phase report: per-rank split of the npkt_events fixture", "[phases][events]") {
  const CommonOptions o = options_for("npkt_events");
  auto loaded = npkit::cli::load_npkt_input(o);
  REQUIRE(loaded.ok());
  REQUIRE(npkit::cli::has_event_records(*loaded));
  CHECK(loaded->events.stream_count() == 6);
  npkit::Diagnostics diag;
  auto report =
      npkit::cli::compute_phase_report(npkit::cli::EventRecordSpanSource(loaded->events), o, diag);
  REQUIRE(report.ok());
  const auto& a = loaded->events.phases;
  const auto& ranks = report->breakdown.ranks();
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
  for (const auto& s : report->spreads) {
    if (s.phase != "all_gather") continue;
    found = true;
    CHECK(s.total_ns == 13000);
    CHECK(s.count == 4);
    CHECK(s.median_ns == 6500);
    CHECK(s.slowest_rank == 1);
  }
  CHECK(found);
  CHECK(diag.warnings().empty());

  // The section as C's report embeds it: appended after a blank line, JSON as a field.
  std::string text = "before\n";
  REQUIRE(
      npkit::cli::append_event_phase_report(*loaded, o, OutputFormat::kTable, text, nullptr, diag)
          .ok());
  CHECK_THAT(text,
             Catch::StartsWith("before\n\nEvent records: 2 rank(s), 6 stream(s) in 2 file(s)"));
  CHECK_THAT(text, Catch::Contains("GPU event time 41.000 us (top-level spans summed over GPU "
                                   "streams); phases explain 90.2%; host event time 410.000 us"));
  std::string json_text;
  npkit::JsonWriter w(json_text);
  w.begin_object();
  std::string unused;
  REQUIRE(npkit::cli::append_event_phase_report(*loaded, o, OutputFormat::kJson, unused, &w, diag)
              .ok());
  w.end_object();
  CHECK(unused.empty());
  CHECK_THAT(json_text, Catch::Contains("\"event_phases\": {"));
  CHECK_THAT(json_text, Catch::Contains("\"gpu_collective_ns\": 41000"));
  CHECK_THAT(json_text, Catch::Contains("\"cpu_span_ns\": 410000"));
}

TEST_CASE("event phase report: nothing for files without event records", "[phases][events]") {
  const CommonOptions o = options_for("npkt_ring");
  auto loaded = npkit::cli::load_npkt_input(o);
  REQUIRE(loaded.ok());
  CHECK_FALSE(npkit::cli::has_event_records(*loaded));
  std::string text;
  npkit::Diagnostics diag;
  REQUIRE(
      npkit::cli::append_event_phase_report(*loaded, o, OutputFormat::kTable, text, nullptr, diag)
          .ok());
  CHECK(text.empty());
}
