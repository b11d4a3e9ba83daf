#include "commands/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "analysis/phases/phase_breakdown.hpp"
#include "commands/gate_commands.hpp"
#include "commands/json_input.hpp"
#include "commands/npkt_input.hpp"
#include "import/legacy/legacy_input.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/cross_rank_output.hpp"
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

Result<html::ReportModel> legacy_model(const CommonOptions& o, CliContext& context,
                                       Diagnostics& diagnostics) {
  auto input = open_input(o, context);
  if (!input) return input.error();
  auto* legacy = dynamic_cast<LegacyInput*>(input->get());
  Run run;
  auto phases = read_run<PhaseBreakdownSink>(*legacy, run,
                                             [&] { return PhaseBreakdownSink(legacy->phases()); });
  if (!phases) return phases.error();
  if (phases->clamped_spans() > 0) {
    legacy->diagnostics().warn(
        "overlapping children",
        std::to_string(phases->clamped_spans()) +
            " span(s) end before their nested events; their own time counts as 0",
        phases->clamped_spans());
  }
  const CrossRankAnalysis cross = analyze_cross_rank(
      cross_rank_input(run.comms.front(), gpu_phase_infos(phases->ranks(), legacy->phases())),
      Thresholds{});
  html::LegacyReportInput in;
  in.path = o.path;
  in.dump = &legacy->dump();
  in.phases = &legacy->phases();
  in.ranks = &phases->ranks();
  in.bandwidth = bandwidth_rows(run, "all");
  in.switches = switch_points(in.bandwidth);
  in.cross = &cross;
  const auto& instances = cross.input.instances;
  const bool any = std::any_of(instances.begin(), instances.end(), [](const JoinedInstance& i) {
    return html::window_of(i).has_value();
  });
  if (any || html_options().iteration) {
    auto index = html::choose_instance(instances, html_options().iteration);
    if (!index) return index.error();
    const JoinedInstance& inst = instances[*index];
    const html::InstanceWindow window = *html::window_of(inst);
    // A second pass over the dump for the spans inside the window (its warnings repeat the
    // first pass's and are not kept).
    auto again = open_input(o, context);
    if (!again) return again.error();
    Run unused;
    auto spans = read_run<html::WindowSpans>(
        **again, unused, [&] { return html::WindowSpans(window.start_ns, window.end_ns); });
    if (!spans) return spans.error();
    in.timeline =
        html::legacy_timeline(*spans, legacy->span_names(), legacy->phases(), window,
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
  in.warnings = warning_lines(legacy->diagnostics());
  html::ReportModel model = html::build_legacy_report_model(std::move(in));
  diagnostics = std::move(legacy->diagnostics());
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
  if (!is_summary_file(o.path) && is_json_input(o.path)) {
    return Error{o.path +
                 " is a Chrome-trace JSON: report draws HTML from NPKit dump directories, .npkt "
                 "captures and npkit summaries; for a JSON trace use --format table, json, csv "
                 "or md, or open it in Perfetto"};
  }
  Diagnostics diagnostics;
  auto model = is_summary_file(o.path) ? summary_model(o)
               : is_npkt_path(o.path)  ? npkt_model(o, diagnostics)
                                       : legacy_model(o, context, diagnostics);
  if (!model) return model.error();
  NPKIT_TRY(write_output(o, html::render_report_html(*model), context));
  print_warnings(diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
