// commands/json_input.hpp — Chrome trace JSON inputs of the analysis commands: traces users already
// have, written by NPKit's generator, by NCCL's example profiler plugin, or by our own `trace`.
// Contract:
// - is_json_input is true for a regular file named *.json and for a directory that holds *.json
//   files and no NPKit event files (a legacy dump directory with a trace beside its records stays
//   a legacy dump). Every other PATH takes its usual route.
// - The producer of the first file decides the shape (import/chrome_json/trace_producer.hpp):
//   NPKit's generator and our traces of legacy dumps are span traces
//   (commands/json_span_commands.hpp); NCCL's example profiler plugin and our traces of .npkt
//   dumps are profiler traces (commands/json_profiler_commands.hpp).
// - A directory's *.json files are read in name order; none is an Error. --threads has no effect
//   (one file is read on one thread). `report --format html` does not come here: it refuses a
//   JSON trace (commands/html_report.hpp).
#pragma once

#include <string>

#include "commands/command.hpp"

namespace npkit::cli {

bool is_json_input(const std::string& path);

Result<int> run_json_info(const CommonOptions& options, CliContext& context);
Result<int> run_json_trace(const CommonOptions& options, CliContext& context);

}  // namespace npkit::cli
