#include "commands/npkt_event_report.hpp"

#include <fmt/format.h>

#include <map>

#include "output/cross_rank_output.hpp"

#include <algorithm>

#include "analysis/join/run_cross_rank.hpp"
#include "import/npkt/event_span_reader.hpp"
#include "import/spans/collective_spans.hpp"

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

// The event records' collective-level spans joined by occurrence (one pass of their own; the
// pairing warnings were given by the phase report already).
CrossRankAnalysis event_cross_rank(const LoadedCaptures& loaded, const std::string& path,
                                   const std::vector<RankPhases>& phases) {
  const EventRecords& events = loaded.events;
  CollectiveSpans spans(events.phases, events.names.base_names(), "stream");
  read_event_spans_into(events, spans);
  std::map<std::int32_t, std::string> hosts;
  std::vector<std::int32_t> ranks;
  for (const auto& f : loaded.files) hosts[f->rank()] = f->dump.meta("hostname");
  for (const auto& f : events.files) ranks.push_back(static_cast<std::int32_t>(f.rank));
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  const RunCommunicator comm = spans.join(
      path,
      "collective-level event spans (first ENTRY to last EXIT over the rank's streams, host "
      "clock through each file's GPU clock fit)",
      ranks.empty() ? 0 : ranks.back() + 1, ranks, hosts);
  return analyze_cross_rank(cross_rank_input(comm, gpu_phase_infos(phases, events.phases)),
                            Thresholds{});
}

}  // namespace

bool has_event_records(const LoadedCaptures& loaded) {
  return !loaded.events.empty();
}

Status append_event_phase_report(const LoadedCaptures& loaded, const CommonOptions& options,
                                 OutputFormat format, std::string& text, JsonWriter* json,
                                 Diagnostics& diagnostics, std::vector<Finding>* findings) {
  if (!has_event_records(loaded)) return Ok{};
  const EventRecords& events = loaded.events;
  auto report = compute_phase_report(EventRecordSpanSource(events), options, diagnostics);
  if (!report) return report.error();
  const CrossRankAnalysis cross_rank =
      event_cross_rank(loaded, options.path, report->breakdown.ranks());
  const CrossRankAnalysis* cross = &cross_rank;
  if (findings != nullptr) {
    findings->insert(findings->end(), cross->findings.begin(), cross->findings.end());
  }
  const bool joined = !cross->input.instances.empty();
  switch (format) {
    case OutputFormat::kJson:
      json->key("event_phases");
      json->begin_object();
      json->field("files", static_cast<std::uint64_t>(events.files.size()));
      json->field("streams", events.stream_count());
      json->field("phase_rules", rules_line(options));
      write_phase_report_json(*json, *report, events.phases);
      json->key("cross_rank");
      json->begin_object();
      write_cross_rank_json(*cross, *json, /*with_findings=*/false);
      json->end_object();
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
      if (joined) {
        render_section_line("Event records across ranks (" + cross->input.time_source + ")", format,
                            text);
        append_cross_rank_text(*cross, format, text);
      } else {
        render_section_line(
            "Event records across ranks: no collective-level span to join (give the kernel-wide "
            "spans a collective in --phase-map, as samples/device-collectives/phase-map.txt "
            "does)",
            format, text);
      }
      break;
  }
  return Ok{};
}

}  // namespace npkit::cli
