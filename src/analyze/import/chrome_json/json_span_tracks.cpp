#include "import/chrome_json/json_span_tracks.hpp"

#include <fmt/format.h>

namespace npkit {

JsonTrack& TrackBook::at(const TrackRef& track, TimeDomain domain, const std::string& path) {
  if (last_ != nullptr && last_->track == track) return *last_;
  auto [it, inserted] = tracks_.try_emplace(track_order(track));
  if (inserted) {
    it->second.track = track;
    it->second.path = path;
    it->second.stats.domain = domain;
  }
  last_ = &it->second;
  return it->second;
}

std::vector<JsonTrack> TrackBook::tracks() const {
  std::vector<JsonTrack> out;
  out.reserve(tracks_.size());
  for (const auto& [key, t] : tracks_) out.push_back(t);
  return out;
}

std::vector<std::uint32_t> TrackBook::ranks() const {
  std::vector<std::uint32_t> out;
  for (const auto& [key, t] : tracks_) {
    if (out.empty() || out.back() != t.track.rank) out.push_back(t.track.rank);
  }
  return out;
}

void TrackBook::warn_unmatched(const std::string& path, Diagnostics& diagnostics) const {
  for (const auto& [key, t] : tracks_) {
    if (t.path != path) continue;
    const TrackStats& s = t.stats;
    if (s.unmatched_entries + s.unmatched_exits == 0) continue;
    diagnostics.warn("unmatched events",
                     fmt::format("{} ({}): {} ENTRY without EXIT, {} EXIT without ENTRY", path,
                                 describe_track(t.track), s.unmatched_entries, s.unmatched_exits),
                     s.unmatched_entries + s.unmatched_exits);
  }
}

}  // namespace npkit
