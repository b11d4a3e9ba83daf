// commands/json_span_commands.hpp — info, report, bandwidth and trace of Chrome-trace JSON whose
// events are NPKit spans: traces written by NPKit's generator and our `trace` of legacy dumps.
// Contract: FILES are the trace's JSON files, picked by commands/json_input.hpp. The events become
// the binary reader's spans for the same dump (import/chrome_json/json_span_source.hpp), so each
// command computes exactly what it computes for a dump directory: the phase split and its
// renderings are the legacy report's (commands/command.hpp); bandwidth uses the same sinks, one per
// track (JsonSinkDemux) because a JSON trace interleaves its tracks. --event-table picks the table
// names start from, --phase-map works as for dumps, --cpu-record-size is an Error (a trace has no
// records) and --ranks must select a rank the trace holds.
#pragma once

#include <string>
#include <vector>

#include "commands/command.hpp"

namespace npkit::cli {

Result<int> run_json_span_trace(const CommonOptions& options, const std::vector<std::string>& files,
                                CliContext& context);

}  // namespace npkit::cli
