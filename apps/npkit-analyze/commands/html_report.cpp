#include "commands/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/report/run_report.hpp"
#include "commands/gate_commands.hpp"
#include "commands/npkt_input.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/html/instance_choice.hpp"
#include "output/html/legacy_timeline.hpp"
#include "output/html/npkt_report_model.hpp"
#include "output/html/page.hpp"
#include "output/html/run_report_model.hpp"
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

// The first joined instance with a window over its spans, in communicator order.
const std::vector<JoinedInstance>* timeline_instances(const RunReport& report) {
  for (const auto& c : report.comms) {
    const auto& instances = c.cross.input.instances;
    if (std::any_of(instances.begin(), instances.end(),
                    [](const JoinedInstance& i) { return html::window_of(i).has_value(); })) {
      return &instances;
    }
  }
  return nullptr;
}

// Legacy dumps and Chrome traces: `report`'s one result (analysis/report/run_report.hpp), and a
// second pass over the input for the spans inside the timeline's window.
Result<html::ReportModel> run_model(const CommonOptions& o, CliContext& context,
                                    Diagnostics& diagnostics) {
  auto input = open_input(o, context);
  if (!input) return input.error();
  RunInput& in = **input;
  Run run;
  auto sink = read_run<RunReportSink>(
      in, run, [&] { return RunReportSink(in.phases(), in.span_names().size()); });
  if (!sink) return sink.error();
  const RunReport report = build_run_report(run, std::move(*sink), in.has_spans(), in.phases(),
                                            in.span_names(), in.diagnostics());
  html::RunReportInput model;
  model.path = o.path;
  model.facts = in.facts();
  model.phases = &in.phases();
  model.report = &report;
  const auto* instances = timeline_instances(report);
  if (!in.has_spans()) {
    model.timeline_absent =
        "No timeline: this input holds no spans below the collectives to draw inside one.";
  } else if (instances != nullptr || html_options().iteration) {
    static const std::vector<JoinedInstance> none;
    if (instances == nullptr) instances = &none;  // --iteration: choose_instance says why not
    auto index = html::choose_instance(*instances, html_options().iteration);
    if (!index) return index.error();
    const JoinedInstance& inst = (*instances)[*index];
    const html::InstanceWindow window = *html::window_of(inst);
    // The spans inside the window (the second pass's warnings repeat the first's: not kept).
    auto again = open_input(o, context);
    if (!again) return again.error();
    Run unused;
    auto spans = read_run<html::WindowSpans>(
        **again, unused, [&] { return html::WindowSpans(window.start_ns, window.end_ns); });
    if (!spans) return spans.error();
    model.timeline =
        html::legacy_timeline(*spans, in.span_names(), in.phases(), window,
                              fmt::format("Timeline of {} ({})", inst.label,
                                          html::format_bytes(static_cast<double>(inst.bytes))),
                              html::describe_choice(inst, *index, instances->size(),
                                                    html_options().iteration.has_value()));
    model.reduction.push_back(fmt::format(
        "Timeline: one collective instance only (#{} of {}), {}.", *index, instances->size(),
        html_options().iteration ? "chosen with --iteration" : "the one of median duration"));
  } else {
    model.timeline_absent =
        "No collective-level span (e.g. ALL_REDUCE_RING) was joined across ranks: nothing to draw.";
  }
  model.warnings = warning_lines(in.diagnostics());
  html::ReportModel built = html::build_run_report_model(std::move(model));
  diagnostics = std::move(in.diagnostics());
  return built;
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
  Diagnostics diagnostics;
  auto model = is_summary_file(o.path) ? summary_model(o)
               : is_npkt_path(o.path)  ? npkt_model(o, diagnostics)
                                       : run_model(o, context, diagnostics);
  if (!model) return model.error();
  NPKIT_TRY(write_output(o, html::render_report_html(*model), context));
  print_warnings(diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
