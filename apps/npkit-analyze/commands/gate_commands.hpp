// commands/gate_commands.hpp — the CI gate commands: summarize, diff and compare.
// Contract: each input PATH is a run — an npkit-summary JSON file (run/summary/run_summary.hpp), a
// .npkt file or directory, or a legacy NPKit dump directory, the latter summarized on the fly
// with the options given (--ranks, --event-table, --env, ...). load_run reads one, printing the
// input's warning summary on the error stream unless --quiet; an unreadable or malformed input
// is an Error (exit 2). A summary file takes an explicit --env (completing its configuration as
// for a dump) and --label (its inputs become the label).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "commands/command.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit {

// Reads every span of `input` into SummarySpanSinks (analysis/summary/summarize_run.hpp) and
// summarizes the run it returns; `warnings` is the input's warning count after reading.
Result<RunSummary> summarize_input(RunInput& input);

}  // namespace npkit

namespace npkit::cli {

Result<RunSummary> load_run(const std::string& path, const CommonOptions& options,
                            CliContext& context);

// The options of command.hpp that say how dumps are read (--ranks, -q, --event-table, ...).
void add_dump_options(CLI::App& cmd, CommonOptions& options);

// --env FILE, --label TEXT and --run N of the gate commands: none, one for every run, or one per
// run in the order of the runs (--run: one for every run always allowed). --pool-runs reads every
// file of an input of several runs of a job; without it (and --run) such an input is an Error.
struct RunNaming {
  std::vector<std::string> env_files;
  std::vector<std::string> labels;
  std::vector<std::uint32_t> runs;
  bool pool_runs = false;
};
void add_run_naming_options(CLI::App& cmd, RunNaming& naming);
// `options` with run `index`'s --env, --label and --run (of `runs` runs), refusing a mixed input
// unless --pool-runs; an Error when a list's length is neither 0, 1 (`one_for_all`; for --run
// always) nor `runs`.
Result<CommonOptions> options_for_run(const CommonOptions& options, const RunNaming& naming,
                                      std::size_t index, std::size_t runs, bool one_for_all);

void register_summarize(CLI::App& app, CliContext& context);
void register_diff(CLI::App& app, CliContext& context);
void register_compare(CLI::App& app, CliContext& context);

}  // namespace npkit::cli
