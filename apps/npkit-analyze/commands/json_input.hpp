// commands/json_input.hpp — Chrome trace JSON inputs of the analysis commands: traces users already
// have, written by NPKit's generator, by NCCL's example profiler plugin, or by our own `trace`.
// Contract:
// - is_json_input is true for a regular file named *.json and for a directory that holds *.json
//   files and no NPKit event files (a legacy dump directory with a trace beside its records stays
//   a legacy dump). Every other PATH takes its usual route.
// - The producer decides the shape (ingest/chrome_json/trace_producer.hpp):
//   * NPKit's generator and our traces of legacy dumps become spans, the binary reader's for the
//     same dump (ingest/chrome_json/json_span_source.hpp), so `report`, `bandwidth`, `info` and
//     `trace` compute exactly what they compute for a dump directory: the phase split and its
//     renderings are the legacy report's (commands/command.hpp), bandwidth uses the same sinks,
//     fed one sink per track (JsonSinkDemux) because a JSON trace interleaves its tracks.
//   * NCCL's example profiler plugin and our traces of .npkt dumps become the profiler model
//     (ingest/chrome_json/plugin_json_*.hpp): per-rank captures joined into communicators, with
//     the per-process clocks aligned on matched collective ends and SeqNum gaps reported.
// - --event-table picks the table names start from (report rows follow its order); --phase-map
//   works as for dumps; --cpu-record-size is an Error (a trace has no records); --threads has no
//   effect (one file is read on one thread).
#pragma once

#include <string>

#include "commands/command.hpp"

namespace npkit::cli {

bool is_json_input(const std::string& path);

Result<int> run_json_info(const CommonOptions& options, CliContext& context);
Result<int> run_json_report(const CommonOptions& options, CliContext& context);
Result<int> run_json_bandwidth(const CommonOptions& options, const std::string& coll,
                               const std::string& view, bool per_rank, CliContext& context);
Result<int> run_json_trace(const CommonOptions& options, CliContext& context);

}  // namespace npkit::cli
