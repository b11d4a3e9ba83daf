// run/run_config.hpp — how a run was set up, as value sets that merge across files and nodes:
// input formats, NCCL versions, NCCL_* / NPKIT_* variables, GPUs, hosts, capture settings and the
// ranks seen per communicator. Part of the run model (Run::config) and of its summary.
// Contract: a set holds each distinct value once; an input that does not record a field leaves
// it empty. Communicators are keyed by their hash in 16 hex digits, "legacy" for the one of an
// input without communicator hashes (legacy dumps, event records, Chrome traces of spans).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace npkit {

struct CommunicatorRanks {
  std::int32_t nranks = 0;
  std::set<std::int32_t> ranks;
  friend bool operator==(const CommunicatorRanks&, const CommunicatorRanks&) = default;
};

struct RunConfig {
  std::set<std::string> formats;  // "npkt", "npkit-legacy", "chrome-trace"
  std::set<std::string> nccl_versions;
  std::map<std::string, std::set<std::string>> env;  // NCCL_* and NPKIT_* variables
  std::set<std::string> env_files;  // environment files env was completed from (ENV.txt, --env)
  std::set<std::string> gpus;
  std::set<std::string> hosts;
  // capture.events, capture.buffer_size_mb, capture.plugin_version, profiler_api
  std::map<std::string, std::set<std::string>> capture;
  std::map<std::string, CommunicatorRanks> communicators;  // by communicator_key()
  std::uint64_t files = 0;

  std::uint64_t rank_count() const;  // (communicator, rank) pairs
  friend bool operator==(const RunConfig&, const RunConfig&) = default;
};

// The communicator key of `hash` (see above).
std::string communicator_key(std::uint64_t hash);

}  // namespace npkit
