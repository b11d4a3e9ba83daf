#include "import/chrome_json/json_span_tracks.hpp"

namespace npkit::ingest {

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

}  // namespace npkit::ingest
