// import/npkt/profiler_events.hpp — the events of one .npkt dump, rebuilt from its callback
// records. Contract:
// - One event per start record, ordered by event id (the plugin's ids grow with the buffer
//   index, in each thread's own segments: start order per thread); a later start with an id already
//   seen is NCCL-side garbage or a corrupt file: ignored and counted (duplicate_starts).
// - stop_ns is the host time of the first stop record; kNeverStopped when there is none. A second
//   stop of the same id is NCCL's stale double stop (reference 3.9): counted, ignored.
// - State marks are kept per event in time order (record order for equal times); parent is the
// index of the parent event in
//   this dump, or kNoEvent (no parent, a flagged parent, or an id this dump never started:
//   counted in missing_parents). Children are listed per event in start order.
// - Stops and states naming an id that was never started (its start was dropped, or the dump
//   began after it) are counted, not kept. Host times above INT64_MAX are clamped.
// - Detail records (format minor 3): a kDetailParentGroup sets `group` (the legacy Group event
//   above a Coll or P2p; kNoEvent when absent, flagged or not in this dump: the last counted in
//   missing_parents); a kDetailCeColl is kept in ce_details, a kDetailCallTag (minor 4: user tag,
//   kernel variant, symmetric kernel) in call_tags. The first detail of a kind per event wins;
//   details of an id never started, or of a kind this reader does not know, are counted
//   (details_unknown) and ignored.
// - Columnar: a fixed set of vectors, no heap object per event.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "import/npkt/npkt_dump.hpp"

namespace npkit {

inline constexpr std::uint32_t kNoEvent = 0xFFFFFFFFu;
inline constexpr std::int64_t kNeverStopped = INT64_MIN;
// Event type bit indexes a record can carry (the reader rejects types above 15).
inline constexpr std::size_t kEventTypeSlots = 16;

struct StateMark {
  std::int64_t host_ns = 0;
  std::uint64_t value = 0;  // StatePayload::value
  std::uint32_t state = 0;
  bool has_args = false;
};

struct ProfilerEventCounts {
  std::array<std::uint64_t, kEventTypeSlots> started{};
  std::array<std::uint64_t, kEventTypeSlots> never_stopped{};
  std::uint64_t double_stops = 0;
  std::uint64_t duplicate_starts = 0;
  std::uint64_t stops_unknown_id = 0;
  std::uint64_t states_unknown_id = 0;
  std::uint64_t missing_parents = 0;
  std::uint64_t details_unknown = 0;
};

struct ProfilerEvents {
  std::vector<std::uint64_t> id;
  std::vector<std::uint8_t> type;  // format::EventType
  std::vector<std::uint16_t> thread;
  std::vector<std::uint32_t> start_flags;  // format::kStartParent*
  std::vector<std::uint64_t> parent_id;    // as recorded (0 = none)
  std::vector<std::uint32_t> parent;       // event index or kNoEvent
  std::vector<std::int64_t> start_ns;
  std::vector<std::int64_t> stop_ns;  // kNeverStopped when never stopped
  std::vector<std::array<std::uint8_t, 32>> payload;
  std::vector<std::uint32_t> state_begin;  // size() + 1 offsets into states
  std::vector<StateMark> states;
  std::vector<std::uint32_t> child_begin;  // size() + 1 offsets into children
  std::vector<std::uint32_t> children;
  std::vector<std::uint32_t> group;  // Group event index (kDetailParentGroup) or kNoEvent
  std::vector<std::pair<std::uint32_t, format::CeCollDetail>> ce_details;  // by event index
  std::vector<std::pair<std::uint32_t, format::CallTagDetail>> call_tags;  // by event index
  ProfilerEventCounts counts;

  std::size_t size() const { return id.size(); }
  // The index of the event with `event_id`, or kNoEvent.
  std::uint32_t find(std::uint64_t event_id) const;
  bool stopped(std::uint32_t e) const { return stop_ns[e] != kNeverStopped; }
  std::span<const StateMark> marks(std::uint32_t e) const {
    return {states.data() + state_begin[e], states.data() + state_begin[e + 1]};
  }
  std::span<const std::uint32_t> children_of(std::uint32_t e) const {
    return {children.data() + child_begin[e], children.data() + child_begin[e + 1]};
  }
  // The CE detail of CeColl event `e`, or nullptr.
  const format::CeCollDetail* ce_detail(std::uint32_t e) const;
  // The call-tag detail of event `e`, or nullptr (an untagged call of a plain kernel).
  const format::CallTagDetail* call_tag(std::uint32_t e) const;
  // The user tag of event `e` (format::CallTagDetail::user_tag), 0 when untagged.
  std::uint64_t user_tag(std::uint32_t e) const;
  // The start payload read as one of the format's payload structs.
  template <typename Payload>
  Payload payload_as(std::uint32_t e) const {
    static_assert(sizeof(Payload) == 32);
    Payload p;
    std::memcpy(&p, payload[e].data(), sizeof p);
    return p;
  }
};

ProfilerEvents build_profiler_events(const NpktDump& dump);

// The nearest CollApi, P2pApi or GroupApi ancestor of event `e` (the API call that issued it), or
// kNoEvent; at most 8 levels are walked (a corrupt file's parents may form a cycle).
std::uint32_t api_ancestor(const ProfilerEvents& events, std::uint32_t e);

// The dump's name for an event type (its Names section), else the format's own name.
std::string profiler_type_name(const NpktDump& dump, std::uint32_t type);
// The dump's name for a state number, else NCCL's name without its ncclProfiler prefix.
std::string profiler_state_name(const NpktDump& dump, std::uint32_t state);

}  // namespace npkit
