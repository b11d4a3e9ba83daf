// The times-of-one-host check (analysis/align/host_agreement.hpp) and what uses it: `bandwidth`'s
// per-row count and flag, and `report`'s count (HostAlignment), on hand-made runs whose
// disagreements are known by construction.
#include "analysis/align/host_agreement.hpp"

#include <catch2/catch.hpp>

#include "analysis/align/host_offsets.hpp"
#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "run/time_quality.hpp"

namespace {

npkit::RunMember member(std::int32_t rank, std::int64_t start, std::int64_t end) {
  npkit::RunMember m;
  m.rank = rank;
  m.timed = true;
  m.start_ns = start;
  m.end_ns = end;
  return m;
}

npkit::RunInstance allreduce(std::uint64_t seq, std::vector<npkit::RunMember> members) {
  npkit::RunInstance inst;
  inst.func = "AllReduce";
  inst.label = "AllReduce seq " + std::to_string(seq);
  inst.seq = seq;
  inst.bytes = 1024;
  inst.members = std::move(members);
  return inst;
}

// Three ranks; rank 2 on host b when `two_hosts`, else every rank on host a. Instances:
//   seq 0: r0 100..200, r1 150..300, r2 120..250   every rank completes after the last arrival
//   seq 1: r0 400..500, r1 530..600, r2 410..520   r0 completes 30 ns before r1 arrives
//   seq 2: r0 700..800, r1 700..800, r2 900..950   r0 and r1 complete 100 ns before r2 arrives
//   a Send/Recv pair r0 -> r1: r0 1000..1010, r1 1100..1200 (never checked)
npkit::RunCommunicator comm(bool two_hosts) {
  npkit::RunCommunicator c;
  c.hash = 0x42;
  c.nranks = 3;
  for (std::int32_t r = 0; r < 3; ++r) {
    npkit::RunRank rank;
    rank.rank = r;
    rank.host = two_hosts && r == 2 ? "b" : "a";
    c.ranks.push_back(rank);
  }
  c.instances = {allreduce(0, {member(0, 100, 200), member(1, 150, 300), member(2, 120, 250)}),
                 allreduce(1, {member(0, 400, 500), member(1, 530, 600), member(2, 410, 520)}),
                 allreduce(2, {member(0, 700, 800), member(1, 700, 800), member(2, 900, 950)})};
  npkit::RunInstance pair;
  pair.func = "SendRecv";
  pair.sender = 0;
  pair.receiver = 1;
  pair.members = {member(0, 1000, 1010), member(1, 1100, 1200)};
  c.instances.push_back(pair);
  return c;
}

}  // namespace

TEST_CASE("host agreement: a rank completing before another of its host arrived",
          "[align][bandwidth]") {
  for (const bool two_hosts : {false, true}) {
    DYNAMIC_SECTION((two_hosts ? "rank 2 on its own host" : "one host")) {
      const npkit::RunCommunicator c = comm(two_hosts);
      const npkit::HostOfRank hosts = npkit::host_of_rank(c);
      CHECK(npkit::host_disagreement_ns(c, c.instances[0], hosts) == 0);
      CHECK(npkit::host_disagreement_ns(c, c.instances[1], hosts) == 30);
      // On its own host, rank 2's late arrival says nothing about ranks 0 and 1.
      CHECK(npkit::host_disagreement_ns(c, c.instances[2], hosts) == (two_hosts ? 0 : 100));
      CHECK(npkit::host_disagreement_ns(c, c.instances[3], hosts) == 0);  // a pair

      npkit::Run run;
      run.comms = {c};
      npkit::assess_time_quality(run);  // as reading a run does (import/run_input.cpp)
      const auto rows = npkit::bandwidth_rows(run, "all");
      REQUIRE(rows.size() == 2);  // AllReduce 1024 B, SendRecv
      const std::uint64_t expected = two_hosts ? 1 : 2;
      CHECK(rows[0].host_disagree_instances == expected);
      CHECK(rows[0].flags() ==
            std::vector<std::string>{std::to_string(expected) + " host-disagree"});
      CHECK(rows[1].flags().empty());

      // report counts the same instances, with the largest disagreement.
      const npkit::HostAlignment al = npkit::estimate_host_offsets(npkit::cross_rank_input(c));
      CHECK(al.same_host_violations == expected);
      CHECK(al.same_host_violation_max_ns == (two_hosts ? 30 : 100));
    }
  }
}

TEST_CASE("host agreement: hosts unknown are one host, and without start times none is checked",
          "[align][bandwidth]") {
  npkit::RunCommunicator c = comm(true);
  c.ranks[0].host = "";  // not every rank names its host: all taken as one
  CHECK(npkit::host_disagreement_ns(c, c.instances[2], npkit::host_of_rank(c)) == 100);
  c.no_start_times = "durations only";
  CHECK(npkit::host_disagreement_ns(c, c.instances[2], npkit::host_of_rank(c)) == 0);
}
