// commands/npkt_input.hpp — .npkt inputs of the commands that still read the captures
// themselves (info, report, trace, summarize): load_npkt_input opens PATH as NpktInput
// (import/npkt/npkt_input.hpp) and takes its captures and warnings.
// describe_comm: "comm 0123456789abcdef (name), 2 of 4 rank(s); rank(s) 2-3 absent";
// describe_instance: "AllReduce seq 5", "AllReduce seq 0 (occurrence 2)", "Send/Recv 0 -> 1 #3".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "commands/command.hpp"
#include "import/npkt/communicator_join.hpp"
#include "import/npkt/event_records.hpp"
#include "import/npkt/event_stream_check.hpp"
#include "import/npkt/npkt_input.hpp"
#include "import/npkt/profiler_capture.hpp"

namespace npkit::cli {

struct LoadedCaptures : npkit::LoadedCaptures {
  Diagnostics diagnostics;
};

Result<LoadedCaptures> load_npkt_input(const CommonOptions& options);

// "comm 0123456789abcdef (name), 2 of 4 rank(s); rank(s) 2-3 absent".
std::string describe_comm(const Communicator& comm);

// "AllReduce seq 5", "AllReduce seq 0 (occurrence 2)", "Send/Recv 0 -> 1 #3".
std::string describe_instance(const CollectiveInstance& inst);

// Runs the .npkt form of trace (npkt_trace.cpp).
Result<int> run_npkt_trace(const CommonOptions& options, CliContext& context);

}  // namespace npkit::cli
