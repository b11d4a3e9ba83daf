#include "commands/run_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/report/run_report.hpp"
#include "output/bandwidth_output.hpp"
#include "output/cross_rank_output.hpp"
#include "output/run_text.hpp"
#include "util/quantiles.hpp"
#include "util/saturating.hpp"

namespace npkit::cli {
namespace {

constexpr double kHintBelow = 0.5;
constexpr std::size_t kHintNames = 3;

const PhaseReportWording& wording() {
  static const PhaseReportWording w{
      "GPU span time",
      "top-level spans summed over tracks",
      "CPU span time",
      "Phases (exclusive time; share of the domain's time; spread of per-rank totals)",
      "Per rank (GPU)",
      "Per rank (CPU)"};
  return w;
}

// Per rank and collective: instances, timed, total and median time.
TextTable collectives_per_rank(const RunCommunicator& comm) {
  std::map<std::pair<std::int32_t, std::string>, std::vector<double>> times;
  std::map<std::pair<std::int32_t, std::string>, std::uint64_t> counts;
  for (const auto& inst : comm.instances) {
    for (const auto& m : inst.members) {
      ++counts[{m.rank, inst.func}];
      if (m.timed) times[{m.rank, inst.func}].push_back(static_cast<double>(m.duration_ns()));
    }
  }
  TextTable t;
  t.title = "Collectives per rank";
  t.columns = {"rank", "collective", "instances", "timed", "total (us)", "median (us)"};
  for (auto& [key, n] : counts) {
    auto& v = times[key];
    std::sort(v.begin(), v.end());
    double total = 0;
    for (double x : v) total += x;
    t.add_row({std::to_string(key.first), key.second, std::to_string(n), std::to_string(v.size()),
               v.empty() ? "-" : us(total), v.empty() ? "-" : us(sorted_quantile(v, 0.5))});
  }
  return t;
}

std::string hint(const RunReport& r) {
  if (!r.phases || r.unassigned.empty()) return "";
  const double share = explained_share(*r.phases);
  if (share >= kHintBelow) return "";
  std::string names;
  for (std::size_t i = 0; i < r.unassigned.size() && i < kHintNames; ++i) {
    names += fmt::format("{}{} ({} us)", i == 0 ? "" : ", ", r.unassigned[i].name,
                         us(static_cast<double>(r.unassigned[i].ns)));
  }
  return fmt::format(
      "Hint: the phases explain only {} of the GPU span time; the most unassigned time is in {}. "
      "Give these events a phase with --phase-map FILE (docs/phases.md).",
      percent(share), names);
}

void write_text(const RunReport& r, RunInput& in, const CommonOptions& o, OutputFormat f,
                std::string& out) {
  const bool md = f == OutputFormat::kMarkdown;
  if (md) out += "# npkit-analyze report\n\n";
  std::string head = fmt::format("{}: {}, {} communicator(s)", o.path, input_kind_name(r.run->kind),
                                 r.run->comms.size());
  if (!in.event_table().empty()) head += ", event table " + in.event_table();
  render_line(head, f, out);
  if (r.phases) {
    render_phase_report(*r.phases, in.phases(), wording(), f, out);
    const std::string h = hint(r);
    if (!h.empty()) render_section_line(h, f, out);
  } else {
    render_line(fmt::format("Phases: none (this {} holds no spans)", input_kind_name(r.run->kind)),
                f, out);
  }
  std::vector<Finding> findings;
  for (const auto& c : r.comms) {
    if (md) {
      out += "## " + describe_communicator(*c.comm) + "\n\n";
    } else {
      out += "\n" + describe_communicator(*c.comm) + "\n";
    }
    render_line("Times: " + c.comm->time_source, f, out);
    TextTable colls = collectives_per_rank(*c.comm);
    if (colls.rows.empty()) {
      render_section_line("No collective instances (no collective-level span or event to join)", f,
                          out);
    } else {
      render_block(colls, f, out);
    }
    append_cross_rank_text(c.cross, f, out);
    render_switch_points(r.switches, c.comm->hash, f, out);
    render_latency(r.latency, c.comm->hash, f, out);
    findings.insert(findings.end(), c.findings.begin(), c.findings.end());
  }
  out += md ? "## Findings\n\n" : "\n";
  append_findings(findings, f, out);
}

void write_json(const RunReport& r, RunInput& in, const CommonOptions& o, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.report");
  w.field("schema_version", 1);
  w.field("path", o.path);
  w.field("input", input_kind_key(r.run->kind));
  if (!in.event_table().empty()) w.field("event_table", in.event_table());
  w.field("has_spans", r.phases.has_value());
  if (r.phases) write_phase_report_json(w, *r.phases, in.phases());
  w.key("unassigned");
  w.begin_array();
  for (const auto& u : r.unassigned) {
    w.begin_object();
    w.field("event", u.name);
    w.field("ns", u.ns);
    w.end_object();
  }
  w.end_array();
  w.key("communicators");
  w.begin_array();
  std::vector<Finding> findings;
  for (const auto& c : r.comms) {
    w.begin_object();
    w.field("comm", comm_key(*c.comm));
    w.field("nranks", c.comm->nranks);
    w.field("instances", static_cast<std::uint64_t>(c.comm->instances.size()));
    write_cross_rank_json(c.cross, w, /*with_findings=*/false);
    write_switch_points_json(w, r.switches, c.comm->hash);
    write_latency_json(w, r.latency, c.comm->hash);
    w.end_object();
    findings.insert(findings.end(), c.findings.begin(), c.findings.end());
  }
  w.end_array();
  write_findings_json(findings, w);
  write_warnings_json(w, in.diagnostics());
  w.end_object();
}

}  // namespace

Result<int> run_run_report(const CommonOptions& o, CliContext& context) {
  auto input = open_input(o, context);
  if (!input) return input.error();
  RunInput& in = **input;
  Run run;
  auto sink = read_run<RunReportSink>(
      in, run, [&] { return RunReportSink(in.phases(), in.span_names().size()); });
  if (!sink) return sink.error();
  const RunReport report = build_run_report(run, std::move(*sink), in.has_spans(), in.phases(),
                                            in.span_names(), in.diagnostics());
  std::string text;
  const OutputFormat f = output_format(o);
  if (f == OutputFormat::kJson) {
    write_json(report, in, o, text);
  } else if (f == OutputFormat::kCsv) {
    if (report.phases) render_csv(phase_report_csv(*report.phases), text);
    for (const auto& c : report.comms) {
      if (!text.empty()) text += "\n";
      render_csv(cross_rank_csv(c.cross), text);
    }
  } else {
    write_text(report, in, o, f, text);
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(in.diagnostics(), o, context);
  return 0;
}

}  // namespace npkit::cli
