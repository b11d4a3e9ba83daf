// track.hpp — identity of one event stream (a track): rank × GPU buffer or rank × CPU channel,
// and the file (or stream) it was read from.
// Contract: plain value types shared by every stage; no behaviour.
#pragma once

#include <cstdint>
#include <string>

namespace npkit {

enum class TrackKind : std::uint8_t { kGpu, kCpu };

struct TrackRef {
  std::uint32_t rank = 0;
  TrackKind kind = TrackKind::kGpu;
  std::uint32_t index = 0;  // GPU buffer index or CPU channel

  friend bool operator==(const TrackRef&, const TrackRef&) = default;
};

// A track and where its records came from: a legacy dump's file, a .npkt stream, a JSON trace.
struct TrackFile {
  TrackRef track;
  std::string path;
  std::uint64_t bytes = 0;
};

inline const char* track_kind_name(TrackKind kind) {
  return kind == TrackKind::kGpu ? "gpu" : "cpu";
}

// "rank 3 gpu buffer 17" — for messages.
std::string describe_track(const TrackRef& track);

}  // namespace npkit
