// commands/json_profiler_commands.hpp — info, report and bandwidth of Chrome-trace JSON holding
// profiler-plugin events: NCCL's example profiler plugin and our `trace` of .npkt dumps.
// Contract: FILES are the trace's JSON files, picked by commands/json_input.hpp. They become the
// profiler model (ingest/chrome_json/plugin_json_*.hpp): per-rank captures joined into
// communicators, the per-process clocks aligned on matched collective ends, SeqNum gaps reported;
// report adds the cross-rank analysis per communicator. --event-table,
// --phase-map and --cpu-record-size are Errors (they apply to NPKit events); --ranks must select a
// rank the trace holds. trace is an Error: the files are Chrome traces already.
#pragma once

#include <string>
#include <vector>

#include "commands/command.hpp"

namespace npkit::cli {

Result<int> run_json_profiler_info(const CommonOptions& options,
                                   const std::vector<std::string>& files, CliContext& context);
Result<int> run_json_profiler_trace(const CommonOptions& options,
                                    const std::vector<std::string>& files, CliContext& context);

}  // namespace npkit::cli
