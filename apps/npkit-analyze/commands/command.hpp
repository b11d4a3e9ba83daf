// command.hpp — what every subcommand shares: options, opening an input, writing results.
// Contract: each subcommand file registers itself with register_<name>(app, context); its
// callback stores the outcome (an exit code or an Error) in context.outcome. Loading applies
// --event-table, --phase-map, --cpu-record-size and --ranks uniformly; output goes to -o FILE or
// to the context's stream; warnings are summarised on the error stream unless --quiet.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/diagnose/thresholds.hpp"
#include "import/run_input.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"
#include "output/text_table.hpp"
#include "run/phase_map.hpp"
#include "run/span_sink.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit::cli {

// What PATH may be: every input kind the detector reads (import/run_input.hpp).
inline constexpr const char* kInputHelp =
    "The input: a legacy NPKit dump directory (gpu_events_rank_<R>_buf_<B>, "
    "cpu_events_rank_<R>_channel_<C>), .npkt captures of the profiler plugin or the event "
    "recorders (a file or a directory of them), Chrome-trace JSON (NPKit's generator, NCCL's "
    "example profiler plugin, npkit-analyze trace; a file or a directory), NCCL Inspector logs (a "
    "log or its directory) or a nccl-tests results file (-J FILE.json)";

// What a run of summarize, diff and compare may be.
inline constexpr const char* kRunInputs =
    "any input of the other commands (a legacy NPKit dump directory, .npkt captures, "
    "Chrome-trace JSON, NCCL Inspector logs, a nccl-tests results file) or an npkit-summary "
    "file";

struct CliContext {
  std::ostream& out;
  std::ostream& err;
  std::optional<Result<int>> outcome;
};

struct CommonOptions {
  std::string path;
  std::string format = "table";
  std::string output;
  std::string ranks = "all";
  bool quiet = false;
  std::string event_table = "auto";
  std::string phase_map;
  unsigned cpu_record_size = 0;
  unsigned threads = 0;   // 0: one per core (at most 8); dumps under 16 MB use one
  bool skip_bad = false;  // a directory of .npkt files: skip unreadable files (a warning each)
  unsigned nranks = 0;    // --nranks: a legacy dump's communicator size (0: highest rank + 1)
  std::string env_file;   // --env: "" = ENV.txt / env.txt beside the input, "none" = no file
  std::string label;      // --label: the run's name in summaries
  std::uint32_t run = 0;  // --run N: the run of a mixed .npkt input to read (0: every file)
  bool refuse_mixed_runs = false;       // the gate commands without --pool-runs
  std::vector<std::string> thresholds;  // report --finding-threshold NAME=VALUE
  std::string old_threshold;  // report --threshold, the former --finding-threshold: refused
  std::string by = "rank";    // report --by: rank, or tag (per user tag and rank)
  bool wide = false;          // report --wide: every column of every table
  std::vector<std::pair<std::string, std::string>> refused;  // option given, its value
};

// Adds PATH and the options every analysis command takes. `with_format`: --format
// table|json|csv|md (and html for `report`, commands/html_report.hpp). Without
// `with_dump_options` (a command that reads .npkt profiler captures only), --event-table,
// --cpu-record-size, --nranks and --phase-map are left out of its help; given anyway, each is
// listed in CommonOptions::refused for refused_option_error.
void add_common_options(CLI::App& cmd, CommonOptions& options, bool with_format = true,
                        bool with_dump_options = true);

// --run N (CommonOptions::run), for add_common_options and the gate commands.
void add_run_option(CLI::App& cmd, std::uint32_t& run);

// The Error for the first option in `options.refused`: not an option of `command`, which reads
// only `what`, and what the option is for. None when nothing was refused.
// --threads N: a whole number from 1 to kMaxThreadsOption, refused in our own words otherwise.
inline constexpr unsigned kMaxThreadsOption = 1024;
CLI::Validator thread_count_validator();

std::optional<Error> refused_option_error(const CommonOptions& options, std::string_view command,
                                          std::string_view what);

OutputFormat output_format(const CommonOptions& options);

// An Error of a lower layer that names an option by another name than the command's: the
// leading `old_name` becomes `new_name` (e.g. the findings' "--threshold" is report's
// --finding-threshold).
Error with_option_name(Error error, std::string_view old_name, std::string_view new_name);

// report's --finding-threshold NAME=VALUE settings (analysis/diagnose/thresholds.hpp).
Result<Thresholds> finding_thresholds(const CommonOptions& options);

// The collective key (run/nccl_tests_convention.hpp, coll_option_key) that the value `typed` of
// `option` names: NCCL's names in any case, nccl-tests' program names, the keys; "all" only
// where `allow_all`. Anything else is an Error listing the keys, with the nearest one.
Result<std::string> parse_coll_option(const std::string& option, const std::string& typed,
                                      bool allow_all = true);

// Opens PATH as a RunInput (import/run_input.hpp) with the common options; reading reports its
// progress on standard error when that is a terminal (and not --quiet). `detected`: what
// detect_input found at PATH, where the command asked already.
Result<std::unique_ptr<RunInput>> open_input(const CommonOptions& options, CliContext& context,
                                             std::optional<DetectedInput> detected = {});

// Writes `text` to -o FILE (replacing it, commands/output_file.hpp) or to the context's output
// stream (no -o, "-" or /dev/stdout).
Status write_output(const CommonOptions& options, const std::string& text, CliContext& context);

// Streams a large output (a trace) to -o FILE or to the context's output stream: `write(out,
// name)` writes all of it to `out`, naming the destination `name` in its messages, and returns
// how many events it wrote. A file is written as write_output does (commands/output_file.hpp: a
// temporary renamed over FILE only when every write succeeded, so a failed run never leaves a
// half file). Then "wrote N events to FILE" on the error stream, unless --quiet.
using TraceOutputWriter =
    std::function<Result<std::uint64_t>(std::ostream& out, const std::string& name)>;
Status write_trace_output(const CommonOptions& options, CliContext& context,
                          const TraceOutputWriter& write);

// A sink for commands that read only the run model (read_run needs one).
class IgnoreSpans : public SpanSink {
 public:
  void on_span(const Span& /*span*/) override {}
  void merge(IgnoreSpans&& /*other*/) {}
};

// Prints the warning summary to the error stream (nothing with --quiet or no warnings).
void print_warnings(const Diagnostics& diagnostics, const CommonOptions& options,
                    CliContext& context);

void register_info(CLI::App& app, CliContext& context);
void register_hang(CLI::App& app, CliContext& context);
void register_instances(CLI::App& app, CliContext& context);
void register_report(CLI::App& app, CliContext& context);
void register_bandwidth(CLI::App& app, CliContext& context);
void register_trace(CLI::App& app, CliContext& context);
}  // namespace npkit::cli
