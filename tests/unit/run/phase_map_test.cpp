// Phase rules: glob matching, parsing, precedence and the built-in assignment.
#include "run/phase_map.hpp"

#include <catch2/catch.hpp>

using npkit::glob_match;
using npkit::PhaseMap;

namespace {

std::uint16_t base_id(const npkit::EventTable& t, std::string_view base) {
  const auto& names = t.base_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == base) return static_cast<std::uint16_t>(i);
  }
  FAIL("no base " << base);
  return 0;
}

struct Resolved {
  std::string phase;  // "inherit" for kInheritPhase
  std::string func;
  std::string algo;
};

Resolved resolve(const npkit::PhaseAssignment& a, const npkit::EventTable& t,
                 std::string_view base) {
  const auto b = base_id(t, base);
  Resolved r;
  const auto phase = a.phase_of_base.at(b);
  r.phase = phase == npkit::kInheritPhase ? "inherit" : a.phase_names.at(phase);
  if (a.collective_of_base.at(b) != npkit::kNoCollective) {
    const auto& c = a.collectives.at(static_cast<std::size_t>(a.collective_of_base[b]));
    r.func = c.func;
    r.algo = c.algo;
  }
  return r;
}

npkit::EventTable table(std::string_view name) {
  auto t = npkit::builtin_event_table(name);
  REQUIRE(t.ok());
  return *t;
}

}  // namespace

TEST_CASE("glob_match with '*' only", "[phases][glob]") {
  CHECK(glob_match("*", ""));
  CHECK(glob_match("*", "ABC"));
  CHECK(glob_match("", ""));
  CHECK_FALSE(glob_match("", "A"));
  CHECK(glob_match("ABC", "ABC"));
  CHECK_FALSE(glob_match("ABC", "ABCD"));
  CHECK_FALSE(glob_match("ABCD", "ABC"));
  CHECK(glob_match("A*", "ABC"));
  CHECK_FALSE(glob_match("A*", "BA"));
  CHECK(glob_match("*C", "ABC"));
  CHECK_FALSE(glob_match("*C", "CAB"));
  CHECK(glob_match("A*C", "AC"));
  CHECK_FALSE(glob_match("A*C", "ABCD"));
  CHECK(glob_match("A**B", "AXB"));
  CHECK(glob_match("*A*", "BAB"));
  CHECK(glob_match("PRIM_*_WAIT_*", "PRIM_SIMPLE_WAIT_PEER"));
  CHECK(glob_match("PRIM_*_WAIT_*", "PRIM_LL128_WAIT_SEND"));
  CHECK_FALSE(glob_match("PRIM_*_WAIT_*", "PRIM_LL_DATA_PROCESS"));
  CHECK_FALSE(glob_match("ALL_GATHER_RING_*", "ALL_GATHER_RING"));
  // Backtracking: the first "_X" is not the one that matches.
  CHECK(glob_match("*_X_END", "A_X_B_X_END"));
}

TEST_CASE("phase map: comments, blank lines, 2 or 4 fields", "[phases][parse]") {
  auto m = PhaseMap::parse("# header\n\n  FOO  bar # trailing\nBAZ* other allreduce ring\n",
                           "rules.txt");
  REQUIRE(m.ok());
  REQUIRE(m->rules().size() == 2);
  CHECK(m->rules()[0].pattern == "FOO");
  CHECK(m->rules()[0].phase == "bar");
  CHECK(m->rules()[0].func.empty());
  CHECK(m->rules()[0].origin == "rules.txt:3");
  CHECK(m->rules()[1].func == "allreduce");
  CHECK(m->rules()[1].algo == "ring");
  CHECK(m->rules()[1].origin == "rules.txt:4");
}

TEST_CASE("phase map: wrong field counts name file:line", "[phases][parse]") {
  for (const auto& [text, where] :
       std::vector<std::pair<std::string, std::string>>{{"FOO\n", "r.map:1"},
                                                        {"A b\nFOO bar baz\n", "r.map:2"},
                                                        {"A b\n\n# c\nA b c d e\n", "r.map:4"}}) {
    auto m = PhaseMap::parse(text, "r.map");
    REQUIRE_FALSE(m.ok());
    CHECK_THAT(m.error().message, Catch::Contains(where));
  }
}

TEST_CASE("phase map: bad characters name file:line and the character", "[phases][parse]") {
  auto m = PhaseMap::parse("GOOD ok\nFOO phase/x\n", "u.map");
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.error().message, Catch::Contains("u.map:2"));
  CHECK_THAT(m.error().message, Catch::Contains("'/'"));
  auto q = PhaseMap::parse("FOO? sync\n", "u.map");
  REQUIRE_FALSE(q.ok());
  CHECK_THAT(q.error().message, Catch::Contains("'?'"));
}

TEST_CASE("phase map: the built-in text parses and ends with the catch-all", "[phases]") {
  auto parsed = PhaseMap::parse(PhaseMap::builtin_text(), "built-in");
  REQUIRE(parsed.ok());
  const auto& rules = PhaseMap::builtin().rules();
  REQUIRE(rules.size() == parsed->rules().size());
  CHECK(rules.back().pattern == "*");
  CHECK(rules.back().phase == "inherit");
}

TEST_CASE("assign_phases: built-in rules on the nccl table", "[phases][assign]") {
  const auto t = table("nccl");
  const auto a = npkit::assign_phases(PhaseMap::builtin(), t);
  CHECK(a.phase_names.at(a.other_phase) == "other");
  CHECK(a.phase_of_base.size() == t.base_names().size());
  CHECK(resolve(a, t, "ALL_REDUCE_RING_SEND").phase == "reduce_scatter");
  CHECK(resolve(a, t, "ALL_REDUCE_RING_RECV_REDUCE_SEND").phase == "reduce_scatter");
  CHECK(resolve(a, t, "ALL_REDUCE_RING_DIRECT_RECV_REDUCE_COPY_SEND").phase == "reduce_scatter");
  CHECK(resolve(a, t, "ALL_REDUCE_RING_DIRECT_RECV_COPY_SEND").phase == "all_gather");
  CHECK(resolve(a, t, "ALL_REDUCE_RING_DIRECT_RECV").phase == "all_gather");
  CHECK(resolve(a, t, "PRIM_SIMPLE_WAIT_PEER").phase == "sync");
  CHECK(resolve(a, t, "PRIM_LL_WAIT_SEND").phase == "sync");
  CHECK(resolve(a, t, "PRIM_LL_DATA_PROCESS").phase == "inherit");
  CHECK(resolve(a, t, "SEND").phase == "inherit");
  CHECK(resolve(a, t, "TIME_SYNC_CPU").phase == "inherit");
  CHECK(resolve(a, t, "UNKNOWN_0x4F").phase == "inherit");
  CHECK(resolve(a, t, "NET_SEND").phase == "net_send");
  CHECK(resolve(a, t, "NET_RECV").phase == "net_recv");
  CHECK(resolve(a, t, "SEND_RECV_SEND").phase == "p2p_send");
  CHECK(resolve(a, t, "ALL_REDUCE_TREE_SPLIT_REDUCE").phase == "reduce");

  const auto ring = resolve(a, t, "ALL_REDUCE_RING");
  CHECK(ring.phase == "other");
  CHECK(ring.func == "allreduce");
  CHECK(ring.algo == "ring");
  const auto split = resolve(a, t, "ALL_REDUCE_TREE_SPLIT");
  CHECK(split.func == "allreduce");
  CHECK(split.algo == "tree_split");
  CHECK(resolve(a, t, "ALL_REDUCE_RING_SEND").func.empty());
}

TEST_CASE("assign_phases: rccl and mscclpp names", "[phases][assign]") {
  const auto rccl = table("rccl");
  const auto a = npkit::assign_phases(PhaseMap::builtin(), rccl);
  CHECK(resolve(a, rccl, "ALL_GATHER_RING_SEND").phase == "all_gather");
  CHECK(resolve(a, rccl, "ALL_GATHER_RING").func == "allgather");
  CHECK(resolve(a, rccl, "ALL_GATHER_RING").phase == "other");
  CHECK(resolve(a, rccl, "REDUCE_SCATTER_RING_SEND").phase == "reduce_scatter");
  CHECK(resolve(a, rccl, "NET_TEST").phase == "net_send");

  const auto pp = table("mscclpp");
  const auto b = npkit::assign_phases(PhaseMap::builtin(), pp);
  CHECK(resolve(b, pp, "EXECUTOR_WAIT").phase == "sync");
  CHECK(resolve(b, pp, "EXECUTOR_BARRIER").phase == "sync");
  CHECK(resolve(b, pp, "EXECUTOR_SIGNAL").phase == "inherit");
  CHECK(resolve(b, pp, "CONN_IB_WRITE").phase == "net_send");
  CHECK(resolve(b, pp, "CONN_ETH_RECV_DATA").phase == "net_recv");
  CHECK(resolve(b, pp, "KERNEL_ALLREDUCE").algo == "mscclpp");
}

TEST_CASE("assign_phases: user rules come first", "[phases][assign]") {
  auto user = PhaseMap::parse("ALL_REDUCE_RING_SEND my_phase\nSEND p2p_send\n", "user.map");
  REQUIRE(user.ok());
  const PhaseMap merged = PhaseMap::builtin().with_user_rules(*user);
  REQUIRE(merged.rules().size() == PhaseMap::builtin().rules().size() + 2);
  CHECK(merged.rules()[0].origin == "user.map:1");
  const auto t = table("nccl");
  const auto a = npkit::assign_phases(merged, t);
  CHECK(resolve(a, t, "ALL_REDUCE_RING_SEND").phase == "my_phase");
  CHECK(resolve(a, t, "SEND").phase == "p2p_send");
  // Other names still follow the built-in rules.
  CHECK(resolve(a, t, "ALL_REDUCE_RING_DIRECT_RECV").phase == "all_gather");
}

TEST_CASE("assign_phases: the first matching rule wins, no match inherits", "[phases][assign]") {
  auto m = PhaseMap::parse("NET_* first\nNET_SEND second\n", "m");
  REQUIRE(m.ok());
  const auto t = table("nccl");
  const auto a = npkit::assign_phases(*m, t);
  CHECK(resolve(a, t, "NET_SEND").phase == "first");
  CHECK(resolve(a, t, "ALL_REDUCE_RING").phase == "inherit");
  CHECK(a.collectives.empty());
}
