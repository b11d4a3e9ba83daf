// join/occurrence_join.hpp — collective instances joined across ranks by order of occurrence, for
// sources without sequence numbers (legacy NPKit dumps: top-level collective spans per GPU buffer;
// device-recorder event records: spans per stream).
// Contract:
// - Input: per (rank, event name, track) the spans in occurrence order, each with its size field.
//   The ranks of a name are every rank with at least one span of that name on any track.
// - Per (name, track) the k-th spans of those ranks are the same operation while every rank has
//   a k-th span and their sizes agree; the first k where that fails ends the joinable prefix of
//   the track. Counts that differ are a "count mismatch" gap naming each rank's count; the first
//   size disagreement a "size mismatch" gap naming k and the sizes.
// - A rank's span at index j of a track is the m-th span of its size on that track (m counted
//   over indexes < j); (name, size, m) is one collective on the rank, across its tracks (the
//   same operation runs on the same set of tracks on every rank: NCCL uses fewer channels for
//   small sizes, so per-track indexes alone do not line up across tracks). Its time on the rank
//   is the earliest start to the latest end over those tracks.
// - An instance is joined only if none of its spans, on any rank and track, lies beyond its
//   track's joinable prefix; the others are counted in a "not joined" gap per name. Nothing is
//   guessed: occurrence order cannot tell where a dropped span was.
// - `incomplete` on an input entry (e.g. "buffer probably overflowed") becomes a "dropped
//   records" gap for that (rank, name, track).
// - Ranks' hosts: the host of an entry; hosts_known when every entry names one.
// - Instances are ordered by their earliest start over ranks, then name, size and m.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sync/cross_rank_input.hpp"

namespace npkit {

struct OccurrenceSpan {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint64_t size = 0;
};

struct RankInstanceTimes {
  std::int32_t rank = 0;
  std::string host;                   // "" = unknown
  std::string name;                   // event name, e.g. ALL_REDUCE_RING
  std::uint32_t track = 0;            // GPU buffer, stream
  std::string track_kind = "buffer";  // how gaps name the track: "buffer 3", "stream 3"
  std::vector<OccurrenceSpan> spans;  // occurrence order
  std::string incomplete;             // why spans may be missing on this track ("" = nothing known)
};

// The joined instances (ranks with their hosts, no phases) of `times`.
CrossRankInput join_by_occurrence(const std::vector<RankInstanceTimes>& times, std::string scope,
                                  std::string time_source);

}  // namespace npkit
