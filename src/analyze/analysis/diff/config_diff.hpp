// analysis/diff/config_diff.hpp — how two runs' configurations differ.
// Contract:
// - Compared, in this order: NCCL version, each NCCL_*/NPKIT_* variable (union of both runs'
//   names, by name; a variable a run does not set reads "(unset)"), GPUs, ranks per
//   communicator size, hosts, capture settings, input formats. Value sets print comma-separated;
//   an empty set prints "(unknown)".
// - cause_candidate: whether the difference can explain a performance change. Not candidates:
//   hosts (CI machines change names), and variables whose name ends in _FILE, _DIR or _PATH or
//   whose every value holds a '/' (paths: dump directories, log files, the plugin's location),
//   and NCCL_DEBUG* variables (what NCCL logs, not what it does).
#pragma once

#include <string>
#include <vector>

#include "run/summary/run_summary.hpp"

namespace npkit {

struct ConfigDifference {
  std::string what;  // "NCCL_PROTO", "NCCL version", "GPUs", ...
  std::string base;
  std::string cand;
  bool cause_candidate = true;

  // "NCCL_PROTO: LL → Simple"
  std::string describe() const;
};

std::vector<ConfigDifference> config_differences(const RunConfig& base, const RunConfig& cand);

// "LL, Simple" / "(unknown)"
std::string join_values(const std::set<std::string>& values);

}  // namespace npkit
