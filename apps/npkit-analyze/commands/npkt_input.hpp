// commands/npkt_input.hpp — .npkt inputs (the profiler plugin's dumps and the event recorders'
// dumps) of the analysis commands.
// Contract: is_npkt_input is true for a regular file that starts with the npkt magic or is named
// *.npkt, and for a directory holding at least one *.npkt file; every other PATH takes the legacy
// NPKit path unchanged. load_npkt_input reads every file (an unreadable or malformed file is an
// Error naming it), keeps the files whose rank --ranks selects (the detached proxy-op file, rank
// -1, only with --ranks all), builds each rank's capture and joins the communicators; reader
// warnings become "npkt reader" warnings, stale KernelCh events (timestamps of another work item)
// a "stale KernelCh timestamps" warning per file, collectives whose valid KernelCh channels never
// ran together "disjoint channel spans" warnings, and each instance lacking a rank an "instance
// missing ranks" warning. A file may hold profiler records, event records, or both (a file of
// event records alone loads like any other). The event records of the selected files are gathered
// in `events` (phases: --phase-map rules, then the names' phase hints, then the built-in rules)
// and paired once into `event_streams`, whose warnings (import/npkt/event_stream_check.hpp) join
// the others. Options that only mean something for legacy dumps (--event-table, --cpu-record-size)
// are an Error; so is --phase-map when no file of PATH holds event records; --threads has no
// effect.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "commands/command.hpp"
#include "import/npkt/communicator_join.hpp"
#include "import/npkt/event_records.hpp"
#include "import/npkt/event_stream_check.hpp"
#include "import/npkt/profiler_capture.hpp"

namespace npkit::cli {

bool is_npkt_input(const std::string& path);

struct LoadedCaptures {
  std::vector<std::unique_ptr<RankCapture>> files;  // selected files, in path order
  std::vector<Communicator> comms;
  EventRecords events;                            // refers into `files`
  std::vector<EventStreamSummary> event_streams;  // every stream of `events`, in reading order
  Diagnostics diagnostics;
};

Result<LoadedCaptures> load_npkt_input(const CommonOptions& options);

// "0123456789abcdef" (16 lower-case hex digits, as in the file names).
std::string comm_hex(std::uint64_t hash);
// "comm 0123456789abcdef (name), 2 of 4 rank(s); rank(s) 2-3 absent".
std::string describe_comm(const Communicator& comm);

// "AllReduce seq 5", "AllReduce seq 0 (occurrence 2)", "Send/Recv 0 -> 1 #3".
std::string describe_instance(const CollectiveInstance& inst);

// Runs the .npkt form of each command (npkt_info.cpp, npkt_bandwidth.cpp, ...).
Result<int> run_npkt_info(const CommonOptions& options, CliContext& context);
Result<int> run_npkt_report(const CommonOptions& options, CliContext& context);
Result<int> run_npkt_bandwidth(const CommonOptions& options, const std::string& coll,
                               CliContext& context);
Result<int> run_npkt_trace(const CommonOptions& options, CliContext& context);

}  // namespace npkit::cli
