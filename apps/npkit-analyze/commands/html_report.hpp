// commands/html_report.hpp — `npkit-analyze report PATH --format html`: one self-contained HTML
// page with the report's plots (output/html/page.hpp).
// Contract:
// - add_html_report_options adds the options only the HTML report reads (--iteration N: the
//   collective instance the timeline shows, counted from 0 in start order; default: the one of
//   median duration) to the `report` subcommand. They are kept for the one command line being
//   parsed: each call resets them (run_cli builds its command line, and calls this, once per run).
// - run_html_report reads PATH as `report` does (every input the commands read), or an npkit
//   summary (output/html/summary_report_model.hpp), builds the report model and writes the page
//   to -o FILE (or standard output). Errors as the other commands: unreadable input, an
//   --iteration the run does not have or that names nothing to draw.
// - html_options_error: the Error for an option of the HTML report given with another --format
//   (the text, CSV and JSON reports have no timeline); none when there is none.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>

#include "commands/command.hpp"

namespace npkit::cli {

void add_html_report_options(CLI::App& report);

Result<int> run_html_report(const CommonOptions& options, CliContext& context);

std::optional<Error> html_options_error(const CommonOptions& options);

}  // namespace npkit::cli
