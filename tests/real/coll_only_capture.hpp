// coll_only_capture.hpp — the capture a rank would have left with fewer event groups, derived
// from a real capture made with NPKIT_EVENTS=all: the records of the event types outside the kept
// groups removed, the event mask and the capture.events metadata set to the new setting, the
// header, section sizes and record counters made to match. Nothing else changes (times, ids,
// strings, threads), so what the analyzer says of the copy is what it would say of a capture made
// with that setting on the same run.
// Contract:
// - write_capture_with: reads `source` (.npkt or .npkt.gz, a dump or a live file), keeps the
//   profiler records whose type is in `kept_types` (EventType bits; unfinished records, kind 0,
//   stay), writes the uncompressed copy to `target` with event_mask `mask` and capture.events
//   `events`. Fails the calling test (Catch REQUIRE) on a file it cannot parse.
// - kCollTypes / kCollMask: NPKIT_EVENTS=coll — Group, Coll and P2p (the mask), and the API
//   events NCCL delivers as their ancestors (GroupApi, CollApi, P2pApi).
#pragma once

#include <cstdint>
#include <string>

namespace npkit::test {

inline constexpr std::uint64_t kCollMask = 0x7;  // Group | Coll | P2p
inline constexpr std::uint64_t kCollTypes = 0x7 | (1u << 8) | (1u << 9) | (1u << 10);

void write_capture_with(const std::string& source, const std::string& target,
                        std::uint64_t kept_types, std::uint64_t mask, const std::string& events);

}  // namespace npkit::test
