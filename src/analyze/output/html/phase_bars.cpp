#include "output/html/phase_bars.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>

namespace npkit::html {

StackedBars phase_bars(const PhaseAssignment& phases, const std::vector<RankPhases>& ranks,
                       bool gpu, std::string title, const std::string& span_kind) {
  const auto& names = phases.phase_names;
  std::vector<std::size_t> ids;
  for (std::size_t p = 0; p < names.size(); ++p) {
    if (p == phases.other_phase) continue;
    for (const auto& r : ranks) {
      const auto& t = gpu ? r.gpu : r.cpu;
      if (p < t.size() && (t[p].ns != 0 || t[p].count != 0)) {
        ids.push_back(p);
        break;
      }
    }
  }
  ids.push_back(phases.other_phase);
  StackedBars b;
  b.title = std::move(title);
  std::int64_t reference = 0;
  std::int64_t other = 0;
  for (std::size_t p : ids) b.segments.push_back(names[p]);
  for (const auto& r : ranks) {
    b.bars.push_back(fmt::format("rank {}", r.rank));
    const auto& t = gpu ? r.gpu : r.cpu;
    std::vector<double> v;
    for (std::size_t p : ids) v.push_back(p < t.size() ? static_cast<double>(t[p].ns) : 0.0);
    b.values.push_back(std::move(v));
    reference += gpu ? r.gpu_reference_ns : r.cpu_reference_ns;
    if (phases.other_phase < t.size()) other += t[phases.other_phase].ns;
  }
  const double explained = reference > 0 ? 100.0 * static_cast<double>(reference - other) /
                                               static_cast<double>(reference)
                                         : 0.0;
  b.note = fmt::format(
      "Exclusive time of every span (its duration minus its children's) by the phase its rule "
      "gives; a bar adds up to the rank's {} time. The named phases explain {:.1f}%; \"other\" is "
      "what no rule names.",
      span_kind, explained);
  return b;
}

bool has_cpu_time(const std::vector<RankPhases>& ranks) {
  for (const auto& r : ranks) {
    if (r.cpu_reference_ns > 0) return true;
  }
  return false;
}

}  // namespace npkit::html
