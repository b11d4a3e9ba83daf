// fuzz_event_header.cpp — libFuzzer target for the analyzer's text parsers: the input is parsed
// as an npkit_event.h (parse_event_header), as a phase-rule file (PhaseMap::parse, then resolved
// against the parsed or the built-in table with assign_phases), and — since they take the same
// kind of short untrusted text — as a clock-file value (parse_decimal_rational) and a `--ranks`
// list (RankFilter::parse).
// Contract: never crashes, hangs or trips a sanitizer; results satisfy the invariants checked
// below (abort() otherwise); errors carry a message.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "import/legacy/clock_files.hpp"
#include "run/event_table.hpp"
#include "run/phase_map.hpp"
#include "run/rank_filter.hpp"
#include "util/diagnostics.hpp"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_event_header: contract violated: %s\n", what);
  std::abort();
}

void check_table(const npkit::EventTable& table) {
  for (int id = 0; id < 256; ++id) {
    const npkit::EventName& e = table[static_cast<std::uint8_t>(id)];
    check(e.base < table.base_names().size() || !e.defined, "event base out of range");
    check(!e.full.empty(), "event without a name");
  }
}

void check_assignment(const npkit::PhaseAssignment& a, const npkit::EventTable& table) {
  check(a.phase_of_base.size() == table.base_names().size(), "phase_of_base size");
  check(a.collective_of_base.size() == table.base_names().size(), "collective_of_base size");
  check(a.other_phase < a.phase_names.size(), "other phase out of range");
  for (auto p : a.phase_of_base) {
    check(p == npkit::kInheritPhase || p < a.phase_names.size(), "phase out of range");
  }
  for (auto c : a.collective_of_base) {
    check(
        c == npkit::kNoCollective || (c >= 0 && static_cast<std::size_t>(c) < a.collectives.size()),
        "collective out of range");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  npkit::Diagnostics diagnostics;
  auto table = npkit::parse_event_header(text, "fuzz/npkit_event.h", diagnostics);
  if (table) {
    check_table(*table);
  } else {
    check(!table.error().message.empty(), "empty error message");
  }

  auto map = npkit::PhaseMap::parse(text, "fuzz/phases.txt");
  if (map) {
    for (const auto& rule : map->rules()) {
      check(!rule.pattern.empty() && !rule.phase.empty(), "rule with an empty field");
    }
    const npkit::PhaseMap merged = npkit::PhaseMap::builtin().with_user_rules(*map);
    check(merged.rules().size() == map->rules().size() + npkit::PhaseMap::builtin().rules().size(),
          "merged rule count");
    if (table) {
      check_assignment(npkit::assign_phases(merged, *table), *table);
    } else {
      auto nccl = npkit::builtin_event_table("nccl");
      check(nccl.ok(), "built-in nccl table");
      check_assignment(npkit::assign_phases(merged, *nccl), *nccl);
    }
  } else {
    check(!map.error().message.empty(), "empty error message");
  }

  auto value = npkit::parse_decimal_rational(text, "fuzz value");
  if (value) check(value->num > 0 && value->den > 0, "non-positive rational");

  auto ranks = npkit::RankFilter::parse(text);
  if (ranks) {
    volatile bool any = ranks->contains(0) || ranks->contains(7) || ranks->contains(UINT32_MAX);
    (void)any;
  } else {
    check(!ranks.error().message.empty(), "empty error message");
  }

  (void)npkit::event_base_name(text);
  return 0;
}
