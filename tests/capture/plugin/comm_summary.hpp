// comm_summary.hpp — what a communicator's dump must show, computed twice and independently: from
// a recording of NCCL's calls (what the plugin was fed) and from the dump the plugin wrote.
//
// Contract:
// - summarize_recording() attributes every start to its `ctx` and every state/stop to the ctx of
//   its handle's start; the key is the communicator's commId. A communicator without a finalize
//   call is expected to end with kEndProcessExit (written by npkitProfilerFlush).
// - summarize_dump() reads only the dump (its records, strings and Threads section).
// - `threads` holds recorded thread ids (recording) or OS thread ids (dump); the caller maps one
//   onto the other.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "capture/plugin/recorded_calls.hpp"
#include "import/npkt/npkt_dump.hpp"

namespace npkit::test {

struct CollRow {
  uint64_t seq = 0;
  std::string func;
  uint64_t count = 0;
  std::string algo;
  std::string proto;
  int n_channels = 0;
  auto operator<=>(const CollRow&) const = default;
};

struct CommSummary {
  uint64_t comm_hash = 0;
  int rank = 0;
  int nranks = 0;
  int nnodes = 0;
  uint32_t end_reason = 0;
  // (event type bit index, record kind) -> records
  std::map<std::pair<int, int>, uint64_t> records_by_type_and_kind;
  // (event type bit index, state number) -> state records
  std::map<std::pair<int, uint32_t>, uint64_t> states_by_type_and_number;
  std::vector<CollRow> colls;                                       // Coll starts in call order
  std::map<int, std::vector<uint64_t>> kernel_start_ns_by_channel;  // KernelCh start pTimer
  std::map<int, std::vector<uint64_t>> kernel_stop_ns_by_channel;   // KernelCh state 22 pTimer
  std::set<int64_t> threads;  // threads that made a start, state or stop call
};

std::map<uint64_t, CommSummary> summarize_recording(const Recording& recording);

CommSummary summarize_dump(const NpktDump& dump);

}  // namespace npkit::test
