#include "import/pair/nested_pairer.hpp"

#include <algorithm>

#include "run/phase_map.hpp"
#include "util/saturating.hpp"

namespace npkit {

NestedPairer::NestedPairer(const std::vector<std::uint16_t>& phase_of_base,
                           std::uint16_t other_phase)
    : phase_of_base_(phase_of_base), other_phase_(other_phase), seq_(phase_of_base.size(), 0) {}

void NestedPairer::open(std::uint16_t base, std::int64_t ns, std::uint32_t size, std::uint32_t rsvd,
                        std::uint64_t record) {
  const std::uint16_t inherited = stack_.empty() ? other_phase_ : stack_.back().phase;
  const std::uint16_t root = stack_.empty() ? base : stack_.front().root_base;
  stack_.push_back(OpenEvent{.base = base,
                             .phase = resolve_phase(phase_of_base_, base, inherited),
                             .root_base = root,
                             .start_ns = ns,
                             .credit_from_ns = ns,
                             .size = size,
                             .rsvd = rsvd,
                             .record = record,
                             .seq = next_seq(seq_, base)});
}

bool NestedPairer::close(std::uint16_t base, std::int64_t ns, std::uint32_t size,
                         std::uint32_t rsvd, std::uint64_t record, Span& out) {
  for (std::size_t i = stack_.size(); i-- > 0;) {
    const OpenEvent& o = stack_[i];
    if (o.base != base) continue;
    out = close_span(o, ns, size, rsvd, record);
    out.depth = static_cast<std::uint32_t>(i);
    if (i + 1 < stack_.size()) {
      // A span opened inside this one is still open: the part of it up to now lies inside this
      // span, and the span below must not count it again.
      OpenEvent& inner = stack_[i + 1];
      out.child_ns = sat_add(
          out.child_ns,
          std::max<std::int64_t>(0, sat_sub(ns, std::max(inner.start_ns, inner.credit_from_ns))));
      inner.credit_from_ns = std::max(inner.credit_from_ns, ns);
    }
    if (i > 0) {
      stack_[i - 1].child_ns =
          sat_add(stack_[i - 1].child_ns,
                  std::max<std::int64_t>(0, sat_sub(ns, std::max(o.start_ns, o.credit_from_ns))));
    }
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
