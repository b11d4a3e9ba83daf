// commands/json_input.hpp — `trace` of a Chrome-trace JSON input (a *.json file or a directory of
// them, as import/run_input.hpp detects it).
// Contract: a trace of NPKit spans (NPKit's generator, our trace of a legacy dump) is written
// again in our scheme (commands/json_span_commands.hpp); a trace of profiler-plugin events is an
// Error that says it is a Chrome trace already.
#pragma once

#include "commands/command.hpp"

namespace npkit::cli {

Result<int> run_json_trace(const CommonOptions& options, CliContext& context);

}  // namespace npkit::cli
