#include "import/spans/collective_spans.hpp"

#include <fmt/format.h>

namespace npkit {

void CollectiveSpans::begin_track(const TrackFile& file, TimeDomain domain) {
  if (file.track.kind == TrackKind::kGpu && domain != TimeDomain::kHost) {
    off_host_.insert({file.track.rank, file.track.index});
    incomplete_[{file.track.rank, file.track.index}] =
        "no TIME_SYNC: spans on the GPU counter's own clock, not comparable across ranks";
  }
}

void CollectiveSpans::on_span(const Span& span) {
  if (span.depth != 0 || span.track.kind != TrackKind::kGpu) return;
  if (span.base >= phases_.collective_of_base.size()) return;
  const std::int32_t c = phases_.collective_of_base[span.base];
  if (c == kNoCollective || phases_.collectives[c].algo == "p2p") return;
  auto& spans = spans_[{span.track.rank, span.base, span.track.index}];
  if (!off_host_.contains({span.track.rank, span.track.index})) {
    spans.push_back({span.start_ns, span.end_ns, span.entry_size});
  }
}

void CollectiveSpans::end_track(const TrackFile& file, const TrackStats& stats) {
  if (file.track.kind != TrackKind::kGpu) return;
  std::string note;
  auto add = [&](const std::string& s) { note += (note.empty() ? "" : "; ") + s; };
  if (stats.overflowed) add(fmt::format("buffer probably overflowed ({} records)", stats.records));
  if (stats.unmatched_entries + stats.unmatched_exits > 0) {
    add(fmt::format("{} ENTRY without EXIT, {} EXIT without ENTRY", stats.unmatched_entries,
                    stats.unmatched_exits));
  }
  if (stats.partial_bytes > 0) {
    add(fmt::format("{} trailing byte(s) of a partial record", stats.partial_bytes));
  }
  if (note.empty()) return;
  std::string& existing = incomplete_[{file.track.rank, file.track.index}];
  existing += (existing.empty() ? "" : "; ") + note;
}

void CollectiveSpans::merge(CollectiveSpans&& other) {
  for (auto& [key, spans] : other.spans_) {
    auto& mine = spans_[key];
    mine.insert(mine.end(), spans.begin(), spans.end());
  }
  off_host_.insert(other.off_host_.begin(), other.off_host_.end());
  for (auto& [key, note] : other.incomplete_) {
    std::string& mine = incomplete_[key];
    mine += (mine.empty() ? "" : "; ") + note;
  }
}

std::vector<RankInstanceTimes> CollectiveSpans::times() const {
  std::vector<RankInstanceTimes> out;
  for (const auto& [key, spans] : spans_) {
    const auto& [rank, base, buffer] = key;
    RankInstanceTimes t;
    t.rank = static_cast<std::int32_t>(rank);
    t.name = base < base_names_.size() ? base_names_[base] : fmt::format("base {}", base);
    const CollectiveKind& kind = phases_.collectives[phases_.collective_of_base[base]];
    t.func = kind.func;
    t.algo = kind.algo;
    t.track = buffer;
    t.track_kind = track_kind_;
    t.spans = spans;
    const auto note = incomplete_.find({rank, buffer});
    if (note != incomplete_.end()) t.incomplete = note->second;
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace npkit
