// `npkit-analyze summarize PATH... -o run.json`: dumps or summaries reduced to one mergeable
// summary (map/merge across nodes: `summarize node*/run.json -o all.json`).
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "analysis/summary/summarize_run.hpp"
#include "commands/gate_commands.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/summary_json_writer.hpp"
#include "util/file_io.hpp"

namespace npkit::cli {
namespace {

constexpr std::size_t kSniffBytes = 64;

Result<RunSummary> summarize_dump(const CommonOptions& o, CliContext& context) {
  auto input = open_input(o, context);
  if (!input) return input.error();
  RunInput& in = **input;
  Run run;
  auto spans = read_run<SummarySpanSink>(in, run, [&] { return SummarySpanSink(in.phases()); });
  if (!spans) return spans.error();
  RunSummary s = summarize_run(run, *spans);
  s.warnings = in.diagnostics().total();
  print_warnings(in.diagnostics(), o, context);
  return s;
}

struct SummarizeOptions {
  CommonOptions common;
  std::vector<std::string> paths;
};

Result<int> run_summarize(const SummarizeOptions& o, CliContext& context) {
  RunSummary merged;
  for (const auto& path : o.paths) {
    auto run = load_run(path, o.common, context);
    if (!run) return run.error();
    merge_into(merged, *run);
  }
  std::string text;
  write_summary_json(merged, text);
  NPKIT_TRY(write_output(o.common, text, context));
  return 0;
}

}  // namespace

bool is_summary_file(const std::string& path) {
  if (!io::path_exists(path) || io::is_directory(path) || io::is_special_file(path)) return false;
  std::vector<std::uint8_t> prefix;
  if (!io::read_prefix_into(path, kSniffBytes, prefix)) return false;
  return looks_like_summary(
      std::string_view(reinterpret_cast<const char*>(prefix.data()), prefix.size()));
}

Result<RunSummary> load_run(const std::string& path, const CommonOptions& options,
                            CliContext& context) {
  if (is_summary_file(path)) return read_summary_file(path);
  CommonOptions o = options;
  o.path = path;
  return summarize_dump(o, context);
}

void add_dump_options(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--ranks", o.ranks, "Ranks of dumps to analyse, e.g. 0,2-5 (default: all)")
      ->capture_default_str();
  cmd.add_flag("-q,--quiet", o.quiet, "Do not print the warning summary");
  cmd.add_option("--event-table", o.event_table,
                 "Event-id table of legacy NPKit dumps (default: auto)")
      ->capture_default_str();
  cmd.add_option("--phase-map", o.phase_map, "Extra phase rules for legacy NPKit dumps");
  cmd.add_option("--threads", o.threads, "Threads reading a legacy dump");
  cmd.add_option("--cpu-record-size", o.cpu_record_size,
                 "CPU record size of legacy NPKit dumps (16, 18, 22; default: detect)");
}

void register_summarize(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<SummarizeOptions>();
  auto* cmd = app.add_subcommand(
      "summarize",
      "Reduce dumps or summaries to one mergeable npkit-summary JSON (the input of diff and "
      "compare; merging node summaries gives the cluster's)");
  cmd->add_option("PATH", options->paths,
                  "Runs (legacy NPKit directory, .npkt file or directory, Chrome-trace JSON) or "
                  "npkit-summary files")
      ->required();
  cmd->add_option("-o,--output", options->common.output,
                  "Write the summary to FILE instead of standard output");
  add_dump_options(*cmd, options->common);
  cmd->callback([options, &context] { context.outcome = run_summarize(*options, context); });
}

}  // namespace npkit::cli
