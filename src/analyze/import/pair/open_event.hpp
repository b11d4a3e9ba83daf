// open_event.hpp — an ENTRY waiting for its EXIT, shared by the GPU and CPU pairers.
// Contract: plain data plus the three steps both pairers take: resolve a span's phase (own rule
// or inherited), number ENTRYs per name, and turn an open event and its EXIT into a Span
// (depth, lane and child time are the caller's to set).
#pragma once

#include <cstdint>
#include <vector>

#include "run/span.hpp"

namespace npkit {

struct OpenEvent {
  std::uint16_t base = 0;
  std::uint16_t phase = 0;
  std::uint16_t root_base = 0;
  std::int64_t start_ns = 0;
  std::int64_t child_ns = 0;
  std::int64_t credit_from_ns = 0;  // time before this is already counted in an enclosing child
  std::uint32_t size = 0;
  std::uint32_t rsvd = 0;
  std::uint64_t record = 0;
  std::uint64_t seq = 0;
};

// The phase of a span named `base`: its rule's phase, or `inherited` where the rule says inherit.
std::uint16_t resolve_phase(const std::vector<std::uint16_t>& phase_of_base, std::uint16_t base,
                            std::uint16_t inherited);

// The next ENTRY number of `base` (0, 1, 2, ...), growing `counters` as needed.
std::uint64_t next_seq(std::vector<std::uint64_t>& counters, std::uint16_t base);

Span close_span(const OpenEvent& open, std::int64_t end_ns, std::uint32_t exit_size,
                std::uint32_t exit_rsvd, std::uint64_t exit_record);

}  // namespace npkit
