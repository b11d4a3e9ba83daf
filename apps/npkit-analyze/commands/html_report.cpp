#include "commands/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/report/run_report.hpp"
#include "commands/gate_commands.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/html/channel_timeline.hpp"
#include "output/html/instance_choice.hpp"
#include "output/html/legacy_timeline.hpp"
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

// The first communicator with a joined instance that has a window, in run order.
const CommunicatorReport* timeline_comm(const RunReport& report) {
  for (const auto& c : report.comms) {
    const auto& instances = c.cross.input.instances;
    if (std::any_of(instances.begin(), instances.end(),
                    [](const JoinedInstance& i) { return html::window_of(i).has_value(); })) {
      return &c;
    }
  }
  return nullptr;
}

// The timeline of one instance: a communicator's channel spans where the input records them
// (html/channel_timeline.hpp), or the spans inside the window, from a second pass over the input
// (its warnings repeat the first pass's and are not kept).
Status add_timeline(html::RunReportInput& model, RunInput& in, const RunReport& report,
                    const CommonOptions& o, CliContext& context) {
  const auto& iteration = html_options().iteration;
  const CommunicatorReport* c = timeline_comm(report);
  const bool drawable =
      c != nullptr && (!c->comm->from_spans ? in.records_channel_spans() : in.has_spans());
  if (!drawable) {
    if (iteration) {
      return Error{
          fmt::format("--iteration {}: no collective instance of {} was joined across "
                      "ranks with anything below it to draw",
                      *iteration, o.path)};
    }
    model.timeline_absent =
        c == nullptr ? "No collective instance was joined across ranks: nothing to draw."
                     : "No timeline: this input holds nothing below its collectives (no spans, no "
                       "GPU channels) to draw inside one.";
    return Ok{};
  }
  const auto& instances = c->cross.input.instances;
  NPKIT_ASSIGN(auto index, html::choose_instance(instances, iteration));
  const JoinedInstance& inst = instances[index];
  const html::InstanceWindow window = *html::window_of(inst);
  std::string title = fmt::format("Timeline of {} ({}", inst.label,
                                  html::format_bytes(static_cast<double>(inst.bytes)));
  title += report.comms.size() > 1 ? ", " + c->cross.input.scope + ")" : ")";
  const std::string choice =
      html::describe_choice(inst, index, instances.size(), iteration.has_value());
  if (!c->comm->from_spans) {
    model.timeline =
        html::channel_timeline(in.channel_spans(c->comm->hash, window.start_ns, window.end_ns),
                               c->comm->nranks, window, title, choice);
  } else {
    NPKIT_ASSIGN(auto again, open_input(o, context));
    Run unused;
    NPKIT_ASSIGN(auto spans, read_run<html::WindowSpans>(*again, unused, [&] {
                   return html::WindowSpans(window.start_ns, window.end_ns);
                 }));
    model.timeline =
        html::legacy_timeline(spans, in.span_names(), in.phases(), window, title, choice);
  }
  model.reduction.push_back(fmt::format(
      "Timeline: one collective instance only (#{} of {}), {}.", index, instances.size(),
      iteration ? "chosen with --iteration" : "the one of median duration"));
  return Ok{};
}

// Any input: `report`'s one result (analysis/report/run_report.hpp) and its timeline.
Result<html::ReportModel> run_model(const CommonOptions& o, CliContext& context,
                                    Diagnostics& diagnostics) {
  NPKIT_ASSIGN(auto thresholds, finding_thresholds(o));
  NPKIT_ASSIGN(auto input, open_input(o, context));
  RunInput& in = *input;
  Run run;
  NPKIT_ASSIGN(auto sink, read_run<RunReportSink>(in, run, [&] {
                 return RunReportSink(in.phases(), in.span_names().size());
               }));
  const RunReport report =
      build_run_report(run, std::move(sink), in.has_spans(), in.phases(), in.span_names(),
                       thresholds, in.diagnostics(), o.by == "tag");
  html::RunReportInput model;
  model.path = o.path;
  model.facts = run.facts;
  model.phases = &in.phases();
  model.report = &report;
  NPKIT_TRY(add_timeline(model, in, report, o, context));
  model.warnings = warning_lines(in.diagnostics());
  html::ReportModel built = html::build_run_report_model(std::move(model));
  diagnostics = std::move(in.diagnostics());
  return built;
}

Result<html::ReportModel> summary_model(const CommonOptions& o) {
  NPKIT_ASSIGN(auto summary, read_summary_file(o.path));
  return html::build_summary_report_model(summary);
}

}  // namespace

void add_html_report_options(CLI::App& report) {
  html_options() = HtmlReportOptions{};
  report.add_option_function<std::uint64_t>(
      "--iteration", [](const std::uint64_t& n) { html_options().iteration = n; },
      "--format html: the collective instance the timeline shows (from 0, in start order; "
      "default: the one of median duration)");
}

std::optional<Error> html_options_error(const CommonOptions& o) {
  const auto& iteration = html_options().iteration;
  if (!iteration || output_format(o) == OutputFormat::kHtml) return std::nullopt;
  return Error{fmt::format(
      "--iteration {}: picks the collective instance the timeline of --format html shows; "
      "--format {} has no timeline",
      *iteration, o.format)};
}

Result<int> run_html_report(const CommonOptions& o, CliContext& context) {
  Diagnostics diagnostics;
  NPKIT_ASSIGN(auto model,
               is_summary_file(o.path) ? summary_model(o) : run_model(o, context, diagnostics));
  NPKIT_TRY(write_output(o, html::render_report_html(model), context));
  print_warnings(diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
