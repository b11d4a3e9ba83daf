#include "run/capture_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>

#include "util/rank_ranges.hpp"
#include "util/utc_time.hpp"

namespace npkit {
namespace {

// The files of one communicator, with what they say together.
struct CommFiles {
  std::uint64_t hash = 0;
  std::vector<std::size_t> files;
  std::set<std::string> builds;
  std::set<std::string> settings;
  bool times_known = false;
  std::int64_t start_ns = std::numeric_limits<std::int64_t>::max();
  std::int64_t end_ns = std::numeric_limits<std::int64_t>::min();
  std::set<std::string> hosts;
};

std::string joined(const std::set<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : " / ") + v;
  return out;
}

std::vector<CommFiles> by_communicator(const std::vector<CaptureFileFacts>& files) {
  std::map<std::uint64_t, std::size_t> index;
  std::vector<CommFiles> comms;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const CaptureFileFacts& f = files[i];
    const auto [it, fresh] = index.try_emplace(f.comm_hash, comms.size());
    if (fresh) {
      comms.emplace_back();
      comms.back().hash = f.comm_hash;
    }
    CommFiles& c = comms[it->second];
    c.files.push_back(i);
    c.builds.insert(f.build);
    c.settings.insert(f.settings);
    if (!f.host.empty()) c.hosts.insert(f.host);
    if (f.times_known) {
      c.times_known = true;
      c.start_ns = std::min(c.start_ns, f.start_ns);
      c.end_ns = std::max({c.end_ns, f.start_ns, f.end_ns});
    }
  }
  return comms;
}

void add_to_run(CaptureRun& run, const CommFiles& comm,
                const std::vector<CaptureFileFacts>& files) {
  run.files.insert(run.files.end(), comm.files.begin(), comm.files.end());
  auto& ranks = run.comms[comm.hash];
  for (std::size_t i : comm.files) ranks.insert(files[i].rank);
  run.hosts.insert(comm.hosts.begin(), comm.hosts.end());
  if (!comm.times_known) return;
  run.start_ns = run.times_known ? std::min(run.start_ns, comm.start_ns) : comm.start_ns;
  run.end_ns = run.times_known ? std::max(run.end_ns, comm.end_ns) : comm.end_ns;
  run.times_known = true;
}

// The runs of communicators that share one build and settings (the contract's time rule).
void split_by_time(std::vector<const CommFiles*> comms, const std::vector<CaptureFileFacts>& files,
                   std::vector<CaptureRun>& runs) {
  const bool all_timed =
      std::all_of(comms.begin(), comms.end(), [](const CommFiles* c) { return c->times_known; });
  if (!all_timed) {
    CaptureRun run;
    for (const CommFiles* c : comms) add_to_run(run, *c, files);
    runs.push_back(std::move(run));
    return;
  }
  std::set<std::string> hosts;
  for (const CommFiles* c : comms) hosts.insert(c->hosts.begin(), c->hosts.end());
  const std::int64_t tolerance = hosts.size() > 1 ? kHostClockTolerance : 0;
  std::sort(comms.begin(), comms.end(), [](const CommFiles* a, const CommFiles* b) {
    return std::tie(a->start_ns, a->files.front()) < std::tie(b->start_ns, b->files.front());
  });
  std::optional<CaptureRun> open;
  for (const CommFiles* c : comms) {
    if (open && c->start_ns - tolerance > open->end_ns) {
      runs.push_back(std::move(*open));
      open.reset();
    }
    if (!open) open.emplace();
    add_to_run(*open, *c, files);
  }
  if (open) runs.push_back(std::move(*open));
}

}  // namespace

std::vector<CaptureRun> group_capture_runs(const std::vector<CaptureFileFacts>& files) {
  const std::vector<CommFiles> comms = by_communicator(files);
  std::map<std::pair<std::string, std::string>, std::vector<const CommFiles*>> by_setup;
  for (const CommFiles& c : comms) by_setup[{joined(c.builds), joined(c.settings)}].push_back(&c);
  std::vector<CaptureRun> runs;
  for (const auto& [setup, members] : by_setup) {
    const std::size_t first = runs.size();
    split_by_time(members, files, runs);
    for (std::size_t i = first; i < runs.size(); ++i) {
      runs[i].build = setup.first;
      runs[i].settings = setup.second;
      std::sort(runs[i].files.begin(), runs[i].files.end());
    }
  }
  std::sort(runs.begin(), runs.end(), [](const CaptureRun& a, const CaptureRun& b) {
    return std::tuple(!a.times_known, a.times_known ? a.start_ns : 0, a.files.front()) <
           std::tuple(!b.times_known, b.times_known ? b.start_ns : 0, b.files.front());
  });
  return runs;
}

std::string describe_capture_run(const CaptureRun& run) {
  constexpr std::size_t kCommsNamed = 3;
  std::string comms;
  std::size_t named = 0;
  for (const auto& [hash, ranks] : run.comms) {
    if (named++ == kCommsNamed) break;
    const std::vector<std::int32_t> list(ranks.begin(), ranks.end());
    comms += fmt::format("{}comm {:016x} rank{} {}", comms.empty() ? "" : ", ", hash,
                         list.size() == 1 ? "" : "s", rank_ranges(list));
  }
  if (run.comms.size() > kCommsNamed) {
    comms += fmt::format(" and {} more comm(s)", run.comms.size() - kCommsNamed);
  }
  std::string hosts;
  for (const auto& h : run.hosts) hosts += (hosts.empty() ? "" : ",") + h;
  std::string text = fmt::format("{} file(s): {}; host {}", run.files.size(), comms,
                                 hosts.empty() ? "unknown" : hosts);
  if (run.times_known) {
    const std::string end = utc_seconds(run.end_ns);
    const std::string start = utc_seconds(run.start_ns);
    // The end's date only where it differs from the start's.
    const bool same_day = start.compare(0, 10, end, 0, 10) == 0;
    text += fmt::format("; {} to {} UTC", start, same_day ? end.substr(11) : end);
  } else {
    text += "; capture times unknown";
  }
  if (!run.build.empty()) text += "; " + run.build;
  if (!run.settings.empty()) text += "; " + run.settings;
  return text;
}

}  // namespace npkit
