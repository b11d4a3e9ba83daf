// slot_pairer.hpp — ENTRY/EXIT pairing on a CPU (proxy) channel, as NPKit's fibers do.
// Contract: CPU events of one channel interleave (several network requests in flight); the
// rsvd field holds a per-request "slot". open() takes the lowest free lane (the generator's
// "fiber") for (base name, slot); close() matches the most recent open event with the same
// base name and slot and frees its lane. Spans carry the lane so a timeline can draw
// overlapping requests on separate rows.
#pragma once

#include <cstdint>
#include <vector>

#include "import/pair/nested_pairer.hpp"
#include "run/span.hpp"

namespace npkit {

class SlotPairer {
 public:
  SlotPairer(const std::vector<std::uint16_t>& phase_of_base, std::uint16_t other_phase);

  void open(std::uint16_t base, std::int64_t ns, std::uint32_t size, std::uint32_t slot,
            std::uint64_t record);
  bool close(std::uint16_t base, std::int64_t ns, std::uint32_t size, std::uint32_t slot,
             std::uint64_t record, Span& out);
  std::vector<OpenEvent> drain_unmatched();

 private:
  struct Open {
    OpenEvent event;
    std::uint32_t lane;
  };
  const std::vector<std::uint16_t>& phase_of_base_;
  std::uint16_t other_phase_;
  std::vector<Open> open_;
  std::vector<bool> lane_busy_;
  std::vector<std::uint64_t> seq_;
};

}  // namespace npkit
