#include "import/npkt/npkt_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "import/join_gaps.hpp"
#include "import/npkt/operation_progress.hpp"
#include "import/npkt/profiler_alltoall.hpp"
#include "import/npkt/proxy_step_breakdown.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"
#include "util/process_probe.hpp"

namespace npkit {
namespace {

std::string instance_label(const CollectiveInstance& inst) {
  if (inst.is_pair()) {
    return fmt::format("Send/Recv {} -> {} #{}", inst.sender, inst.receiver, inst.seq);
  }
  std::string s = fmt::format("{} seq {}", inst.func_name, inst.seq);
  if (inst.copy_engine) s += " (copy engine)";
  if (inst.occurrence > 0) s += fmt::format(" (occurrence {})", inst.occurrence);
  return s;
}

const SeqGapCauses kSeqGapCauses{"records dropped, or operations NCCL did not report",
                                 "records dropped, or operations NCCL did not report"};

std::vector<MemberOperation> member_operations(const CollectiveInstance& inst) {
  std::vector<MemberOperation> out;
  for (const auto& m : inst.members) {
    const ProfilerCollective& op = *m.op;
    out.push_back({m.rank, op.count, op.bytes, op.datatype, op.algo, op.proto});
  }
  return out;
}

// Per function, the seq numbers of the rank's collectives. CE sequence numbers also count the CE
// syncs: their jumps are no missing operation. Derived AlltoAll operations have no seq of their
// own.
SeqsByFunc collective_seqs(const RankCapture& r) {
  SeqsByFunc seqs;
  for (const auto& op : r.collectives) {
    if (op.event == kNoEvent || is_p2p(op.func) || op.copy_engine) continue;
    seqs[op.func_name].push_back(op.seq);
  }
  return seqs;
}

// Each operation's index in its file's stream of operations, in host start order.
std::map<const ProfilerCollective*, std::uint32_t> stream_order(const Communicator& comm) {
  std::map<const ProfilerCollective*, std::uint32_t> order;
  for (const RankCapture* r : comm.ranks) {
    std::vector<const ProfilerCollective*> stream;
    for (const auto& op : r->collectives) {
      if (!op.in_alltoall) stream.push_back(&op);
    }
    for (const auto& op : r->alltoall.alltoalls) stream.push_back(&op);
    std::stable_sort(stream.begin(), stream.end(), [](const auto* a, const auto* b) {
      return a->host_start_ns < b->host_start_ns;
    });
    for (std::size_t i = 0; i < stream.size(); ++i) {
      order[stream[i]] = static_cast<std::uint32_t>(i);
    }
  }
  return order;
}

RunRank run_rank(const RankCapture& r) {
  RunRank out;
  out.rank = r.rank();
  out.host = r.dump.meta("hostname");
  out.gpu = r.dump.meta("gpu.uuid");
  out.clock = r.clock.method_name();
  out.clock_uncertainty_ns = r.clock.uncertainty_ns;
  if (r.dump.comm.capture_end_ns > 0) out.capture_end_ns = r.dump.comm.capture_end_ns;
  out.pid = r.dump.comm.pid;
  if (r.dump.is_live()) {
    out.end = CaptureEnd::kLastRecord;
    // Whether the job still runs can be seen only on the machine it runs on.
    if (!out.host.empty() && out.host == this_host_name()) {
      out.process_running = process_running_since(out.pid, r.dump.comm.capture_start_ns);
      out.read_ns = realtime_now_ns();
    }
  }
  ProxyStepBreakdown steps = proxy_step_breakdown(r);
  if (steps.steps > 0) out.proxy = std::move(steps);
  out.alltoall_peers = alltoall_peer_traffic(r.collectives, r.rank());
  return out;
}

RunInstance run_instance(RunCommunicator& run, const Communicator& comm,
                         const CollectiveInstance& inst,
                         const std::map<const ProfilerCollective*, std::uint32_t>& order) {
  const ProfilerCollective& first = *inst.members.front().op;
  RunInstance out;
  out.func = std::string(inst.func_name);
  out.label = instance_label(inst);
  out.seq = inst.seq;
  out.occurrence = inst.occurrence;
  out.sender = inst.sender;
  out.receiver = inst.receiver;
  out.bytes = first.bytes;
  out.count = nccl_tests_count(inst.is_pair() ? NcclFunc::kSendRecv : inst.func, first.bytes,
                               nccl_datatype_size(first.type), comm.nranks);
  out.type = std::string(first.type);
  if (!inst.is_pair()) {
    out.algo = std::string(first.algo);
    out.proto = std::string(first.proto);
  }
  const std::vector<MemberOperation> operations = member_operations(inst);
  out.agree = operations_agree(operations);
  out.missing_ranks = inst.missing_ranks;
  for (const auto& m : inst.members) {
    const ProfilerCollective& op = *m.op;
    RunMember member;
    member.rank = m.rank;
    member.timed = op.has_gpu_span;
    member.stale = op.has_stale_channel();
    member.start_ns = op.gpu_start_ns;
    member.end_ns = op.gpu_stop_ns;
    member.launch_ns = op.api_start_ns;
    member.order = order.at(&op);
    member.group = op.group_api == kNoEvent ? 0 : op.group_api + 1;
    member.channels = op.n_channels;
    member.kernel_phases = op.kernel_phases;
    member.tag = op.user_tag;
    out.members.push_back(member);
  }
  out.tag = out.members.empty() ? 0 : out.members.front().tag;
  if (!out.agree && !inst.is_pair()) add_count_mismatch(run, out, operations);
  return out;
}

bool captures_kernel_channels(const RankCapture& r) {
  return (r.dump.comm.event_mask & (std::uint64_t{1} << format::kTypeKernelCh)) != 0;
}

std::string state_name(const RankCapture& r, std::uint32_t state) {
  for (const auto& [number, name] : r.dump.state_names) {
    if (number == state) return name;
  }
  return fmt::format("state {}", state);
}

bool captures_operations(const RankCapture& r) {
  constexpr std::uint64_t kOperations =
      (std::uint64_t{1} << format::kTypeColl) | (std::uint64_t{1} << format::kTypeP2p);
  return (r.dump.comm.event_mask & kOperations) == kOperations;
}

// Whether the rank's capture sampled GPU timing (NPKIT_SAMPLE) and left `op` out of the sample.
bool left_out_of_sample(const RankCapture& r, const ProfilerCollective& op) {
  return !r.dump.meta("capture.sample").empty() && op.kernel_channels == 0;
}

// RunCommunicator::sample and each member's not_sampled.
void add_sampling(const Communicator& comm, RunCommunicator& out) {
  std::map<std::int32_t, const RankCapture*> by_rank;
  std::map<std::string, std::vector<std::int32_t>> ranks_of_setting;
  for (const RankCapture* r : comm.ranks) {
    by_rank[r->rank()] = r;
    const std::string setting = r->dump.meta("capture.sample");
    ranks_of_setting[setting.empty() ? "off" : setting].push_back(r->rank());
  }
  if (ranks_of_setting.size() == 1) {
    out.sample = ranks_of_setting.begin()->first == "off" ? "" : ranks_of_setting.begin()->first;
  } else {
    for (const auto& [setting, ranks] : ranks_of_setting) {
      out.sample += fmt::format("{}{} (rank {})", out.sample.empty() ? "" : ", ", setting,
                                fmt::join(ranks, ", "));
    }
  }
  if (out.sample.empty()) return;
  for (std::size_t i = 0; i < comm.instances.size(); ++i) {
    const CollectiveInstance& inst = comm.instances[i];
    for (std::size_t k = 0; k < inst.members.size(); ++k) {
      const auto capture = by_rank.find(inst.members[k].rank);
      if (capture == by_rank.end()) continue;
      RunMember& member = out.instances[i].members[k];
      member.not_sampled =
          !member.timed && left_out_of_sample(*capture->second, *inst.members[k].op);
    }
  }
}

// Each member's progress (import/npkt/operation_progress.hpp); known when every rank's capture
// recorded Coll and P2p events (kCompletionUnknown where it lacks KernelCh events, and for an
// operation a sampling capture left out: no KernelCh events by design).
void add_progress(const Communicator& comm, RunCommunicator& out) {
  out.progress_known = !comm.ranks.empty() &&
                       std::all_of(comm.ranks.begin(), comm.ranks.end(), [](const RankCapture* r) {
                         return captures_operations(*r) || captures_kernel_channels(*r);
                       });
  std::map<std::int32_t, const RankCapture*> by_rank;
  for (const RankCapture* r : comm.ranks) by_rank[r->rank()] = r;
  for (std::size_t i = 0; i < comm.instances.size(); ++i) {
    const CollectiveInstance& inst = comm.instances[i];
    for (std::size_t k = 0; k < inst.members.size(); ++k) {
      const InstanceMember& m = inst.members[k];
      const auto capture = by_rank.find(m.rank);
      if (capture == by_rank.end()) continue;  // the join takes members from these captures
      const RankCapture& r = *capture->second;
      OperationProgress p = operation_progress(
          r.events, *m.op, captures_kernel_channels(r) && !left_out_of_sample(r, *m.op),
          [&r](std::uint32_t state) { return state_name(r, state); });
      out.instances[i].members[k].progress = p.state;
      if (p.state == Progress::kCompleted) continue;
      p.detail.instance = i;
      p.detail.rank = m.rank;
      out.in_flight.push_back(std::move(p.detail));
    }
  }
}

// CollApi calls with no Coll or CeColl event below them, per func, on the rank with the most:
// NCCL reported the call but no operation for it (NCCL 2.30.7 does so for every Broadcast).
std::map<std::string, std::uint64_t> calls_without_operation(const Communicator& comm) {
  std::map<std::string, std::uint64_t> most;
  for (const RankCapture* r : comm.ranks) {
    const ProfilerEvents& ev = r->events;
    std::map<std::string, std::uint64_t> counts;
    for (std::uint32_t e = 0; e < ev.size(); ++e) {
      if (ev.type[e] != format::kTypeCollApi) continue;
      const auto children = ev.children_of(e);
      const bool operation = std::any_of(children.begin(), children.end(), [&ev](auto c) {
        return ev.type[c] == format::kTypeColl || ev.type[c] == format::kTypeCeColl;
      });
      const auto api = ev.payload_as<format::CollApiPayload>(e);
      if (!operation) ++counts[std::string(r->dump.string_at(api.func))];
    }
    for (const auto& [func, n] : counts) most[func] = std::max(most[func], n);
  }
  return most;
}

RunCommunicator run_communicator(const Communicator& comm, Diagnostics& diagnostics) {
  RunCommunicator out;
  out.hash = comm.comm_hash;
  out.scope = fmt::format("comm {:016x}", comm.comm_hash);
  out.name = comm.name;
  out.time_source = "GPU span: first KernelCh start to last KernelCh stop, host clock";
  out.nranks = comm.nranks;
  out.absent_ranks = comm.absent_ranks;
  for (const RankCapture* r : comm.ranks) {
    out.ranks.push_back(run_rank(*r));
    const auto& c = r->dump.comm;
    if (c.records_dropped > 0 || c.records_incomplete > 0) {
      out.gaps.push_back({out.scope, "dropped records",
                          fmt::format("rank {}: {} record(s) dropped (buffer full), {} incomplete; "
                                      "operations may lack events",
                                      r->rank(), c.records_dropped, c.records_incomplete)});
    }
    add_seq_gaps(out, r->rank(), collective_seqs(*r), kSeqGapCauses, diagnostics);
  }
  const auto order = stream_order(comm);
  for (const auto& inst : comm.instances) {
    out.instances.push_back(run_instance(out, comm, inst, order));
  }
  add_sampling(comm, out);
  add_progress(comm, out);
  add_rank_gaps(out, diagnostics);
  bool alltoall = false;
  bool self_copy_untimed = false;
  for (const RankCapture* r : comm.ranks) {
    alltoall = alltoall || !r->alltoall.alltoalls.empty();
    self_copy_untimed = self_copy_untimed || r->alltoall.self_ops_without_kernel_channels > 0;
    if (out.alltoall_unavailable.empty()) out.alltoall_unavailable = r->alltoall.reason;
  }
  if (alltoall) out.alltoall_unavailable.clear();
  const std::string version =
      comm.ranks.empty() ? "" : comm.ranks.front()->dump.meta("nccl.version");
  for (const auto& [func, calls] : calls_without_operation(comm)) {
    out.notes.push_back(fmt::format(
        "{}: {} call(s) on a rank have no Coll event below their CollApi ({} reports none for "
        "them): they ran, but the capture shows no operation, time or instance of them",
        func, calls, version.empty() ? "NCCL" : "NCCL " + version));
  }
  if (alltoall && self_copy_untimed) {
    out.notes.push_back(
        "AlltoAll: each rank's Send/Recv to itself has no KernelCh events; time and true time "
        "cover the transfers between ranks, the period the whole launch");
  }
  return out;
}

}  // namespace

Run npkt_run(const std::string& path, const std::vector<Communicator>& comms,
             Diagnostics& diagnostics) {
  Run run;
  run.path = path;
  run.kind = InputKind::kNpkt;
  for (const auto& comm : comms) run.comms.push_back(run_communicator(comm, diagnostics));
  return run;
}

}  // namespace npkit
