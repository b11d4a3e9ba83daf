#include "analysis/diff/config_diff.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

namespace npkit {
namespace {

bool all_paths(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const auto* set : {&a, &b}) {
    for (const auto& v : *set) {
      if (v.find('/') == std::string::npos) return false;
    }
  }
  return true;
}

// One entry per communicator size: "2 ranks", "8 ranks (x2)" for two communicators of 8.
std::set<std::string> comm_sizes(const RunConfig& c) {
  std::map<std::int32_t, int> sizes;
  for (const auto& [hash, comm] : c.communicators) ++sizes[comm.nranks];
  std::set<std::string> out;
  for (const auto& [n, count] : sizes) {
    out.insert(count == 1 ? fmt::format("{} ranks", n) : fmt::format("{} ranks (x{})", n, count));
  }
  return out;
}

void compare(std::vector<ConfigDifference>& out, std::string what, const std::set<std::string>& a,
             const std::set<std::string>& b, bool cause) {
  if (a == b) return;
  out.push_back({std::move(what), join_values(a), join_values(b), cause});
}

}  // namespace

std::string join_values(const std::set<std::string>& values) {
  if (values.empty()) return "(unknown)";
  return fmt::format("{}", fmt::join(values, ", "));
}

std::string ConfigDifference::describe() const {
  return fmt::format("{}: {} → {}", what, base, cand);
}

std::vector<ConfigDifference> config_differences(const RunConfig& base, const RunConfig& cand) {
  std::vector<ConfigDifference> out;
  compare(out, "NCCL version", base.nccl_versions, cand.nccl_versions, true);
  std::set<std::string> names;
  for (const auto& [k, v] : base.env) names.insert(k);
  for (const auto& [k, v] : cand.env) names.insert(k);
  static const std::set<std::string> kUnset = {"(unset)"};
  for (const auto& name : names) {
    const auto b = base.env.find(name);
    const auto c = cand.env.find(name);
    const std::set<std::string>& bv = b == base.env.end() ? kUnset : b->second;
    const std::set<std::string>& cv = c == cand.env.end() ? kUnset : c->second;
    const bool path = name.ends_with("_FILE") || name.ends_with("_DIR") ||
                      name.ends_with("_PATH") || all_paths(bv, cv);
    // NCCL_DEBUG, NCCL_DEBUG_SUBSYS, NCCL_DEBUG_FILE, ...: what NCCL logs, not what it does.
    const bool logging = name.starts_with("NCCL_DEBUG");
    compare(out, name, bv, cv, !path && !logging);
  }
  compare(out, "GPUs", base.gpus, cand.gpus, true);
  compare(out, "communicators", comm_sizes(base), comm_sizes(cand), true);
  compare(out, "hosts", base.hosts, cand.hosts, false);
  std::set<std::string> keys;
  for (const auto& [k, v] : base.capture) keys.insert(k);
  for (const auto& [k, v] : cand.capture) keys.insert(k);
  static const std::set<std::string> kNone;
  for (const auto& key : keys) {
    const auto b = base.capture.find(key);
    const auto c = cand.capture.find(key);
    compare(out, key, b == base.capture.end() ? kNone : b->second,
            c == cand.capture.end() ? kNone : c->second, true);
  }
  compare(out, "input format", base.formats, cand.formats, true);
  return out;
}

}  // namespace npkit
