// Host clock offsets from joined instances: hand-computed difference constraints, a host linked
// only through another, an unlinked host, inconsistent data, one host and unknown hosts.
#include "analysis/align/host_offsets.hpp"

#include <catch2/catch.hpp>

namespace {

npkit::RankInfo rank_on(std::int32_t rank, const char* host) {
  npkit::RankInfo r;
  r.rank = rank;
  r.host = host;
  return r;
}

npkit::JoinedInstance instance(std::vector<npkit::RankTimes> ranks) {
  npkit::JoinedInstance i;
  i.collective = "AllReduce";
  i.ranks = std::move(ranks);
  return i;
}

}  // namespace

TEST_CASE("host offsets: two hosts, injected skew recovered within the stated bound",
          "[align][xrank]") {
  // Host a holds ranks 0 and 1, host b rank 2, whose clock reads 1000 ns ahead (true offset to
  // add to b's times: -1000). True times, then b's as recorded (+1000):
  //   I1: r0 [0,100]   r1 [10,100]   r2 [50,100]  -> [1050,1100]
  //   I2: r0 [200,260] r1 [200,260]  r2 [180,260] -> [1180,1260]
  // off_b - off_a <= min(end on a) - max(start on b): I1 100-1050 = -950, I2 260-1180 = -920
  // off_a - off_b <= min(end on b) - max(start on a): I1 1100-10 = 1090, I2 1260-200 = 1060
  // -> off_b in [-1060, -950], midpoint -1005, uncertainty 55; the truth (-1000) is inside.
  npkit::CrossRankInput in;
  in.hosts_known = true;
  in.ranks = {rank_on(0, "a"), rank_on(1, "a"), rank_on(2, "b")};
  in.instances = {instance({{0, 0, 100}, {1, 10, 100}, {2, 1050, 1100}}),
                  instance({{0, 200, 260}, {1, 200, 260}, {2, 1180, 1260}})};
  const auto al = npkit::estimate_host_offsets(in);
  CHECK(al.status == npkit::AlignmentStatus::kAligned);
  REQUIRE(al.hosts.size() == 2);
  CHECK(al.hosts[0].host == "a");
  CHECK(al.hosts[0].reference);
  CHECK(al.hosts[0].ranks == std::vector<std::int32_t>{0, 1});
  CHECK(al.hosts[1].linked);
  CHECK(al.hosts[1].lower_ns == -1060);
  CHECK(al.hosts[1].upper_ns == -950);
  CHECK(al.hosts[1].offset_ns == -1005);
  CHECK(al.hosts[1].uncertainty_ns == 55);
  CHECK(al.hosts[1].instances == 2);
  CHECK(std::abs(al.hosts[1].offset_ns - -1000) <= al.hosts[1].uncertainty_ns);
  CHECK(al.offset_of(2) == -1005);
  CHECK(al.offset_of(1) == 0);
  CHECK(al.same_host_violations == 0);
}

TEST_CASE("host offsets: a host linked only through another, an unlinked host", "[align][xrank]") {
  // Hosts a (rank 0), b (rank 1), c (rank 2), d (rank 3). a-b share I1, b-c share I2; d shares
  // nothing with anyone (only its own instance).
  //   I1: r0 [0,100]  r1 [40,100]:  off_b - off_a <= 100 - 40 = 60; off_a - off_b <= 100 - 0
  //   I2: r1 [300,400] r2 [330,380]: off_c - off_b <= 400 - 330 = 70; off_b - off_c <= 380 - 300
  // b relative to a: [-100, 60]; c relative to a through b: upper 60 + 70 = 130, lower -100 - 80
  // = -180. Fixing b at its midpoint -20 leaves c within [-20 - 80, -20 + 70] = [-100, 50],
  // midpoint -25; its feasible interval before fixing is [-180, 130], so its uncertainty is
  // max(-25 - -180, 130 - -25) = 155.
  npkit::CrossRankInput in;
  in.hosts_known = true;
  in.ranks = {rank_on(0, "a"), rank_on(1, "b"), rank_on(2, "c"), rank_on(3, "d")};
  in.instances = {instance({{0, 0, 100}, {1, 40, 100}}), instance({{1, 300, 400}, {2, 330, 380}}),
                  instance({{3, 0, 10}})};
  const auto al = npkit::estimate_host_offsets(in);
  CHECK(al.status == npkit::AlignmentStatus::kAligned);
  REQUIRE(al.hosts.size() == 4);
  CHECK(al.hosts[1].lower_ns == -100);
  CHECK(al.hosts[1].upper_ns == 60);
  CHECK(al.hosts[1].offset_ns == -20);
  CHECK(al.hosts[2].linked);
  CHECK(al.hosts[2].lower_ns == -180);
  CHECK(al.hosts[2].upper_ns == 130);
  CHECK(al.hosts[2].offset_ns == -25);
  CHECK(al.hosts[2].uncertainty_ns == 155);
  CHECK_FALSE(al.hosts[3].linked);
  CHECK(al.hosts[3].offset_ns == 0);
  CHECK(al.hosts[3].instances == 0);
}

TEST_CASE("host offsets: inconsistent constraints are not corrected", "[align][xrank]") {
  // I1 says off_b - off_a <= 100 - 1050 = -950; I2 (b completes at 120 while a arrives at 500)
  // says off_a - off_b <= 120 - 500 = -380, i.e. off_b - off_a >= 380: no solution.
  npkit::CrossRankInput in;
  in.hosts_known = true;
  in.ranks = {rank_on(0, "a"), rank_on(1, "b")};
  in.instances = {instance({{0, 0, 100}, {1, 1050, 1100}}),
                  instance({{0, 500, 510}, {1, 100, 120}})};
  const auto al = npkit::estimate_host_offsets(in);
  CHECK(al.status == npkit::AlignmentStatus::kInconsistent);
  CHECK(al.offset_of(1) == 0);
  CHECK(al.status_name() == "inconsistent (not corrected)");
}

TEST_CASE("host offsets: one host, unknown hosts, same-host violations", "[align][xrank]") {
  npkit::CrossRankInput in;
  in.hosts_known = true;
  in.ranks = {rank_on(0, "a"), rank_on(1, "a")};
  // Rank 1 completes at 90, before rank 0 arrives at 100: 10 ns against the rule on one clock.
  in.instances = {instance({{0, 100, 200}, {1, 50, 90}}), instance({{0, 300, 400}, {1, 300, 400}})};
  auto al = npkit::estimate_host_offsets(in);
  CHECK(al.status == npkit::AlignmentStatus::kOneHost);
  CHECK(al.same_host_violations == 1);
  CHECK(al.same_host_violation_max_ns == 10);
  in.hosts_known = false;
  in.ranks[1].host = "b";  // ignored: hosts are unknown
  al = npkit::estimate_host_offsets(in);
  CHECK(al.status == npkit::AlignmentStatus::kHostsUnknown);
  REQUIRE(al.hosts.size() == 1);
  CHECK(al.hosts[0].ranks == std::vector<std::int32_t>{0, 1});
}
