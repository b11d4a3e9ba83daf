#include "commands/json_profiler_commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

#include "import/chrome_json/chrome_input.hpp"
#include "import/chrome_json/plugin_cross_rank.hpp"
#include "import/npkt/npkt_input.hpp"

namespace npkit::cli {
namespace {

TextTable profiler_file_table(const ChromeProfilerInput& loaded) {
  TextTable t;
  t.columns = {"rank", "comm", "clock", "events", "collectives", "never ended", "file"};
  for (const auto& c : loaded.comms()) {
    for (const auto* r : c.ranks) {
      if (r == nullptr) continue;
      std::uint64_t events = 0;
      for (const auto& [cat, n] : r->events_by_category) events += n;
      t.add_row({std::to_string(r->rank), comm_hex(r->comm_hash),
                 r->host.empty() ? fmt::format("process {}", r->pid) : r->host,
                 std::to_string(events), std::to_string(r->colls.size()),
                 std::to_string(r->never_ended), r->path});
    }
  }
  return t;
}

}  // namespace

Result<int> run_json_profiler_info(const CommonOptions& o, const std::vector<std::string>& files,
                                   CliContext& context) {
  auto input = open_input(o, context);
  if (!input) return input.error();
  auto& l = dynamic_cast<ChromeProfilerInput&>(**input);
  std::string text;
  const OutputFormat format = output_format(o);
  if (format == OutputFormat::kJson) {
    JsonWriter w(text);
    w.begin_object();
    w.field("schema", "npkit-analyze.info");
    w.field("schema_version", 1);
    w.field("path", o.path);
    w.field("variant", "Chrome trace JSON of profiler-plugin events");
    w.key("traces");
    w.begin_array();
    for (const auto& r : l.traces()) {
      w.begin_object();
      w.field("path", r.path);
      w.field("producer", ingest::trace_producer_name(r.producer));
      w.field("comm_hash", comm_hex(r.comm_hash));
      w.field("rank", r.rank);
      w.field("pid", r.pid);
      w.field("host", r.host);
      w.field("collectives", static_cast<std::uint64_t>(r.colls.size()));
      w.field("never_ended", r.never_ended);
      w.key("events_by_category");
      w.begin_object();
      for (const auto& [cat, n] : r.events_by_category) w.field(cat, n);
      w.end_object();
      w.end_object();
    }
    w.end_array();
    w.key("gaps");
    w.begin_array();
    for (const auto& c : l.comms()) {
      for (const auto& g : c.run.gaps) {
        w.begin_object();
        w.field("scope", g.scope);
        w.field("kind", g.kind);
        w.field("detail", g.detail);
        w.end_object();
      }
    }
    w.end_array();
    write_warnings_json(w, l.diagnostics());
    w.end_object();
  } else if (format == OutputFormat::kCsv) {
    render_csv(profiler_file_table(l), text);
  } else {
    render_line(fmt::format("trace         {} ({} file(s), {} rank trace(s), {} communicator(s))",
                            o.path, files.size(), l.traces().size(), l.comms().size()),
                format, text);
    render_line(
        fmt::format("producer      {}", ingest::trace_producer_name(l.traces()[0].producer)),
        format, text);
    render_line("clocks        " + l.time_source(), format, text);
    if (format != OutputFormat::kMarkdown) text += "\n";
    render_table(profiler_file_table(l), format, text);
    bool first = true;
    for (const auto& c : l.comms()) {
      for (const auto& g : c.run.gaps) {
        if (first && format != OutputFormat::kMarkdown) text += "\n";
        if (first) render_line("gaps", format, text);
        first = false;
        render_line(fmt::format("  {}: {}: {}", g.scope, g.kind, g.detail), format, text);
      }
    }
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(l.diagnostics(), o, context);
  return 0;
}

Result<int> run_json_profiler_trace(const CommonOptions& o, const std::vector<std::string>&,
                                    CliContext&) {
  return Error{o.path +
               " holds profiler-plugin events already in the Chrome trace format: open it in "
               "Perfetto as it is (trace converts NPKit and .npkt dumps and NPKit event traces)"};
}

}  // namespace npkit::cli
