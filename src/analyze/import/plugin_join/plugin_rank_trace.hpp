// import/plugin_join/plugin_rank_trace.hpp — the collectives one process recorded on one
// communicator, as the readers of profiler-plugin output (Chrome traces of NCCL's example plugin
// or of our .npkt dumps, NCCL Inspector logs) hand them to the join across ranks
// (import/plugin_join/plugin_cross_rank.hpp).
// Contract: plain data. Names (function, data type, algorithm, protocol) are interned per trace
// in `names` (id 0 = none), so a collective holds no heap object; colls are in start order; a
// collective that never ended has end_ns = kNeverEnded.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npkit {

inline constexpr std::int64_t kNeverEnded = INT64_MIN;

struct PluginColl {
  std::uint64_t seq = 0;
  std::uint64_t count = 0;
  std::uint16_t func = 0;  // PluginRankTrace::names
  std::uint16_t datatype = 0;
  std::uint16_t algo = 0;
  std::uint16_t proto = 0;
  std::uint32_t channels = 0;
  std::uint64_t bytes = 0;  // the rank's message bytes, where no data type is named (else 0)
  std::int64_t start_ns = 0;
  std::int64_t end_ns = kNeverEnded;
};

// One process's collectives on one communicator.
struct PluginRankTrace {
  std::string path;
  std::string producer;  // what wrote the file, in words, where the reader tells them apart
  std::uint64_t comm_hash = 0;
  std::int32_t rank = -1;
  std::int32_t nranks = 0;  // the communicator's size where the trace records it, else 0
  std::int64_t pid = 0;
  std::string host;                       // the host the trace names; "" when unknown
  std::vector<std::string> names = {""};  // interned strings; 0 = none
  std::vector<PluginColl> colls;          // in start order
  std::map<std::string, std::uint64_t> events_by_category;  // events read but not kept
  std::uint64_t never_ended = 0;

  const std::string& name(std::uint16_t id) const { return names[id]; }
};

}  // namespace npkit
