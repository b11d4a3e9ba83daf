#include "import/npkt/npkt_runs.hpp"

#include <fmt/format.h>

#include "npkit/format.hpp"

namespace npkit {
namespace {

// "run 1: ...; run 2: ..." of the first kRunsNamed runs, then how many more.
std::string named_runs(const std::vector<CaptureRun>& runs) {
  std::string out;
  for (std::size_t i = 0; i < runs.size() && i < kRunsNamed; ++i) {
    out += fmt::format("{}run {}: {}", i == 0 ? "" : "; ", i + 1, describe_capture_run(runs[i]));
  }
  if (runs.size() > kRunsNamed) out += fmt::format("; and {} more", runs.size() - kRunsNamed);
  return out;
}

}  // namespace

CaptureFileFacts capture_file_facts(const NpktDump& dump) {
  CaptureFileFacts f;
  f.comm_hash = dump.comm.comm_hash;
  f.rank = dump.comm.rank;
  f.host = dump.meta("hostname");
  f.times_known =
      dump.comm.host_clock == format::kHostClockRealtime && dump.comm.capture_start_ns > 0;
  f.start_ns = dump.comm.capture_start_ns;
  f.end_ns = dump.comm.capture_end_ns;
  const std::string& nccl = dump.meta("nccl.version");
  const std::string& plugin = dump.meta("capture.plugin_version");
  f.build = "NCCL " + (nccl.empty() ? std::string("version not recorded") : nccl);
  if (!plugin.empty()) f.build += ", plugin " + plugin;
  const std::string& events = dump.meta("capture.events");
  f.settings = "events " + (events.empty() ? std::string("not recorded") : events);
  const std::string& sample = dump.meta("capture.sample");
  if (!sample.empty()) f.settings += ", NPKIT_SAMPLE " + sample;
  return f;
}

Result<RunChoice> choose_run(const std::string& path, const std::vector<CaptureFileFacts>& files,
                             std::uint32_t run, bool refuse_mixed, Diagnostics& diagnostics) {
  RunChoice choice;
  choice.runs = group_capture_runs(files);
  const std::size_t count = choice.runs.size();
  if (count <= 1) {
    if (run > 1) {
      return Error{
          fmt::format("--run {}: {} holds the files of one run (--run 1 reads it)", run, path)};
    }
    choice.read.assign(files.size(), true);
    return choice;
  }
  if (run > count) {
    return Error{fmt::format("--run {}: {} holds the files of {} runs, numbered by start time: {}",
                             run, path, count, named_runs(choice.runs))};
  }
  if (run == 0 && refuse_mixed) {
    return Error{fmt::format(
        "{} holds the files of {} runs ({}): one result of them pooled would mix runs; read "
        "one with --run N (numbered by start time), or pool them with --pool-runs",
        path, count, named_runs(choice.runs))};
  }
  if (run == 0) {
    diagnostics.warn("mixed runs",
                     fmt::format("{} holds the files of {} runs, read together as one: {}; read "
                                 "one with --run N (numbered by start time)",
                                 path, count, named_runs(choice.runs)));
    choice.read.assign(files.size(), true);
    return choice;
  }
  choice.run = run;
  choice.read.assign(files.size(), false);
  for (std::size_t i : choice.runs[run - 1].files) choice.read[i] = true;
  return choice;
}

std::vector<InputFact> run_facts(const RunChoice& choice) {
  const std::size_t count = choice.runs.size();
  if (count <= 1) return {};
  std::vector<InputFact> out;
  std::string runs = choice.run == 0
                         ? fmt::format("{}, read together (--run N reads one)", count)
                         : fmt::format("{}; run {} read (--run {})", count, choice.run, choice.run);
  if (count > kRunsNamed) runs += fmt::format("; the first {} named", kRunsNamed);
  out.push_back({"runs", runs});
  for (std::size_t i = 0; i < count && i < kRunsNamed; ++i) {
    out.push_back({fmt::format("run {}", i + 1), describe_capture_run(choice.runs[i])});
  }
  return out;
}

}  // namespace npkit
