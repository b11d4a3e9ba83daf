#include "import/npkt/communicator_join.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "import/join_gaps.hpp"

namespace npkit {
namespace {

// (kind, func, seq, occurrence, sender, receiver): kind 0 collective, 1 Send/Recv pair, 2
// copy-engine collective (its seq numbers are NCCL's CE sequence, not the kernel collectives').
using InstanceKey =
    std::tuple<int, std::string_view, std::uint64_t, std::uint32_t, std::int32_t, std::int32_t>;

class InstanceBuilder {
 public:
  void add(const InstanceKey& key, std::int32_t rank, const ProfilerCollective& op) {
    auto [it, inserted] = index_.emplace(key, instances_.size());
    if (inserted) {
      CollectiveInstance inst;
      inst.func = std::get<0>(key) == 1 ? NcclFunc::kSend : op.func;
      inst.func_name = std::get<0>(key) == 1 ? std::string_view("SendRecv") : op.func_name;
      inst.seq = std::get<2>(key);
      inst.occurrence = std::get<3>(key);
      inst.sender = std::get<4>(key);
      inst.receiver = std::get<5>(key);
      inst.copy_engine = std::get<0>(key) == 2;
      inst.first_host_start_ns = op.host_start_ns;
      instances_.push_back(std::move(inst));
    }
    CollectiveInstance& inst = instances_[it->second];
    inst.members.push_back({rank, &op});
    inst.first_host_start_ns = std::min(inst.first_host_start_ns, op.host_start_ns);
  }
  std::vector<CollectiveInstance> take() { return std::move(instances_); }

 private:
  std::map<InstanceKey, std::size_t> index_;
  std::vector<CollectiveInstance> instances_;
};

void add_rank(const RankCapture& capture, InstanceBuilder& builder) {
  const std::int32_t rank = capture.rank();
  std::map<std::tuple<bool, std::string_view, std::uint64_t>, std::uint32_t> occurrences;
  auto add_collective = [&](const ProfilerCollective& op) {
    const std::uint32_t k = occurrences[{op.copy_engine, op.func_name, op.seq}]++;
    builder.add({op.copy_engine ? 2 : 0, op.func_name, op.seq, k, -1, -1}, rank, op);
  };
  for (const auto& op : capture.collectives) {
    if (op.in_alltoall) continue;
    if (op.func == NcclFunc::kSend) {
      builder.add({1, {}, op.seq, 0, rank, op.peer}, rank, op);
    } else if (op.func == NcclFunc::kRecv) {
      builder.add({1, {}, op.seq, 0, op.peer, rank}, rank, op);
    } else {
      add_collective(op);
    }
  }
  for (const auto& op : capture.alltoall.alltoalls) add_collective(op);
}

void find_missing(Communicator& comm) {
  std::vector<std::int32_t> present;
  for (const auto* r : comm.ranks) present.push_back(r->rank());
  for (auto& inst : comm.instances) {
    std::sort(inst.members.begin(), inst.members.end(),
              [](const auto& a, const auto& b) { return a.rank < b.rank; });
    std::vector<std::int32_t> expected =
        inst.is_pair() ? std::vector<std::int32_t>{inst.sender, inst.receiver} : present;
    for (auto r : expected) {
      if (!std::binary_search(present.begin(), present.end(), r)) continue;
      const bool held = std::any_of(inst.members.begin(), inst.members.end(),
                                    [r](const InstanceMember& m) { return m.rank == r; });
      const bool listed = std::find(inst.missing_ranks.begin(), inst.missing_ranks.end(), r) !=
                          inst.missing_ranks.end();
      if (!held && !listed) inst.missing_ranks.push_back(r);
    }
    if (!inst.missing_ranks.empty()) ++comm.instances_missing_ranks;
  }
}

}  // namespace

std::vector<Communicator> join_communicators(const std::vector<const RankCapture*>& captures,
                                             Diagnostics& diagnostics) {
  std::map<std::uint64_t, Communicator> comms;
  for (const RankCapture* c : captures) {
    if (c->rank() < 0) continue;
    Communicator& comm = comms[c->dump.comm.comm_hash];
    comm.comm_hash = c->dump.comm.comm_hash;
    if (comm.ranks.empty()) {
      comm.nranks = c->dump.comm.nranks;
      comm.name = c->dump.meta("comm_name");
    } else if (c->dump.comm.nranks != comm.nranks) {
      warn_differing_sizes(diagnostics, c->dump.path, comm.comm_hash, c->dump.comm.nranks,
                           comm.nranks);
      comm.nranks = std::max(comm.nranks, c->dump.comm.nranks);
    }
    const auto kept = std::find_if(comm.ranks.begin(), comm.ranks.end(),
                                   [&](const RankCapture* r) { return r->rank() == c->rank(); });
    if (kept != comm.ranks.end()) {
      warn_duplicate_rank(diagnostics, c->dump.path, comm.comm_hash, c->rank(), (*kept)->dump.path);
      continue;
    }
    comm.ranks.push_back(c);
  }
  std::vector<Communicator> out;
  for (auto& [hash, comm] : comms) {
    std::sort(comm.ranks.begin(), comm.ranks.end(),
              [](const RankCapture* a, const RankCapture* b) { return a->rank() < b->rank(); });
    for (std::int32_t r = 0, i = 0; r < comm.nranks; ++r) {
      const bool has =
          i < static_cast<std::int32_t>(comm.ranks.size()) && comm.ranks[i]->rank() == r;
      if (has) {
        ++i;
      } else {
        comm.absent_ranks.push_back(r);
      }
    }
    InstanceBuilder builder;
    for (const RankCapture* r : comm.ranks) add_rank(*r, builder);
    comm.instances = builder.take();
    std::stable_sort(
        comm.instances.begin(), comm.instances.end(),
        [](const auto& a, const auto& b) { return a.first_host_start_ns < b.first_host_start_ns; });
    find_missing(comm);
    out.push_back(std::move(comm));
  }
  return out;
}

}  // namespace npkit
