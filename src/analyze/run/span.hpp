// span.hpp — a paired ENTRY/EXIT event on one track, in host nanoseconds.
// Contract: produced by the span reader, consumed by every analysis; start/end are on the
// track's time domain (host epoch ns when the GPU clock was aligned through TIME_SYNC events,
// else the GPU counter's own ns — see TrackTiming). `phase` is the effective phase (own rule or
// inherited from the enclosing span); `child_ns` is the time covered by direct children, so
// duration − child_ns is the span's exclusive time.
#pragma once

#include <cstdint>

#include "run/track.hpp"
#include "util/saturating.hpp"

namespace npkit {

struct Span {
  TrackRef track;
  std::uint16_t base = 0;       // EventTable base-name index
  std::uint16_t phase = 0;      // PhaseAssignment phase id
  std::uint16_t root_base = 0;  // base name of the outermost span open at ENTRY (itself at depth 0)
  std::uint32_t depth = 0;      // number of enclosing open spans (GPU); 0 on CPU tracks
  std::uint32_t lane = 0;       // CPU "fiber" (lowest free lane at ENTRY); 0 on GPU tracks
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t child_ns = 0;
  std::uint32_t entry_size = 0;
  std::uint32_t exit_size = 0;
  std::uint32_t entry_rsvd = 0;
  std::uint32_t exit_rsvd = 0;
  std::uint64_t seq = 0;  // k-th ENTRY of this name on this track, from 0
  std::uint64_t entry_record = 0;
  std::uint64_t exit_record = 0;
  std::uint8_t sender_rank = 0;    // 18/22-byte CPU records
  std::uint8_t receiver_rank = 0;  // 18/22-byte CPU records
  std::uint32_t step = 0;          // 22-byte CPU records

  std::int64_t duration_ns() const { return sat_sub(end_ns, start_ns); }
};

}  // namespace npkit
