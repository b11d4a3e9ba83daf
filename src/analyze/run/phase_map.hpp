// phase_map.hpp — the rule table that maps span names to phases and collective operations.
// Contract: rules are data — built-in text (docs/phases.md) plus optional user rules from
// `--phase-map FILE`, which take precedence. Each line is `PATTERN PHASE [FUNC ALGO]`, where
// PATTERN is an event base name with `*` wildcards, PHASE a phase name or `inherit` (the span
// takes its enclosing span's phase; at top level it is `other`), and FUNC/ALGO mark the span as
// a whole collective operation (for per-collective bandwidth). The first matching rule wins.
// '#' starts a comment.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "run/event_table.hpp"
#include "util/result.hpp"

namespace npkit {

struct PhaseRule {
  std::string pattern;
  std::string phase;
  std::string func;  // empty unless the span is a whole collective
  std::string algo;
  std::string origin;  // "file:line" for messages
};

class PhaseMap {
 public:
  static Result<PhaseMap> parse(std::string_view text, const std::string& source);
  static const PhaseMap& builtin();
  static std::string_view builtin_text();

  // The rules of `user` first, then these.
  PhaseMap with_user_rules(const PhaseMap& user) const;
  const std::vector<PhaseRule>& rules() const { return rules_; }

 private:
  std::vector<PhaseRule> rules_;
};

inline constexpr std::uint16_t kInheritPhase = 0xFFFF;
inline constexpr std::int32_t kNoCollective = -1;

struct CollectiveKind {
  std::string func;  // allreduce, allgather, reducescatter, broadcast, sendrecv, ...
  std::string algo;  // ring, tree, tree_split, ...
};

// The rules resolved against one event table: per base name, its phase and collective kind.
struct PhaseAssignment {
  std::vector<std::string> phase_names;  // phase id → name; "other" is always present
  std::uint16_t other_phase = 0;
  std::vector<std::uint16_t> phase_of_base;      // kInheritPhase where the rule says inherit
  std::vector<std::int32_t> collective_of_base;  // index into collectives or kNoCollective
  std::vector<CollectiveKind> collectives;
};

PhaseAssignment assign_phases(const PhaseMap& map, const EventTable& table);

// The rules resolved against named events that carry phase hints (.npkt event records): per base
// name b, the first matching rule of `user`, else `hints[b]` when it is not empty ("inherit"
// allowed), else the first matching rule of `fallback`. `hints` is parallel to `bases`.
PhaseAssignment assign_phases_with_hints(const PhaseMap& user,
                                         const std::vector<std::string>& bases,
                                         const std::vector<std::string>& hints,
                                         const PhaseMap& fallback);

// Glob match with '*' only.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace npkit
