// NpktInput::facts: what a report's header says of .npkt files — files, hosts, GPUs, NCCL (and,
// with profiler events, the profiler API, capture settings and records), the event records'
// streams, the GPU-to-host clocks, capture time and the NCCL_* environment (the first file's, and
// which variables differ between files).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "import/npkt/npkt_input.hpp"
#include "util/utc_time.hpp"

namespace npkit {
namespace {

using Files = std::vector<std::unique_ptr<RankCapture>>;

// "a (2 files), b (1 file)" of the distinct non-empty values of metadata `key`, first seen first.
std::string distinct(const Files& files, const char* key) {
  std::vector<std::string> order;
  std::map<std::string, std::size_t> count;
  for (const auto& f : files) {
    const std::string& v = f->dump.meta(key);
    if (v.empty()) continue;
    if (count[v]++ == 0) order.push_back(v);
  }
  std::string out;
  for (const auto& v : order) {
    out += fmt::format("{}{} ({} file{})", out.empty() ? "" : ", ", v, count[v],
                       count[v] == 1 ? "" : "s");
  }
  return out.empty() ? "not recorded" : out;
}

std::string utc(std::int64_t ns) {
  return fmt::format("{}.{:03} UTC", utc_seconds(ns), (ns % 1000000000) / 1000000);
}

std::string clocks(const Files& files) {
  std::map<std::string, std::size_t> methods;
  double worst = -1;
  for (const auto& f : files) {
    ++methods[f->clock.method_name()];
    if (f->clock.uncertainty_ns) worst = std::max(worst, *f->clock.uncertainty_ns);
  }
  std::string out;
  for (const auto& [m, n] : methods) {
    out += fmt::format("{}{} ({} file{})", out.empty() ? "" : ", ", m, n, n == 1 ? "" : "s");
  }
  if (worst >= 0) out += fmt::format("; worst uncertainty ±{:.3g} us", worst / 1e3);
  return out;
}

std::string environment(const Files& files) {
  std::string env;
  std::set<std::string> differ;
  for (const auto& [k, v] : files.front()->dump.metadata) {
    if (k.rfind("env.", 0) != 0) continue;
    env += fmt::format("{}{}={}", env.empty() ? "" : " ", k.substr(4), v);
    for (const auto& f : files) {
      if (f->dump.meta(k) != v) differ.insert(k.substr(4));
    }
  }
  if (env.empty() || differ.empty()) return env;
  return fmt::format("{} — differs between files: {}", env, fmt::join(differ, ", "));
}

}  // namespace

std::vector<InputFact> NpktInput::input_facts() const {
  const Files& files = loaded_.files;
  std::size_t profiler_files = 0;
  std::uint64_t written = 0;
  std::uint64_t dropped = 0;
  std::set<std::uint32_t> apis;
  std::int64_t start = 0;
  std::int64_t end = 0;
  for (const auto& f : files) {
    if (f->events.size() > 0) ++profiler_files;
    written += f->dump.records.size();
    dropped += f->dump.comm.records_dropped;
    apis.insert(f->dump.comm.profiler_api);
    const auto& c = f->dump.comm;
    if (c.capture_start_ns > 0 && (start == 0 || c.capture_start_ns < start)) {
      start = c.capture_start_ns;
    }
    end = std::max(end, c.capture_end_ns);
  }
  std::string api;
  for (auto a : apis) api += fmt::format("{}v{}", api.empty() ? "" : ", ", a);
  std::vector<InputFact> out;
  out.push_back({"format", ".npkt capture"});
  out.push_back({"files", fmt::format("{} ({} with profiler events, {} with event records)",
                                      files.size(), profiler_files, loaded_.events.files.size())});
  out.insert(out.end(), run_facts_.begin(), run_facts_.end());
  out.push_back({"hosts", distinct(files, "hostname")});
  out.push_back({"GPUs", distinct(files, "gpu.name")});
  if (profiler_files > 0) {
    out.push_back({"NCCL", distinct(files, "nccl.version") + "; profiler API " + api});
    out.push_back({"capture", fmt::format("events {}; {} record(s), {} dropped",
                                          distinct(files, "capture.events"), written, dropped)});
  } else {
    out.push_back({"NCCL", distinct(files, "nccl.version")});
  }
  if (!loaded_.events.empty()) {
    out.push_back(
        {"event records", fmt::format("{} stream(s) in {} file(s)", loaded_.events.stream_count(),
                                      loaded_.events.files.size())});
  }
  out.push_back({"GPU clocks", clocks(files)});
  if (start > 0 && end >= start) {
    out.push_back({"capture time", fmt::format("{}, {:.3f} ms", utc(start),
                                               static_cast<double>(end - start) / 1e6)});
  }
  const std::string env = files.empty() ? std::string() : environment(files);
  if (!env.empty()) out.push_back({"environment", env});
  return out;
}

}  // namespace npkit
