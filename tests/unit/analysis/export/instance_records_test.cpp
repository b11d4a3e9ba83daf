// instance_records, against hand-computed runs: per-instance time (mean of the timed members),
// algbw and busbw by nccl-tests' conventions, true time only when every rank is timed on one
// clock, Send/Recv pairs, untimed and missing members, --coll selection, and member times moved
// by the estimated offset of their host.
#include "analysis/export/instance_records.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <utility>

namespace {

npkit::RunMember member(std::int32_t rank, bool timed, std::int64_t start, std::int64_t end) {
  npkit::RunMember m;
  m.rank = rank;
  m.timed = timed;
  m.start_ns = start;
  m.end_ns = end;
  m.channels = 2;
  return m;
}

npkit::RunRank rank_on(std::int32_t rank, std::string host) {
  npkit::RunRank r;
  r.rank = rank;
  r.host = std::move(host);
  return r;
}

npkit::RunCommunicator one_host() {
  npkit::RunCommunicator c;
  c.hash = 0xabc;
  c.scope = "comm 0000000000000abc";
  c.nranks = 2;
  c.ranks = {rank_on(0, "node"), rank_on(1, "node")};
  npkit::RunInstance ar;
  ar.func = "AllReduce";
  ar.seq = 7;
  ar.bytes = 1'000'000;
  ar.members = {member(0, true, 1'000, 11'000), member(1, true, 3'000, 23'000)};
  npkit::RunInstance ag = ar;
  ag.func = "AllGather";
  ag.members = {member(0, true, 30'000, 35'000), member(1, false, 0, 0)};
  npkit::RunInstance pair;
  pair.func = "SendRecv";
  pair.sender = 0;
  pair.receiver = 1;
  pair.bytes = 4'000;
  pair.members = {member(0, true, 40'000, 41'000), member(1, true, 40'500, 42'000)};
  c.instances = {ar, ag, pair};
  return c;
}

}  // namespace

TEST_CASE("instance records: time, bandwidth and true time of hand-made instances", "[export]") {
  npkit::Run run;
  run.comms = {one_host()};
  const auto records = npkit::instance_records(run);
  REQUIRE(records.size() == 3);

  // AllReduce: members 10,000 and 20,000 ns -> time 15,000; algbw 1e6 / 15,000 = 66.667 GB/s;
  // busbw x 2(n-1)/n = 1 for n = 2. True time: last start 3,000 to last end 23,000 = 20,000.
  const auto& ar = records[0];
  CHECK(ar.clock == "one host");
  CHECK(ar.timed == 2);
  REQUIRE(ar.time_ns);
  CHECK(*ar.time_ns == Approx(15'000));
  CHECK(*ar.algbw_gbps == Approx(1e6 / 15'000));
  CHECK(*ar.busbw_gbps == Approx(1e6 / 15'000));
  REQUIRE(ar.true_time_ns);
  CHECK(*ar.true_time_ns == 20'000);
  CHECK(*ar.true_busbw_gbps == Approx(50.0));
  CHECK(ar.members[1].start_ns == 3'000);  // one host: no offset
  CHECK(ar.members[1].host == "node");

  // AllGather timed on rank 0 only: time 5,000, busbw = algbw x (n-1)/n; no true time.
  const auto& ag = records[1];
  CHECK(ag.timed == 1);
  CHECK(*ag.time_ns == Approx(5'000));
  CHECK(*ag.busbw_gbps == Approx(1e6 / 5'000 * 0.5));
  CHECK_FALSE(ag.true_time_ns);
  CHECK_FALSE(ag.members[1].timed);

  // A Send/Recv pair: both ends timed -> true time 40,500 .. 42,000.
  const auto& pair = records[2];
  REQUIRE(pair.true_time_ns);
  CHECK(*pair.true_time_ns == 1'500);
  CHECK(*pair.time_ns == Approx(1'250));

  CHECK(npkit::instance_records(run, "allgather").size() == 1);
  CHECK(npkit::instance_records(run, "broadcast").empty());
}

TEST_CASE("instance records: a missing rank, and members on another host's clock", "[export]") {
  npkit::Run run;
  run.comms = {one_host()};
  run.comms[0].instances[0].missing_ranks = {2};
  run.comms[0].nranks = 3;
  CHECK_FALSE(npkit::instance_records(run)[0].true_time_ns);

  // Two hosts, one instance: rank 0 on a [100, 200], rank 1 on b [150, 210]. b's offset d must
  // keep 200 >= 150 + d and 210 + d >= 100, so d lies in [-110, 50]: the midpoint, -30, moves
  // rank 1 to [120, 180]. Times on two clocks give no true time.
  npkit::RunCommunicator two;
  two.nranks = 2;
  two.ranks = {rank_on(0, "a"), rank_on(1, "b")};
  npkit::RunInstance inst;
  inst.func = "AllReduce";
  inst.bytes = 100;
  inst.members = {member(0, true, 100, 200), member(1, true, 150, 210)};
  two.instances = {inst};
  run.comms = {two};
  const auto records = npkit::instance_records(run);
  REQUIRE(records.size() == 1);
  CHECK(records[0].clock == "aligned");
  CHECK(records[0].members[0].start_ns == 100);
  CHECK(records[0].members[1].start_ns == 120);
  CHECK(records[0].members[1].end_ns == 180);
  CHECK(*records[0].time_ns == Approx(80.0));  // durations are not moved
  CHECK_FALSE(records[0].true_time_ns);
}
