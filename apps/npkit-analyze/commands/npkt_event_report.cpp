#include "commands/npkt_event_report.hpp"

#include <fmt/format.h>

namespace npkit::cli {
namespace {

const PhaseReportWording& event_wording() {
  static const PhaseReportWording wording{
      "GPU event time",
      "top-level spans summed over GPU streams",
      "host event time",
      "Event phases (exclusive time; share of the domain's time; spread of per-rank totals)",
      "Event phases per rank (GPU streams)",
      "Event phases per rank (host streams)"};
  return wording;
}

std::string rules_line(const CommonOptions& o) {
  return o.phase_map.empty() ? "phases: the names' phase hints, then the built-in rules"
                             : "phases: --phase-map " + o.phase_map +
                                   " first, then the names' phase hints, then the built-in rules";
}

}  // namespace

bool has_event_records(const LoadedCaptures& loaded) {
  return !loaded.events.empty();
}

Status append_event_phase_report(const LoadedCaptures& loaded, const CommonOptions& options,
                                 OutputFormat format, std::string& text, JsonWriter* json,
                                 Diagnostics& diagnostics) {
  if (!has_event_records(loaded)) return Ok{};
  const EventRecords& events = loaded.events;
  auto report = compute_phase_report(EventRecordSpanSource(events), options, diagnostics);
  if (!report) return report.error();
  switch (format) {
    case OutputFormat::kJson:
      json->key("event_phases");
      json->begin_object();
      json->field("files", static_cast<std::uint64_t>(events.files.size()));
      json->field("streams", events.stream_count());
      json->field("phase_rules", rules_line(options));
      write_phase_report_json(*json, *report, events.phases);
      json->end_object();
      break;
    case OutputFormat::kCsv:
      if (!text.empty()) text += "\n";
      render_csv(phase_report_csv(*report), text);
      break;
    case OutputFormat::kTable:
    case OutputFormat::kMarkdown:
    case OutputFormat::kHtml:
      if (!text.empty()) text += "\n";
      render_line(fmt::format("Event records: {} rank(s), {} stream(s) in {} file(s); {}",
                              report->breakdown.ranks().size(), events.stream_count(),
                              events.files.size(), rules_line(options)),
                  format, text);
      render_phase_report(*report, events.phases, event_wording(), format, text);
      break;
  }
  return Ok{};
}

}  // namespace npkit::cli
