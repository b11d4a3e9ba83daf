#include "commands/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/bandwidth/collective_bandwidth.hpp"
#include "analysis/phases/phase_breakdown.hpp"
#include "commands/cross_rank_output.hpp"
#include "commands/gate_commands.hpp"
#include "commands/json_input.hpp"
#include "commands/npkt_input.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/html/instance_choice.hpp"
#include "output/html/legacy_report_model.hpp"
#include "output/html/legacy_timeline.hpp"
#include "output/html/npkt_report_model.hpp"
#include "output/html/page.hpp"
#include "output/html/summary_report_model.hpp"
#include "output/html/svg.hpp"

namespace npkit::cli {
namespace {

struct HtmlReportOptions {
  std::optional<std::uint64_t> iteration;
};

HtmlReportOptions& html_options() {
  static HtmlReportOptions options;
  return options;
}

std::vector<std::string> warning_lines(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const auto& g : d.warnings()) {
    out.push_back(fmt::format("{} × {}{}{}", g.count, g.category, g.examples.empty() ? "" : ": ",
                              g.examples.empty() ? "" : g.examples.front()));
  }
  return out;
}

// Phase breakdown and collective bandwidth from one pass over a legacy dump.
struct LegacySinks : SpanSink {
  PhaseBreakdownSink phases;
  CollectiveBandwidthSink bandwidth;
  explicit LegacySinks(const PhaseAssignment& assignment)
      : phases(assignment), bandwidth(assignment, "all") {}
  void begin_track(const TrackFile& f, TimeDomain d) override { bandwidth.begin_track(f, d); }
  void on_span(const Span& s) override {
    phases.on_span(s);
    bandwidth.on_span(s);
  }
  void merge(LegacySinks&& other) {
    phases.merge(other.phases);
    bandwidth.merge(other.bandwidth);
  }
};

Result<html::ReportModel> legacy_model(const CommonOptions& o, CliContext& context,
                                       Diagnostics& diagnostics) {
  auto loaded = load_dump(o, context);
  if (!loaded) return loaded.error();
  auto merged = read_merged<LegacySinks>(*loaded, o, [&] { return LegacySinks(loaded->phases); });
  if (!merged) return merged.error();
  if (merged->phases.clamped_spans() > 0) {
    loaded->diagnostics.warn(
        "overlapping children",
        std::to_string(merged->phases.clamped_spans()) +
            " span(s) end before their nested events; their own time counts as 0",
        merged->phases.clamped_spans());
  }
  auto cross = legacy_cross_rank(*loaded, o, merged->phases.ranks(), Thresholds{});
  if (!cross) return cross.error();
  html::LegacyReportInput in;
  in.path = o.path;
  in.dump = &loaded->dump;
  in.phases = &loaded->phases;
  in.ranks = &merged->phases.ranks();
  in.bandwidth =
      merged->bandwidth.summarise(static_cast<std::uint32_t>(loaded->dump.layout.ranks.size()));
  in.cross = &*cross;
  const auto& instances = cross->input.instances;
  const bool any = std::any_of(instances.begin(), instances.end(), [](const JoinedInstance& i) {
    return html::window_of(i).has_value();
  });
  if (any || html_options().iteration) {
    auto index = html::choose_instance(instances, html_options().iteration);
    if (!index) return index.error();
    const JoinedInstance& inst = instances[*index];
    const html::InstanceWindow window = *html::window_of(inst);
    auto spans = read_merged<html::WindowSpans>(
        *loaded, o, [&] { return html::WindowSpans(window.start_ns, window.end_ns); });
    if (!spans) return spans.error();
    in.timeline =
        html::legacy_timeline(*spans, loaded->dump.table.base_names(), loaded->phases, window,
                              fmt::format("Timeline of {} ({})", inst.label,
                                          html::format_bytes(static_cast<double>(inst.bytes))),
                              html::describe_choice(inst, *index, instances.size(),
                                                    html_options().iteration.has_value()));
    in.reduction.push_back(fmt::format(
        "Timeline: one collective instance only (#{} of {}), {}.", *index, instances.size(),
        html_options().iteration ? "chosen with --iteration" : "the one of median duration"));
  } else {
    in.timeline_absent =
        "No collective-level span (e.g. ALL_REDUCE_RING) was joined across ranks: nothing to draw.";
  }
  in.warnings = warning_lines(loaded->diagnostics);
  html::ReportModel model = html::build_legacy_report_model(std::move(in));
  diagnostics = std::move(loaded->diagnostics);
  return model;
}

Result<html::ReportModel> npkt_model(const CommonOptions& o, Diagnostics& diagnostics) {
  auto loaded = load_npkt_input(o);
  if (!loaded) return loaded.error();
  html::NpktReportInput in;
  in.path = o.path;
  for (const auto& f : loaded->files) in.files.push_back(f.get());
  in.comms = &loaded->comms;
  in.warnings = warning_lines(loaded->diagnostics);
  in.iteration = html_options().iteration;
  std::optional<PhaseReport> event_phases;
  if (!loaded->events.empty()) {
    auto report =
        compute_phase_report(EventRecordSpanSource(loaded->events), o, loaded->diagnostics);
    if (!report) return report.error();
    event_phases.emplace(std::move(*report));
    in.event_phases = &loaded->events.phases;
    in.event_ranks = &event_phases->breakdown.ranks();
  }
  auto model = html::build_npkt_report_model(in);
  diagnostics = std::move(loaded->diagnostics);
  return model;
}

Result<html::ReportModel> summary_model(const CommonOptions& o) {
  auto summary = read_summary_file(o.path);
  if (!summary) return summary.error();
  return html::build_summary_report_model(*summary);
}

}  // namespace

void add_html_report_options(CLI::App& report) {
  html_options() = HtmlReportOptions{};
  report.add_option_function<std::uint64_t>(
      "--iteration", [](const std::uint64_t& n) { html_options().iteration = n; },
      "--format html: the collective instance the timeline shows (from 0, in start order; "
      "default: the one of median duration)");
}

Result<int> run_html_report(const CommonOptions& o, CliContext& context) {
  if (is_json_input(o.path)) {
    return Error{o.path +
                 " is a Chrome-trace JSON: report draws HTML from NPKit dump directories, .npkt "
                 "captures and npkit summaries; for a JSON trace use --format table, json, csv "
                 "or md, or open it in Perfetto"};
  }
  Diagnostics diagnostics;
  auto model = is_summary_file(o.path) ? summary_model(o)
               : is_npkt_input(o.path) ? npkt_model(o, diagnostics)
                                       : legacy_model(o, context, diagnostics);
  if (!model) return model.error();
  NPKIT_TRY(write_output(o, html::render_report_html(*model), context));
  print_warnings(diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
