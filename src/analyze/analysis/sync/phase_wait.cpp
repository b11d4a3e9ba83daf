#include "analysis/sync/phase_wait.hpp"

#include <algorithm>

#include "util/saturating.hpp"

namespace npkit {

PhaseWaitSink::TrackState& PhaseWaitSink::state_of(const TrackRef& track) {
  if (current_ != nullptr && current_track_ == track) return *current_;
  current_ = &tracks_[{track.rank, track.index}];  // map nodes stay put
  current_track_ = track;
  if (current_->pending.empty()) current_->pending.assign(phases_.phase_names.size(), 0);
  return *current_;
}

void PhaseWaitSink::on_span(const Span& span) {
  if (span.track.kind != TrackKind::kGpu || span.phase >= phases_.phase_names.size()) return;
  TrackState& t = state_of(span.track);
  const std::int64_t own = std::max<std::int64_t>(0, sat_sub(span.duration_ns(), span.child_ns));
  std::int64_t& pending = t.pending[span.phase];
  if (pending == 0 && own > 0) t.touched.push_back(span.phase);
  pending = sat_add(pending, own);
  if (span.depth != 0) return;
  const bool collective = span.base < phases_.collective_of_base.size() &&
                          phases_.collective_of_base[span.base] != kNoCollective &&
                          phases_.collectives[phases_.collective_of_base[span.base]].algo != "p2p";
  if (collective) {
    const std::uint64_t m = t.count[{span.base, span.entry_size}]++;
    auto& phases = instances_[{span.base, span.entry_size, m}][span.track.rank];
    for (const std::uint16_t phase : t.touched) {
      phases[phase] = sat_add(phases[phase], t.pending[phase]);
    }
  }
  for (const std::uint16_t phase : t.touched) t.pending[phase] = 0;
  t.touched.clear();
}

void PhaseWaitSink::merge(PhaseWaitSink&& other) {
  for (auto& [key, ranks] : other.instances_) {
    auto& mine = instances_[key];
    for (auto& [rank, phases] : ranks) {
      for (auto& [phase, ns] : phases) mine[rank][phase] = sat_add(mine[rank][phase], ns);
    }
  }
}

PhaseWaits phase_waits(const PhaseWaitSink& sink, const PhaseAssignment& phases) {
  using Key = std::tuple<std::uint64_t, std::uint32_t, std::uint16_t>;  // size, rank, phase
  std::map<Key, PhaseWait> by_size;
  PhaseWaits out;
  for (const auto& [key, ranks] : sink.instances()) {
    if (ranks.size() < 2) continue;
    ++out.instances;
    // Per phase, the least time of the ranks that have the phase at this instance.
    std::map<std::uint16_t, std::int64_t> least;
    for (const auto& [rank, times] : ranks) {
      for (const auto& [phase, ns] : times) {
        const auto [it, fresh] = least.emplace(phase, ns);
        if (!fresh) it->second = std::min(it->second, ns);
      }
    }
    const std::uint32_t size = std::get<1>(key);
    for (const auto& [rank, times] : ranks) {
      for (const auto& [phase, ns] : times) {
        PhaseWait& w = by_size[{size, rank, phase}];
        w.rank = rank;
        w.phase = phases.phase_names[phase];
        w.size = size;
        w.time_ns = sat_add(w.time_ns, ns);
        w.wait_ns = sat_add(w.wait_ns, sat_sub(ns, least[phase]));
      }
    }
  }
  std::map<std::pair<std::uint32_t, std::uint16_t>, PhaseWait> by_rank;
  for (const auto& [key, w] : by_size) {
    const auto& [size, rank, phase] = key;
    out.by_size.push_back(w);
    PhaseWait& r = by_rank[{rank, phase}];
    r.rank = rank;
    r.phase = w.phase;
    r.time_ns = sat_add(r.time_ns, w.time_ns);
    r.wait_ns = sat_add(r.wait_ns, w.wait_ns);
  }
  for (const auto& [key, w] : by_rank) out.ranks.push_back(w);
  return out;
}

}  // namespace npkit
