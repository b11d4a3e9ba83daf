// import/chrome_json/json_span_tracks.hpp — where the span decoders of JSON traces send spans, and
// the per-track bookkeeping they share.
// Contract: a JSON trace interleaves its tracks (events are sorted by time), so spans reach a
// JsonSpanTarget one at a time with their track and time domain, never in track order;
// TrackBook keeps each track's TrackStats (events counted as the records of a binary dump's
// file) and lists the tracks in the order the binary reader walks them: rank, GPU buffers before
// CPU channels, index. A track met in two files is kept once (its counts add up).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "run/span.hpp"
#include "run/span_sink.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

class JsonSpanTarget {
 public:
  virtual ~JsonSpanTarget() = default;
  virtual void on_span(const Span& span, TimeDomain domain) = 0;
  virtual void on_unmatched(const UnmatchedEvent& event, TimeDomain domain) = 0;
};

struct JsonTrack {
  TrackRef track;
  std::string path;  // the JSON file that holds it
  TrackStats stats;
};

inline auto track_order(const TrackRef& t) {
  return std::make_tuple(t.rank, t.kind == TrackKind::kGpu ? 0 : 1, t.index);
}

class TrackBook {
 public:
  // The track's entry, made on first use with `domain` and `path`.
  JsonTrack& at(const TrackRef& track, TimeDomain domain, const std::string& path);
  // Every track, in the binary reader's order.
  std::vector<JsonTrack> tracks() const;
  // Ranks with a track (those --ranks selected).
  std::vector<std::uint32_t> ranks() const;

  // Every rank the files hold events of, selected or not.
  void note_rank(std::uint32_t rank) { seen_ranks_.insert(rank); }
  const std::set<std::uint32_t>& seen_ranks() const { return seen_ranks_; }
  // The CPU record layout the CPU events imply: 18 bytes when they carry sender/receiver ranks,
  // 22 when they also carry a step (our traces write those fields only for such dumps).
  void note_cpu_fields(bool ranks, bool step) {
    if (step)
      cpu_record_size_ = 22;
    else if (ranks && cpu_record_size_ < 18)
      cpu_record_size_ = 18;
  }
  unsigned cpu_record_size() const { return cpu_record_size_; }
  // One "unmatched events" warning per track of `path` with an ENTRY or EXIT left unpaired.
  void warn_unmatched(const std::string& path, Diagnostics& diagnostics) const;

 private:
  std::map<std::tuple<std::uint32_t, int, std::uint32_t>, JsonTrack> tracks_;
  JsonTrack* last_ = nullptr;
  std::set<std::uint32_t> seen_ranks_;
  unsigned cpu_record_size_ = 16;
};

// Notes the time of an event on the track (first_ns/last_ns).
inline void note_track_time(TrackStats& s, std::int64_t ns) {
  if (ns < s.first_ns) s.first_ns = ns;
  if (ns > s.last_ns) s.last_ns = ns;
}

}  // namespace npkit
