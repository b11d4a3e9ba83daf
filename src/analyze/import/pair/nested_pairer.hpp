// nested_pairer.hpp — ENTRY/EXIT pairing on a GPU track: a stack keyed by event name.
// Contract: open() pushes an ENTRY; close() matches an EXIT with the innermost open ENTRY of the
// same base name, at any depth, and fills the Span (depth = open spans below it). A closed span's
// time counts as child time of the span below it; when events interleave (a span closes while a
// span opened inside it is still open), time covered by two children is counted once, so
// child_ns never exceeds the duration. Never pairs by id parity or "EXIT = ENTRY + 1".
// An EXIT with no open ENTRY of its name returns false (the caller counts it as unmatched);
// entries still open at the end are handed out by drain_unmatched().
#pragma once

#include <cstdint>
#include <vector>

#include "import/pair/open_event.hpp"
#include "run/span.hpp"

namespace npkit {

class NestedPairer {
 public:
  // `phase_of_base`: per base name, its phase id or kInheritPhase; `other_phase` is used for
  // inheriting spans at top level.
  NestedPairer(const std::vector<std::uint16_t>& phase_of_base, std::uint16_t other_phase);

  void open(std::uint16_t base, std::int64_t ns, std::uint32_t size, std::uint32_t rsvd,
            std::uint64_t record);
  bool close(std::uint16_t base, std::int64_t ns, std::uint32_t size, std::uint32_t rsvd,
             std::uint64_t record, Span& out);
  // The entries left open, innermost last; empties the stack and restarts sequence numbers.
  std::vector<OpenEvent> drain_unmatched();

 private:
  const std::vector<std::uint16_t>& phase_of_base_;
  std::uint16_t other_phase_;
  std::vector<OpenEvent> stack_;
  std::vector<std::uint64_t> seq_;
};

}  // namespace npkit
