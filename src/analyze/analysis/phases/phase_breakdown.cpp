#include "analysis/phases/phase_breakdown.hpp"

#include <algorithm>

#include "util/saturating.hpp"

namespace npkit {

RankPhases& PhaseBreakdownSink::rank(std::uint32_t r) {
  if (!ranks_.empty() && ranks_.back().rank == r) return ranks_.back();
  for (auto& x : ranks_) {
    if (x.rank == r) return x;
  }
  RankPhases p;
  p.rank = r;
  p.gpu.resize(phases_.phase_names.size());
  p.cpu.resize(phases_.phase_names.size());
  ranks_.push_back(std::move(p));
  return ranks_.back();
}

void PhaseBreakdownSink::on_span(const Span& span) {
  RankPhases& r = rank(span.track.rank);
  const bool gpu = span.track.kind == TrackKind::kGpu;
  std::int64_t exclusive = sat_sub(span.duration_ns(), span.child_ns);
  if (exclusive < 0) {
    exclusive = 0;
    ++clamped_;
  }
  PhaseTotal& t = (gpu ? r.gpu : r.cpu)[span.phase];
  t.ns = sat_add(t.ns, exclusive);
  if (span.base < phases_.phase_of_base.size() &&
      phases_.phase_of_base[span.base] != kInheritPhase) {
    ++t.count;
  }
  if (gpu && span.depth == 0) r.gpu_reference_ns = sat_add(r.gpu_reference_ns, span.duration_ns());
  if (!gpu && span.depth == 0) {
    r.cpu_reference_ns = sat_add(r.cpu_reference_ns, span.duration_ns());
  }
}

void PhaseBreakdownSink::merge(const PhaseBreakdownSink& other) {
  for (const auto& o : other.ranks_) {
    RankPhases& r = rank(o.rank);
    r.gpu_reference_ns = sat_add(r.gpu_reference_ns, o.gpu_reference_ns);
    r.cpu_reference_ns = sat_add(r.cpu_reference_ns, o.cpu_reference_ns);
    for (std::size_t p = 0; p < r.gpu.size(); ++p) {
      r.gpu[p].ns = sat_add(r.gpu[p].ns, o.gpu[p].ns);
      r.gpu[p].count += o.gpu[p].count;
      r.cpu[p].ns = sat_add(r.cpu[p].ns, o.cpu[p].ns);
      r.cpu[p].count += o.cpu[p].count;
    }
  }
  clamped_ += other.clamped_;
}

std::vector<PhaseSpread> phase_spreads(const std::vector<RankPhases>& ranks,
                                       const PhaseAssignment& phases) {
  std::vector<PhaseSpread> out;
  for (const bool gpu : {true, false}) {
    for (std::size_t p = 0; p < phases.phase_names.size(); ++p) {
      std::vector<std::pair<std::int64_t, std::uint32_t>> per_rank;
      PhaseSpread s;
      s.phase = phases.phase_names[p];
      s.gpu = gpu;
      for (const auto& r : ranks) {
        const PhaseTotal& t = (gpu ? r.gpu : r.cpu)[p];
        per_rank.emplace_back(t.ns, r.rank);
        s.total_ns = sat_add(s.total_ns, t.ns);
        s.count += t.count;
      }
      if (s.total_ns == 0 && s.count == 0) continue;
      std::sort(per_rank.begin(), per_rank.end());
      s.min_ns = per_rank.front().first;
      s.max_ns = per_rank.back().first;
      s.slowest_rank = per_rank.back().second;
      const std::size_t n = per_rank.size();
      s.median_ns =
          n % 2 == 1
              ? per_rank[n / 2].first
              : static_cast<std::int64_t>(
                    (static_cast<__int128>(per_rank[n / 2 - 1].first) + per_rank[n / 2].first) / 2);
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::vector<RankInfo> gpu_phase_infos(const std::vector<RankPhases>& ranks,
                                      const PhaseAssignment& phases) {
  std::vector<RankInfo> infos;
  for (const auto& r : ranks) {
    RankInfo info;
    info.rank = static_cast<std::int32_t>(r.rank);
    info.reference_ns = r.gpu_reference_ns;
    for (std::size_t p = 0; p < r.gpu.size() && p < phases.phase_names.size(); ++p) {
      if (r.gpu[p].ns == 0 && r.gpu[p].count == 0) continue;
      info.phases.push_back({phases.phase_names[p], r.gpu[p].ns});
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

}  // namespace npkit
