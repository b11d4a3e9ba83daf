// commands/gate_commands.hpp — the CI gate commands: summarize, diff and compare.
// Contract: each input PATH is a run — an npkit-summary JSON file (run/summary/run_summary.hpp), a
// .npkt file or directory, or a legacy NPKit dump directory, the latter summarized on the fly
// with the options given (--ranks, --event-table, ...). load_run reads one, printing the
// input's warning summary on the error stream unless --quiet; an unreadable or malformed input
// is an Error (exit 2).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "commands/command.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit::cli {

Result<RunSummary> load_run(const std::string& path, const CommonOptions& options,
                            CliContext& context);

// True when `path` is a regular file that starts like an npkit-summary JSON file.
bool is_summary_file(const std::string& path);

// The options of command.hpp that say how dumps are read (--ranks, -q, --event-table, ...).
void add_dump_options(CLI::App& cmd, CommonOptions& options);

void register_summarize(CLI::App& app, CliContext& context);
void register_diff(CLI::App& app, CliContext& context);
void register_compare(CLI::App& app, CliContext& context);

}  // namespace npkit::cli
