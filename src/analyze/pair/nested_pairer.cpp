#include "pair/nested_pairer.hpp"

#include "phases/phase_map.hpp"

namespace npkit {

NestedPairer::NestedPairer(const std::vector<std::uint16_t>& phase_of_base,
                           std::uint16_t other_phase)
    : phase_of_base_(phase_of_base), other_phase_(other_phase), seq_(phase_of_base.size(), 0) {}

void NestedPairer::open(std::uint16_t base, std::int64_t ns, std::uint32_t size, std::uint32_t rsvd,
                        std::uint64_t record) {
  std::uint16_t phase = base < phase_of_base_.size() ? phase_of_base_[base] : kInheritPhase;
  if (phase == kInheritPhase) phase = stack_.empty() ? other_phase_ : stack_.back().phase;
  if (base >= seq_.size()) seq_.resize(base + 1u, 0);
  const std::uint16_t root = stack_.empty() ? base : stack_.front().root_base;
  stack_.push_back(OpenEvent{base, phase, root, ns, 0, size, rsvd, record, seq_[base]++});
}

bool NestedPairer::close(std::uint16_t base, std::int64_t ns, std::uint32_t size,
                         std::uint32_t rsvd, std::uint64_t record, Span& out) {
  for (std::size_t i = stack_.size(); i-- > 0;) {
    const OpenEvent& o = stack_[i];
    if (o.base != base) continue;
    out.base = base;
    out.phase = o.phase;
    out.root_base = o.root_base;
    out.depth = static_cast<std::uint32_t>(i);
    out.lane = 0;
    out.start_ns = o.start_ns;
    out.end_ns = ns;
    out.child_ns = o.child_ns;
    out.entry_size = o.size;
    out.exit_size = size;
    out.entry_rsvd = o.rsvd;
    out.exit_rsvd = rsvd;
    out.seq = o.seq;
    out.entry_record = o.record;
    out.exit_record = record;
    if (i > 0) stack_[i - 1].child_ns += ns - o.start_ns;
    stack_.erase(stack_.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }
  return false;
}

std::vector<OpenEvent> NestedPairer::drain_unmatched() {
  std::vector<OpenEvent> left;
  left.swap(stack_);
  seq_.assign(seq_.size(), 0);
  return left;
}

}  // namespace npkit
