#include "commands/json_profiler_commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "import/chrome_json/plugin_cross_rank.hpp"
#include "output/bandwidth_output.hpp"
#include "output/cross_rank_output.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::cli {
namespace {

std::string gbps(double v) {
  return fmt::format("{:.2f}", v);
}

struct LoadedProfiler {
  std::vector<ingest::PluginRankTrace> traces;  // the selected ranks; `comms` point into it
  std::vector<ingest::PluginCommunicator> comms;
  Diagnostics diagnostics;
};

std::string profiler_time_source(const std::vector<ingest::PluginRankTrace>& traces) {
  const bool example = std::any_of(traces.begin(), traces.end(), [](const auto& t) {
    return t.producer == ingest::TraceProducer::kNcclExample;
  });
  return example ? "COLL events of NCCL's example profiler plugin: b (enqueue) to e (completion), "
                   "on each process's own clock (µs since its plugin init)"
                 : "GPU spans of the collectives (first to last KernelCh) on each host's clock, "
                   "from npkit-analyze's trace of .npkt dumps";
}

Result<std::unique_ptr<LoadedProfiler>> load_profiler(const CommonOptions& o,
                                                      const std::vector<std::string>& files) {
  const char* option = nullptr;
  if (o.event_table != "auto") option = "--event-table";
  if (!o.phase_map.empty()) option = "--phase-map";
  if (o.cpu_record_size != 0) option = "--cpu-record-size";
  if (option != nullptr) {
    return Error{std::string(option) + " applies to NPKit event traces and dumps; " + o.path +
                 " holds profiler-plugin traces"};
  }
  auto filter = RankFilter::parse(o.ranks);
  if (!filter) return filter.error();
  auto loaded = std::make_unique<LoadedProfiler>();
  auto traces = ingest::read_profiler_traces(files, loaded->diagnostics);
  if (!traces) return traces.error();
  std::set<std::int32_t> seen;
  for (auto& t : *traces) {
    seen.insert(t.rank);
    if (t.rank >= 0 && filter->contains(static_cast<std::uint32_t>(t.rank))) {
      loaded->traces.push_back(std::move(t));
    }
  }
  if (loaded->traces.empty()) {
    return Error{fmt::format("--ranks {}: no such rank in {} (it has ranks {}..{})", o.ranks,
                             o.path, seen.empty() ? -1 : *seen.begin(),
                             seen.empty() ? -1 : *seen.rbegin())};
  }
  loaded->comms = ingest::join_plugin_traces(loaded->traces, profiler_time_source(loaded->traces),
                                             loaded->diagnostics);
  return loaded;
}

std::string comm_hex(std::uint64_t hash) {
  return fmt::format("{:016x}", hash);
}

std::uint32_t present_ranks(const ingest::PluginCommunicator& c) {
  return static_cast<std::uint32_t>(
      std::count_if(c.ranks.begin(), c.ranks.end(), [](auto* t) { return t != nullptr; }));
}

std::string comm_line(const std::string& path, const ingest::PluginCommunicator& c) {
  return fmt::format("{}: comm {}, {} of {} rank(s)", path, comm_hex(c.comm_hash), present_ranks(c),
                     c.nranks);
}

TextTable profiler_file_table(const LoadedProfiler& loaded) {
  TextTable t;
  t.columns = {"rank", "comm", "clock", "events", "collectives", "never ended", "file"};
  for (const auto& c : loaded.comms) {
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
  auto loaded = load_profiler(o, files);
  if (!loaded) return loaded.error();
  const LoadedProfiler& l = **loaded;
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
    for (const auto& r : l.traces) {
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
    for (const auto& c : l.comms) {
      for (const auto& g : c.run.gaps) {
        w.begin_object();
        w.field("scope", g.scope);
        w.field("kind", g.kind);
        w.field("detail", g.detail);
        w.end_object();
      }
    }
    w.end_array();
    write_warnings_json(w, l.diagnostics);
    w.end_object();
  } else if (format == OutputFormat::kCsv) {
    render_csv(profiler_file_table(l), text);
  } else {
    render_line(fmt::format("trace         {} ({} file(s), {} rank trace(s), {} communicator(s))",
                            o.path, files.size(), l.traces.size(), l.comms.size()),
                format, text);
    render_line(fmt::format("producer      {}", ingest::trace_producer_name(l.traces[0].producer)),
                format, text);
    render_line("clocks        " + profiler_time_source(l.traces), format, text);
    if (format != OutputFormat::kMarkdown) text += "\n";
    render_table(profiler_file_table(l), format, text);
    bool first = true;
    for (const auto& c : l.comms) {
      for (const auto& g : c.run.gaps) {
        if (first && format != OutputFormat::kMarkdown) text += "\n";
        if (first) render_line("gaps", format, text);
        first = false;
        render_line(fmt::format("  {}: {}: {}", g.scope, g.kind, g.detail), format, text);
      }
    }
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(l.diagnostics, o, context);
  return 0;
}

Result<int> run_json_profiler_trace(const CommonOptions& o, const std::vector<std::string>&,
                                    CliContext&) {
  return Error{o.path +
               " holds profiler-plugin events already in the Chrome trace format: open it in "
               "Perfetto as it is (trace converts NPKit and .npkt dumps and NPKit event traces)"};
}

}  // namespace npkit::cli
