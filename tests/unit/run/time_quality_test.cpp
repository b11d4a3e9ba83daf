// Quality set once on a run's instances: host disagreement (a completion before an arrival on
// one host) and members implausibly short against their instance's slowest, on hand-made
// communicators whose answer is read off the times.
#include "run/time_quality.hpp"

#include <catch2/catch.hpp>

namespace {

npkit::RunMember member(std::int32_t rank, std::int64_t start, std::int64_t end) {
  npkit::RunMember m;
  m.rank = rank;
  m.timed = true;
  m.start_ns = start;
  m.end_ns = end;
  return m;
}

// Four ranks, each on a host of its own (NCCL_HOSTID on one GPU): no common clock.
npkit::RunCommunicator four_hosts(std::vector<npkit::RunMember> members, std::string algo) {
  npkit::RunCommunicator c;
  c.nranks = 4;
  for (int r = 0; r < 4; ++r) {
    npkit::RunRank rank;
    rank.rank = r;
    rank.host = "onegpu-host-" + std::to_string(r);
    c.ranks.push_back(rank);
  }
  npkit::RunInstance inst;
  inst.func = "AllReduce";
  inst.algo = std::move(algo);
  inst.proto = "LL";
  inst.members = std::move(members);
  c.instances.push_back(inst);
  return c;
}

}  // namespace

TEST_CASE("time quality: a tree member at 21 us beside 18,039 us is implausibly short",
          "[run][quality]") {
  // The per-rank times of nccl-2.30.7/matrix/n4-tree at 64 KiB: 9,027 / 9,035 / 21 / 18,039 us.
  auto c = four_hosts({member(0, 0, 9'027'000), member(1, 0, 9'035'000), member(2, 0, 21'000),
                       member(3, 0, 18'039'000)},
                      "TREE");
  npkit::assess_time_quality(c);
  const auto& inst = c.instances[0];
  CHECK_FALSE(inst.members[0].implausibly_short);
  CHECK_FALSE(inst.members[1].implausibly_short);
  CHECK(inst.members[2].implausibly_short);  // 21 < 1 % of 18,039 = 180.39
  CHECK_FALSE(inst.members[3].implausibly_short);
  CHECK_FALSE(inst.host_disagree);  // one rank a host: no two ranks share a clock
  CHECK(inst.clean_members() == 3);
  CHECK(npkit::instance_flags(inst) == std::vector<std::string>{"short rank 2"});
}

TEST_CASE("time quality: at 1 % of the slowest a member is not short, nor outside RING/TREE",
          "[run][quality]") {
  auto ring = four_hosts(
      {member(0, 0, 1000), member(1, 0, 100'000), member(2, 0, 99'000), member(3, 0, 100'000)},
      "RING");
  npkit::assess_time_quality(ring);
  CHECK_FALSE(ring.instances[0].members[0].implausibly_short);  // 1000 = 1 % of 100,000
  auto nvls = four_hosts(
      {member(0, 0, 10), member(1, 0, 100'000), member(2, 0, 99'000), member(3, 0, 100'000)},
      "NVLS");
  npkit::assess_time_quality(nvls);
  CHECK_FALSE(nvls.instances[0].members[0].implausibly_short);
}

TEST_CASE("time quality: on one clock the rank that arrived last may be short", "[run][quality]") {
  // Ranks 0-2 wait 100 us for rank 3, which then finishes in 0.5 us: its true time.
  auto c = four_hosts({member(0, 0, 100'500), member(1, 0, 100'500), member(2, 0, 100'500),
                       member(3, 100'000, 100'500)},
                      "RING");
  for (auto& r : c.ranks) r.host = "node";
  npkit::assess_time_quality(c);
  CHECK_FALSE(c.instances[0].members[3].implausibly_short);
  CHECK_FALSE(c.instances[0].host_disagree);
  CHECK(npkit::instance_flags(c.instances[0]).empty());
}

TEST_CASE("time quality: a last arrival the others outlast by far is still short",
          "[run][quality]") {
  // Rank 3 arrives last and ends 0.5 us later, but rank 0 goes on 9 ms after it: no collective
  // lets a rank finish while another still needs its data for that long.
  auto c = four_hosts({member(0, 0, 9'100'500), member(1, 0, 100'500), member(2, 0, 100'500),
                       member(3, 100'000, 100'500)},
                      "TREE");
  for (auto& r : c.ranks) r.host = "node";
  npkit::assess_time_quality(c);
  CHECK(c.instances[0].members[3].implausibly_short);
  CHECK_FALSE(c.instances[0].host_disagree);
}

TEST_CASE("time quality: a completion before another rank of its host arrived disagrees",
          "[run][quality]") {
  auto c = four_hosts(
      {member(0, 0, 5000), member(1, 6000, 9000), member(2, 0, 9000), member(3, 0, 9000)}, "RING");
  for (auto& r : c.ranks) r.host = "node";
  npkit::assess_time_quality(c);
  const auto& inst = c.instances[0];
  CHECK(inst.host_disagree);  // rank 0 ended at 5000, rank 1 arrived at 6000
  CHECK(inst.clean_members() == 0);
  CHECK(npkit::instance_flags(inst) == std::vector<std::string>{"host-disagree"});
  // The same times on four hosts: no two ranks share a clock, nothing to disagree.
  auto apart = four_hosts(
      {member(0, 0, 5000), member(1, 6000, 9000), member(2, 0, 9000), member(3, 0, 9000)}, "RING");
  npkit::assess_time_quality(apart);
  CHECK_FALSE(apart.instances[0].host_disagree);
}

TEST_CASE("time quality: an instance without a timed member is untimed, a stale one stale",
          "[run][quality]") {
  auto c = four_hosts({member(0, 0, 1), member(1, 0, 1)}, "RING");
  for (auto& m : c.instances[0].members) m.timed = false;
  c.instances[0].members[1].stale = true;
  npkit::assess_time_quality(c);
  CHECK(npkit::instance_flags(c.instances[0]) == std::vector<std::string>{"untimed", "stale"});
}
