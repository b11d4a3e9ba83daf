#include "import/inspector/inspector_input.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "import/plugin_join/plugin_cross_rank.hpp"
#include "import/spanless_options.hpp"
#include "run/rank_filter.hpp"
#include "run/summary/saturating_count.hpp"

namespace npkit {
namespace {

constexpr std::string_view kVerboseTimes =
    "NCCL Inspector verbose records: start = the first channel's KernelCh start event on the "
    "host clock (gettimeofday, µs), end = start + the execution time (the longest channel's GPU "
    "time, whole µs)";
constexpr std::string_view kDurationsOnly =
    "NCCL Inspector records: the execution time of each operation (the longest channel's GPU "
    "time, whole µs); no start times";
constexpr std::string_view kNoStarts =
    "the logs record durations, not when operations ran (written without "
    "NCCL_INSPECTOR_DUMP_VERBOSE=1)";

std::string rank_host(const InspectorRankLog& log) {
  return log.trace.host.empty() ? fmt::format("process {} (rank {})", log.trace.pid, log.trace.rank)
                                : log.trace.host;
}

// What the join made of one communicator, completed from its rank logs.
void complete(RunCommunicator& run, const std::vector<const InspectorRankLog*>& logs) {
  std::uint64_t p2p = 0;
  std::uint64_t host_timed = 0;
  std::uint64_t untimed = 0;
  bool starts = true;
  for (const auto* log : logs) {
    if (run.name.empty()) run.name = log->comm_name;
    starts = starts && log->starts_known;
    p2p += log->p2p_records;
    untimed += log->untimed_records;
    for (const auto& [source, n] : log->timing_sources) {
      if (source != "kernel_gpu" && source != "not recorded") host_timed += n;
    }
  }
  // The Inspector writes the first 14 hex digits of NCCL's hash ("0x" and 14 digits fill its
  // 17-byte field): shown as written, so that it reads as the start of a capture's 16.
  run.id = fmt::format("{:x}", run.hash);
  run.scope = "comm " + run.id;
  run.time_source = std::string(starts ? kVerboseTimes : kDurationsOnly);
  if (!starts) run.no_start_times = std::string(kNoStarts);
  for (auto& rank : run.ranks) {
    for (const auto* log : logs) {
      if (log->trace.rank != rank.rank) continue;
      rank.host = rank_host(*log);
      rank.clock = "the host's clock (gettimeofday, µs)";
      const LostRecords lost = log->lost();
      rank.lost.collectives = sat_add_count(rank.lost.collectives, lost.collectives);
      rank.lost.p2p = sat_add_count(rank.lost.p2p, lost.p2p);
      rank.lost.proxy = sat_add_count(rank.lost.proxy, lost.proxy);
      if (log->proxy) rank.proxy = log->proxy;
    }
  }
  for (auto& inst : run.instances) {
    for (auto& m : inst.members) {
      for (const auto* log : logs) {
        if (log->trace.rank == m.rank && m.order < log->launch_ns.size()) {
          m.launch_ns = log->launch_ns[m.order];
        }
      }
    }
  }
  if (host_timed > 0) {
    run.notes.push_back(fmt::format(
        "{} record(s) were timed on the host (kernel_cpu or collective_cpu: NCCL's GPU timer was "
        "not available), so their times include the host's polling delay",
        host_timed));
  }
  if (untimed > 0) {
    run.notes.push_back(fmt::format("{} record(s) have execution time 0 and are untimed", untimed));
  }
  if (run.collectives_incomplete()) {
    run.notes.push_back(
        "the Inspector lost collective records of this communicator (its rings were full, or the "
        "log was cut): any instance may lack ranks, and operations lost on every rank are "
        "missing");
  }
  if (p2p > 0) {
    run.notes.push_back(fmt::format(
        "{} Send/Recv record(s) (p2p_perf) are not joined: their p2p_sn counts every Send and "
        "Recv of a rank, so it does not match across ranks",
        p2p));
  }
  run.alltoall_unavailable =
      "NCCL Inspector logs record an AlltoAll as its Send/Recv operations (p2p_perf), which are "
      "not joined";
}

}  // namespace

Result<std::unique_ptr<InspectorInput>> InspectorInput::open(const ImportOptions& o) {
  NPKIT_TRY(refuse_span_options(o, "NCCL Inspector logs, which have no spans"));
  NPKIT_ASSIGN(auto filter, RankFilter::parse(o.ranks));
  auto input = std::make_unique<InspectorInput>();
  input->path_ = o.path;
  NPKIT_ASSIGN(auto files, inspector_log_files(o.path, input->diagnostics_));
  NPKIT_ASSIGN(auto logs, read_inspector_logs(files, input->diagnostics_));
  std::set<std::int32_t> seen;
  input->logs_.files = std::move(logs.files);
  for (auto& log : logs.ranks) {
    seen.insert(log.trace.rank);
    if (filter.contains(static_cast<std::uint32_t>(log.trace.rank))) {
      input->logs_.ranks.push_back(std::move(log));
    }
  }
  if (input->logs_.ranks.empty()) return no_such_ranks(o, seen);
  std::vector<PluginRankTrace> traces;
  for (const auto& log : input->logs_.ranks) traces.push_back(log.trace);
  // The Inspector leaves out, by design and on every rank alike, operations below
  // NCCL_INSPECTOR_DUMP_MIN_SIZE_BYTES and those without GPU timing; what one rank lacks of what
  // others logged was lost (its ring overflowed, or its log was cut).
  const SeqGapCauses causes{
      "lost: the Inspector's ring overflowed, or the log was cut",
      "not logged, or before the log began",
      "not logged by design: below NCCL_INSPECTOR_DUMP_MIN_SIZE_BYTES (8192 B by default), or "
      "without GPU timing (NCCL_INSPECTOR_REQUIRE_KERNEL_TIMING)"};
  auto joined = join_plugin_traces(traces, std::string(kVerboseTimes), input->diagnostics_, causes);
  for (auto& comm : joined) {
    std::vector<const InspectorRankLog*> logs_of;
    for (const auto& log : input->logs_.ranks) {
      if (log.trace.comm_hash == comm.comm_hash) logs_of.push_back(&log);
    }
    complete(comm.run, logs_of);
    input->comms_.push_back(std::move(comm.run));
  }
  input->phases_ = assign_phases(PhaseMap{}, EventTable{});
  return input;
}

std::vector<InputFact> InspectorInput::input_facts() const {
  std::vector<InputFact> out;
  out.push_back({"format", "NCCL Inspector logs (JSON lines)"});
  std::set<std::string> versions;
  std::uint64_t records = 0;
  for (const auto& f : logs_.files) {
    versions.insert(f.versions.begin(), f.versions.end());
    records += f.records;
  }
  out.push_back({"version", fmt::format("{}", fmt::join(versions, ", "))});
  std::uint64_t colls = 0;
  std::uint64_t p2p = 0;
  std::uint64_t verbose = 0;
  std::set<std::string> hosts;
  for (const auto& r : logs_.ranks) {
    colls += r.trace.colls.size();
    p2p += r.p2p_records;
    verbose += r.verbose_records;
    if (!r.trace.host.empty()) hosts.insert(r.trace.host);
  }
  out.push_back({"logs", fmt::format("{} file(s), {} record(s); selected ranks: {} collective, {} "
                                     "Send/Recv, {} verbose (with event traces)",
                                     logs_.files.size(), records, colls, p2p, verbose)});
  out.push_back({"clock",
                 "each host's gettimeofday, in whole µs (verbose records' event traces); "
                 "execution times from NCCL's GPU timer, whole µs"});
  out.push_back({"hosts", hosts.empty() ? "not recorded in the logs"
                                        : fmt::format("{}", fmt::join(hosts, ", "))});
  return out;
}

Result<Run> InspectorInput::read_input(const std::vector<SpanSink*>&) {
  Run run;
  run.path = path_;
  run.kind = InputKind::kInspector;
  run.config.formats.insert("nccl-inspector");
  run.config.files = logs_.files.size();
  for (const auto& f : logs_.files) {
    run.config.capture["inspector.format_version"].insert(f.versions.begin(), f.versions.end());
  }
  for (const auto& r : logs_.ranks) {
    if (!r.trace.host.empty()) run.config.hosts.insert(r.trace.host);
  }
  run.comms = comms_;
  return run;
}

}  // namespace npkit
