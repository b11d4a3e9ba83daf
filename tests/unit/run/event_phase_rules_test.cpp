// assign_phases_with_hints: the phases of .npkt event names — --phase-map rules first, then the
// name table's phase hint, then the built-in rules.
#include <catch2/catch.hpp>

#include "run/phase_map.hpp"

using npkit::kInheritPhase;
using npkit::kNoCollective;
using npkit::PhaseMap;

namespace {

std::string phase(const npkit::PhaseAssignment& a, std::size_t base) {
  const std::uint16_t p = a.phase_of_base.at(base);
  return p == kInheritPhase ? "inherit" : a.phase_names.at(p);
}

PhaseMap rules(std::string_view text) {
  auto m = PhaseMap::parse(text, "test");
  REQUIRE(m.ok());
  return *m;
}

}  // namespace

TEST_CASE("event phases: hint, then built-in rules", "[phases][events]") {
  const std::vector<std::string> bases = {"ALLREDUCE",        "ALLREDUCE_RS",
                                          "ALLREDUCE_RING_X", "PRIM_LL_WAIT_SEND",
                                          "ALL_REDUCE_RING",  "MARK"};
  const std::vector<std::string> hints = {"", "reduce_scatter", "", "", "", "inherit"};
  const auto a = npkit::assign_phases_with_hints(PhaseMap{}, bases, hints, PhaseMap::builtin());
  CHECK(a.phase_names.front() == "other");
  CHECK(phase(a, 0) == "inherit");  // no hint: the built-in '*' rule
  CHECK(phase(a, 1) == "reduce_scatter");
  CHECK(phase(a, 2) == "inherit");
  CHECK(phase(a, 3) == "sync");   // built-in PRIM_*_WAIT_*
  CHECK(phase(a, 4) == "other");  // built-in whole collective, with its func and algo
  REQUIRE(a.collective_of_base.at(4) != kNoCollective);
  CHECK(a.collectives.at(a.collective_of_base[4]).func == "allreduce");
  CHECK(a.collectives.at(a.collective_of_base[4]).algo == "ring");
  CHECK(a.collective_of_base.at(1) == kNoCollective);
  CHECK(phase(a, 5) == "inherit");  // a hint may say inherit
  // Phase ids in order of first use: other, reduce_scatter, sync.
  CHECK(a.phase_names == std::vector<std::string>{"other", "reduce_scatter", "sync"});
}

TEST_CASE("event phases: --phase-map rules take precedence over hints", "[phases][events]") {
  const std::vector<std::string> bases = {"ALLREDUCE", "ALLREDUCE_SYNC_WAIT", "ALLREDUCE_RS"};
  const std::vector<std::string> hints = {"", "sync", "reduce_scatter"};
  const PhaseMap user = rules(
      "ALLREDUCE_SYNC_*  peer_wait\n"
      "ALLREDUCE         launch  allreduce  custom\n");
  const auto a = npkit::assign_phases_with_hints(user, bases, hints, PhaseMap::builtin());
  CHECK(phase(a, 0) == "launch");
  REQUIRE(a.collective_of_base.at(0) != kNoCollective);
  CHECK(a.collectives.at(a.collective_of_base[0]).algo == "custom");
  CHECK(phase(a, 1) == "peer_wait");
  CHECK(phase(a, 2) == "reduce_scatter");  // no user rule: the hint
  CHECK(a.phase_names ==
        std::vector<std::string>{"other", "launch", "peer_wait", "reduce_scatter"});
}

TEST_CASE("event phases: no fallback leaves unhinted names inheriting", "[phases][events]") {
  const std::vector<std::string> bases = {"A", "B"};
  const auto a = npkit::assign_phases_with_hints(PhaseMap{}, bases, {"", "x"}, PhaseMap{});
  CHECK(phase(a, 0) == "inherit");
  CHECK(phase(a, 1) == "x");
  // Hints shorter than the bases: the rest have none.
  const auto b = npkit::assign_phases_with_hints(PhaseMap{}, bases, {}, PhaseMap::builtin());
  CHECK(phase(b, 0) == "inherit");
  CHECK(phase(b, 1) == "inherit");
}
