#include "import/pair/slot_pairer.hpp"

#include "run/phase_map.hpp"

namespace npkit {

SlotPairer::SlotPairer(const std::vector<std::uint16_t>& phase_of_base, std::uint16_t other_phase)
    : phase_of_base_(phase_of_base), other_phase_(other_phase), seq_(phase_of_base.size(), 0) {}

void SlotPairer::open(std::uint16_t base, std::int64_t ns, std::uint32_t size, std::uint32_t slot,
                      std::uint64_t record) {
  std::uint32_t lane = 0;
  while (lane < lane_busy_.size() && lane_busy_[lane]) ++lane;
  if (lane == lane_busy_.size()) lane_busy_.push_back(false);
  lane_busy_[lane] = true;
  open_.push_back(Open{OpenEvent{.base = base,
                                 .phase = resolve_phase(phase_of_base_, base, other_phase_),
                                 .root_base = base,
                                 .start_ns = ns,
                                 .credit_from_ns = ns,
                                 .size = size,
                                 .rsvd = slot,
                                 .record = record,
                                 .seq = next_seq(seq_, base)},
                       lane});
}

bool SlotPairer::close(std::uint16_t base, std::int64_t ns, std::uint32_t size, std::uint32_t slot,
                       std::uint64_t record, Span& out) {
  for (std::size_t i = open_.size(); i-- > 0;) {
    const Open& o = open_[i];
    if (o.event.base != base || o.event.rsvd != slot) continue;
    out = close_span(o.event, ns, size, slot, record);
    out.lane = o.lane;
    lane_busy_[o.lane] = false;
    open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }
  return false;
}

std::vector<OpenEvent> SlotPairer::drain_unmatched() {
  std::vector<OpenEvent> left;
  for (const auto& o : open_) left.push_back(o.event);
  open_.clear();
  lane_busy_.clear();
  seq_.assign(seq_.size(), 0);
  return left;
}

}  // namespace npkit
