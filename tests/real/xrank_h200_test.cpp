// Cross-rank analysis of the real H200 plugin captures (samples/nccl-h200/*: 2 ranks, one host)
// against a second, deliberately plain computation made here from the ranks' operations: key
// each rank's timed collective by (function, seq, k-th repeat in host start order; AlltoAll by its
// k-th index), keep keys held with a GPU span by both ranks whose counts agree, and count who
// started last, each rank's wait (last start - own start, capped by its own span) and its summed
// span. Also: every capture names one host for both ranks, so nothing is corrected; the socket
// capture's network-wait finding follows from its proxy step shares.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/report/cross_rank_report.hpp"
#include "real/npkt_h200_driver.hpp"
#include "unit/import/npkt/profiler_test_captures.hpp"

namespace {

struct Plain {
  std::uint64_t instances = 0;
  std::map<std::int32_t, std::uint64_t> last;
  std::map<std::int32_t, std::int64_t> wait;
  std::map<std::int32_t, std::int64_t> busy;
};

using Key = std::tuple<std::string, std::uint64_t, std::uint32_t>;

Plain plain_sync(const npkit::Communicator& comm) {
  std::map<Key, std::map<std::int32_t, const npkit::ProfilerCollective*>> keyed;
  for (const npkit::RankCapture* r : comm.ranks) {
    std::vector<const npkit::ProfilerCollective*> ops;
    for (const auto& op : r->collectives) {
      if (!op.in_alltoall && !npkit::is_p2p(op.func)) ops.push_back(&op);
    }
    std::stable_sort(ops.begin(), ops.end(), [](const auto* a, const auto* b) {
      return a->host_start_ns < b->host_start_ns;
    });
    std::map<std::pair<std::string, std::uint64_t>, std::uint32_t> seen;
    for (const auto* op : ops) {
      const std::string func(op->func_name);
      keyed[{func, op->seq, seen[{func, op->seq}]++}][r->rank()] = op;
    }
    for (const auto& op : r->alltoall.alltoalls) keyed[{"AlltoAll", op.seq, 0}][r->rank()] = &op;
  }
  Plain p;
  for (const auto& [key, by_rank] : keyed) {
    std::int64_t last = INT64_MIN;
    std::size_t timed = 0;
    bool agree = true;
    for (const auto& [rank, op] : by_rank) {
      agree = agree && op->count == by_rank.begin()->second->count;
      if (!op->has_gpu_span) continue;
      ++timed;
      last = std::max(last, op->gpu_start_ns);
    }
    if (timed < 2 || !agree) continue;
    ++p.instances;
    for (const auto& [rank, op] : by_rank) {
      if (!op->has_gpu_span) continue;
      const std::int64_t span = std::max<std::int64_t>(0, op->gpu_stop_ns - op->gpu_start_ns);
      if (op->gpu_start_ns == last) ++p.last[rank];
      p.wait[rank] += std::min(last - op->gpu_start_ns, span);
      p.busy[rank] += span;
    }
  }
  return p;
}

void check_sample(const std::string& run) {
  const std::string dir = npkit::test::sample_dir(run);
  npkit::test::require_path(dir + "/dump");
  const auto sample = npkit::test::load_sample(dir + "/dump");
  REQUIRE_FALSE(sample.comms.empty());
  for (const auto& comm : sample.comms) {
    INFO(run << " comm " << comm.comm_hash);
    const auto a = npkit::analyze_cross_rank(npkit::test::cross_rank_of(comm), {});
    REQUIRE(a.input.hosts_known);
    CHECK(a.alignment.status == npkit::AlignmentStatus::kOneHost);
    for (const auto& g : a.input.gaps) CHECK(g.kind != "count mismatch");
    const Plain plain = plain_sync(comm);
    CHECK(a.sync.instances.size() == plain.instances);
    for (const auto& r : a.sync.ranks) {
      INFO("rank " << r.rank);
      CHECK(r.arrived_last == (plain.last.count(r.rank) ? plain.last.at(r.rank) : 0u));
      CHECK(r.wait_ns == plain.wait.at(r.rank));
      CHECK(r.busy_ns == plain.busy.at(r.rank));
    }
    // Two ranks: a rank waits exactly when the other arrives last (ties aside), so the counts of
    // "arrived last" add up to at least the instances compared.
    if (a.sync.ranks.size() == 2) {
      CHECK(a.sync.ranks[0].arrived_last + a.sync.ranks[1].arrived_last >= plain.instances);
    }
  }
}

}  // namespace

TEST_CASE("xrank H200 captures: sync and stragglers match a plain recount", "[npkt][real][xrank]") {
  for (const char* run : {"agree", "nvlink", "socket", "torch", "exit"}) check_sample(run);
}

TEST_CASE("xrank H200 socket capture: the network-wait finding follows the step shares",
          "[npkt][real][xrank]") {
  const std::string dir = npkit::test::sample_dir("socket");
  npkit::test::require_path(dir + "/dump");
  const auto sample = npkit::test::load_sample(dir + "/dump");
  REQUIRE(sample.comms.size() == 1);
  const auto in = npkit::test::cross_rank_of(sample.comms[0]);
  bool any_over = false;
  for (const auto& r : in.ranks) {
    REQUIRE(r.net.has_value());
    CHECK(r.net->steps > 0);
    CHECK(r.net->network_ns + r.net->gpu_peer_ns <= r.net->step_ns);
    any_over = any_over ||
               static_cast<double>(r.net->network_ns) >= 0.5 * static_cast<double>(r.net->step_ns);
  }
  const auto a = npkit::analyze_cross_rank(in, {});
  const bool found = std::any_of(a.findings.begin(), a.findings.end(),
                                 [](const npkit::Finding& f) { return f.rule == "network_wait"; });
  CHECK(found == any_over);
  // Phases net_send, net_recv, sync, other per rank: the imbalance table has them.
  CHECK(a.imbalance.size() == 4);
}
