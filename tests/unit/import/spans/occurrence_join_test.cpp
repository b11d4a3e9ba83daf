// Joins by order of occurrence per (name, size) over tracks: sizes spread over tracks, ranks on
// different tracks, count and track mismatches reported and left out, incomplete tracks, hosts.
#include "import/spans/occurrence_join.hpp"

#include <catch2/catch.hpp>

namespace {

npkit::RankInstanceTimes track(std::int32_t rank, std::uint32_t buffer,
                               std::vector<npkit::OccurrenceSpan> spans) {
  npkit::RankInstanceTimes t;
  t.rank = rank;
  t.name = "ALL_REDUCE_RING";
  t.func = "allreduce";
  t.algo = "ring";
  t.track = buffer;
  t.spans = std::move(spans);
  return t;
}

// Two ranks; 1 KiB collectives run on buffer 0 only, the 4 KiB one on buffers 0 and 1.
std::vector<npkit::RankInstanceTimes> two_ranks() {
  return {
      track(0, 0, {{0, 10, 1024}, {20, 40, 4096}, {50, 60, 1024}}), track(0, 1, {{21, 39, 4096}}),
      track(1, 0, {{2, 11, 1024}, {25, 41, 4096}, {52, 61, 1024}}), track(1, 1, {{24, 42, 4096}})};
}

}  // namespace

TEST_CASE("occurrence join: per size over tracks, ordered by first start", "[join][xrank]") {
  const auto in = npkit::join_by_occurrence(two_ranks(), "dump", "spans", 2);
  CHECK(in.scope == "dump");
  CHECK(in.time_source == "spans");
  CHECK_FALSE(in.hosts_known());
  CHECK(in.nranks == 2);
  CHECK(in.gaps.empty());
  REQUIRE(in.instances.size() == 3);
  CHECK(in.instances[0].label == "ALL_REDUCE_RING 1024 B #0");
  CHECK(in.instances[0].func == "AllReduce");
  CHECK(in.instances[0].algo == "RING");
  CHECK(in.instances[0].bytes == 1024);
  CHECK(in.instances[0].seq == 0);
  REQUIRE(in.instances[0].members.size() == 2);
  CHECK(in.instances[0].members[1].start_ns == 2);
  CHECK(in.instances[0].members[1].end_ns == 11);
  // The 4 KiB collective: earliest start to latest end over the rank's two buffers.
  CHECK(in.instances[1].label == "ALL_REDUCE_RING 4096 B #0");
  CHECK(in.instances[1].members[0].start_ns == 20);
  CHECK(in.instances[1].members[0].end_ns == 40);
  CHECK(in.instances[1].members[1].start_ns == 24);
  CHECK(in.instances[1].members[1].end_ns == 42);
  CHECK(in.instances[1].members[1].channels == 2);
  CHECK(in.instances[0].members[1].channels == 1);
  // Each rank's operations in start order: 1 KiB, 4 KiB, 1 KiB.
  CHECK(in.instances[0].members[0].order == 0);
  CHECK(in.instances[1].members[0].order == 1);
  CHECK(in.instances[2].members[1].order == 2);
  CHECK(in.instances[2].label == "ALL_REDUCE_RING 1024 B #1");
}

TEST_CASE("occurrence join: a count mismatch names each rank's count", "[join][xrank]") {
  auto times = two_ranks();
  times[2].spans.pop_back();  // rank 1 buffer 0 lost its last (1 KiB) span
  times[2].incomplete = "buffer probably overflowed (3 records)";
  const auto in = npkit::join_by_occurrence(times, "dump", "spans", 2);
  REQUIRE(in.gaps.size() == 3);
  CHECK(in.gaps[0].scope == "ALL_REDUCE_RING buffer 0");
  CHECK(in.gaps[0].kind == "dropped records");
  CHECK(in.gaps[0].detail == "rank 1: buffer probably overflowed (3 records)");
  CHECK(in.gaps[1].scope == "ALL_REDUCE_RING 1024 B");
  CHECK(in.gaps[1].kind == "count mismatch");
  CHECK(in.gaps[1].detail == "rank 0 has 2, rank 1 has 1");
  CHECK(in.gaps[2].kind == "not joined");
  CHECK(in.gaps[2].detail.rfind("2 instance(s) left out", 0) == 0);
  // Neither 1 KiB operation is joined (which one rank 1 lost is unknown); the 4 KiB one is.
  REQUIRE(in.instances.size() == 1);
  CHECK(in.instances[0].label == "ALL_REDUCE_RING 4096 B #0");
}

TEST_CASE("occurrence join: tracks of one rank that disagree", "[join][xrank]") {
  auto times = two_ranks();
  times[1].spans.push_back({70, 80, 4096});  // rank 0 buffer 1: a second 4 KiB span
  const auto in = npkit::join_by_occurrence(times, "dump", "spans", 2);
  REQUIRE(in.gaps.size() == 3);
  CHECK(in.gaps[0].scope == "ALL_REDUCE_RING 4096 B");
  CHECK(in.gaps[0].kind == "track mismatch");
  CHECK(in.gaps[0].detail == "rank 0: buffer 0 has 1, buffer 1 has 2");
  CHECK(in.gaps[1].kind == "count mismatch");
  CHECK(in.gaps[1].detail == "rank 0 has 2, rank 1 has 1");
  CHECK(in.gaps[2].kind == "not joined");
  REQUIRE(in.instances.size() == 2);
  CHECK(in.instances[0].label == "ALL_REDUCE_RING 1024 B #0");
  CHECK(in.instances[1].label == "ALL_REDUCE_RING 1024 B #1");
}

TEST_CASE("occurrence join: ranks on different tracks (split tree)", "[join][xrank]") {
  // Rank 0 runs the operation on buffers 0 and 2, rank 1 on buffers 1 and 3: per-size
  // occurrence still lines them up.
  std::vector<npkit::RankInstanceTimes> times = {
      track(0, 0, {{0, 10, 64}, {20, 30, 64}}), track(0, 2, {{1, 9, 64}, {21, 31, 64}}),
      track(1, 1, {{3, 12, 64}, {22, 33, 64}}), track(1, 3, {{2, 11, 64}, {24, 32, 64}})};
  times[0].host = "x";  // not every entry names a host: hosts unknown
  const auto in = npkit::join_by_occurrence(times, "dump", "spans", 2);
  CHECK_FALSE(in.hosts_known());
  CHECK(in.gaps.empty());
  REQUIRE(in.instances.size() == 2);
  CHECK(in.instances[0].members[1].start_ns == 2);
  CHECK(in.instances[0].members[1].end_ns == 12);
  CHECK(in.instances[1].members[0].start_ns == 20);
  CHECK(in.instances[1].members[0].end_ns == 31);
}

TEST_CASE("occurrence join: hosts known when every entry names one", "[join][xrank]") {
  auto times = two_ranks();
  for (auto& t : times) t.host = t.rank == 0 ? "a" : "b";
  const auto in = npkit::join_by_occurrence(times, "dump", "spans", 2);
  CHECK(in.hosts_known());
  REQUIRE(in.ranks.size() == 2);
  CHECK(in.ranks[1].host == "b");
}

TEST_CASE("occurrence join: S of a gathering collective, absent ranks", "[join][xrank]") {
  // nranks 4, data for ranks 0 and 2 only. An AllGather's size field is the per-rank bytes:
  // S = 256 × 4.
  auto gather = [](std::int32_t rank) {
    npkit::RankInstanceTimes t;
    t.rank = rank;
    t.name = "ALL_GATHER_RING";
    t.func = "allgather";
    t.algo = "ring";
    t.spans = {{0, 10, 256}};
    return t;
  };
  const auto in = npkit::join_by_occurrence({gather(0), gather(2)}, "dump", "spans", 4, {0, 1, 2});
  REQUIRE(in.instances.size() == 1);
  CHECK(in.instances[0].func == "AllGather");
  CHECK(in.instances[0].bytes == 1024);
  REQUIRE(in.ranks.size() == 3);  // rank 1 has data, but no collective span
  CHECK(in.absent_ranks == std::vector<std::int32_t>{3});
}
