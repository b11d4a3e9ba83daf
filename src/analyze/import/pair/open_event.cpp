#include "import/pair/open_event.hpp"

#include "run/phase_map.hpp"

namespace npkit {

std::uint16_t resolve_phase(const std::vector<std::uint16_t>& phase_of_base, std::uint16_t base,
                            std::uint16_t inherited) {
  const std::uint16_t own = base < phase_of_base.size() ? phase_of_base[base] : kInheritPhase;
  return own == kInheritPhase ? inherited : own;
}

std::uint64_t next_seq(std::vector<std::uint64_t>& counters, std::uint16_t base) {
  if (base >= counters.size()) counters.resize(base + 1u, 0);
  return counters[base]++;
}

Span close_span(const OpenEvent& o, std::int64_t end_ns, std::uint32_t exit_size,
                std::uint32_t exit_rsvd, std::uint64_t exit_record) {
  Span s;
  s.base = o.base;
  s.phase = o.phase;
  s.root_base = o.root_base;
  s.start_ns = o.start_ns;
  s.end_ns = end_ns;
  s.child_ns = o.child_ns;
  s.entry_size = o.size;
  s.exit_size = exit_size;
  s.entry_rsvd = o.rsvd;
  s.exit_rsvd = exit_rsvd;
  s.seq = o.seq;
  s.entry_record = o.record;
  s.exit_record = exit_record;
  return s;
}

}  // namespace npkit
