#include "import/npkt/profiler_events.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace npkit {
namespace {

std::int64_t host_time(std::uint64_t ns) {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(std::min(ns, kMax));
}

// Start offsets per bucket (buckets + 1 entries) of a counting sort of `keys`, each < buckets.
std::vector<std::uint32_t> bucket_offsets(const std::vector<std::uint32_t>& keys,
                                          std::size_t buckets) {
  std::vector<std::uint32_t> begin(buckets + 1, 0);
  for (auto k : keys) ++begin[k + 1];
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  return begin;
}

// A detail record: the Group id of a Coll/P2p (resolved once every start is known), a CE detail
// or a call tag.
void add_detail(ProfilerEvents& ev, const format::ProfilerRecord& rec,
                std::vector<std::uint64_t>& group_ids) {
  const std::uint32_t e = ev.find(rec.event_id);
  if (e != kNoEvent && rec.word == format::kDetailParentGroup) {
    format::ParentGroupDetail detail;
    std::memcpy(&detail, rec.payload, sizeof detail);
    if (group_ids[e] == 0) group_ids[e] = detail.group_id;
    return;
  }
  if (e != kNoEvent && rec.word == format::kDetailCeColl) {
    format::CeCollDetail detail;
    std::memcpy(&detail, rec.payload, sizeof detail);
    ev.ce_details.emplace_back(e, detail);
    return;
  }
  if (e != kNoEvent && rec.word == format::kDetailCallTag) {
    format::CallTagDetail detail;
    std::memcpy(&detail, rec.payload, sizeof detail);
    ev.call_tags.emplace_back(e, detail);
    return;
  }
  ++ev.counts.details_unknown;
}

// Sorts per-event details by event index, keeping the first of each event.
template <typename Detail>
void keep_first_per_event(std::vector<std::pair<std::uint32_t, Detail>>& details) {
  std::stable_sort(details.begin(), details.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  details.erase(std::unique(details.begin(), details.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                details.end());
}

template <typename Detail>
const Detail* detail_of(const std::vector<std::pair<std::uint32_t, Detail>>& details,
                        std::uint32_t e) {
  const auto it = std::lower_bound(details.begin(), details.end(), e,
                                   [](const auto& d, std::uint32_t v) { return d.first < v; });
  return it != details.end() && it->first == e ? &it->second : nullptr;
}

}  // namespace

const format::CeCollDetail* ProfilerEvents::ce_detail(std::uint32_t e) const {
  return detail_of(ce_details, e);
}

const format::CallTagDetail* ProfilerEvents::call_tag(std::uint32_t e) const {
  return detail_of(call_tags, e);
}

std::uint64_t ProfilerEvents::user_tag(std::uint32_t e) const {
  const format::CallTagDetail* tag = call_tag(e);
  return tag != nullptr ? tag->user_tag : 0;
}

std::uint32_t ProfilerEvents::find(std::uint64_t event_id) const {
  const auto it = std::lower_bound(id.begin(), id.end(), event_id);
  if (it == id.end() || *it != event_id) return kNoEvent;
  return static_cast<std::uint32_t>(it - id.begin());
}

ProfilerEvents build_profiler_events(const NpktDump& dump) {
  ProfilerEvents ev;
  const auto& records = dump.records;

  // Starts, ordered by id; the first start of an id wins.
  std::vector<std::uint32_t> starts;
  for (std::uint32_t r = 0; r < records.size(); ++r) {
    if (records[r].kind == format::kRecordStart) starts.push_back(r);
  }
  std::stable_sort(starts.begin(), starts.end(), [&](std::uint32_t a, std::uint32_t b) {
    return records[a].event_id < records[b].event_id;
  });
  const auto unique_end = std::unique(starts.begin(), starts.end(), [&](auto a, auto b) {
    return records[a].event_id == records[b].event_id;
  });
  ev.counts.duplicate_starts = static_cast<std::uint64_t>(starts.end() - unique_end);
  starts.erase(unique_end, starts.end());

  const std::size_t n = starts.size();
  ev.id.resize(n);
  ev.type.resize(n);
  ev.thread.resize(n);
  ev.start_flags.resize(n);
  ev.parent_id.resize(n);
  ev.parent.resize(n, kNoEvent);
  ev.start_ns.resize(n);
  ev.stop_ns.resize(n, kNeverStopped);
  ev.payload.resize(n);
  for (std::size_t e = 0; e < n; ++e) {
    const format::ProfilerRecord& rec = records[starts[e]];
    ev.id[e] = rec.event_id;
    ev.type[e] = rec.type;
    ev.thread[e] = rec.thread;
    ev.start_flags[e] = rec.word;
    ev.parent_id[e] = rec.parent_id;
    ev.start_ns[e] = host_time(rec.host_ns);
    std::copy(std::begin(rec.payload), std::end(rec.payload), ev.payload[e].begin());
  }

  // Stops, states and details.
  std::vector<std::uint32_t> mark_owner;
  ev.group.resize(n, kNoEvent);
  std::vector<std::uint64_t> group_ids(n, 0);
  for (const auto& rec : records) {
    if (rec.kind == format::kRecordDetail) {
      add_detail(ev, rec, group_ids);
      continue;
    }
    if (rec.kind != format::kRecordStop && rec.kind != format::kRecordState) continue;
    const std::uint32_t e = ev.find(rec.event_id);
    if (rec.kind == format::kRecordStop) {
      if (e == kNoEvent) {
        ++ev.counts.stops_unknown_id;
      } else if (ev.stop_ns[e] == kNeverStopped) {
        ev.stop_ns[e] = host_time(rec.host_ns);
      } else {
        ++ev.counts.double_stops;
      }
      continue;
    }
    if (e == kNoEvent) {
      ++ev.counts.states_unknown_id;
      continue;
    }
    format::StatePayload args;
    std::memcpy(&args, rec.payload, sizeof args);
    mark_owner.push_back(e);
    ev.states.push_back(
        StateMark{host_time(rec.host_ns), args.value, rec.word, args.has_args != 0});
  }
  ev.state_begin = bucket_offsets(mark_owner, n);
  {
    std::vector<StateMark> sorted(ev.states.size());
    std::vector<std::uint32_t> next(ev.state_begin.begin(), ev.state_begin.end() - 1);
    for (std::size_t i = 0; i < mark_owner.size(); ++i)
      sorted[next[mark_owner[i]]++] = ev.states[i];
    ev.states = std::move(sorted);
  }
  // Each event's states in time order: a file's records are by time, except a live file's, whose
  // threads write segments of their own.
  auto by_time = [](const StateMark& a, const StateMark& b) { return a.host_ns < b.host_ns; };
  for (std::size_t e = 0; e < n; ++e) {
    const auto first = ev.states.begin() + ev.state_begin[e];
    const auto last = ev.states.begin() + ev.state_begin[e + 1];
    if (!std::is_sorted(first, last, by_time)) std::stable_sort(first, last, by_time);
  }

  keep_first_per_event(ev.ce_details);
  keep_first_per_event(ev.call_tags);
  for (std::uint32_t e = 0; e < n; ++e) {
    if (group_ids[e] == 0) continue;
    const std::uint32_t g = ev.find(group_ids[e]);
    if (g == kNoEvent || g == e) {
      ++ev.counts.missing_parents;
    } else {
      ev.group[e] = g;
    }
  }

  // Parents and children.
  std::vector<std::uint32_t> child_owner;
  std::vector<std::uint32_t> child_index;
  for (std::uint32_t e = 0; e < n; ++e) {
    if (ev.parent_id[e] == 0) continue;
    const std::uint32_t p = ev.find(ev.parent_id[e]);
    if (p == kNoEvent || p == e) {
      ++ev.counts.missing_parents;
      continue;
    }
    ev.parent[e] = p;
    child_owner.push_back(p);
    child_index.push_back(e);
  }
  ev.child_begin = bucket_offsets(child_owner, n);
  ev.children.resize(child_owner.size());
  {
    std::vector<std::uint32_t> next(ev.child_begin.begin(), ev.child_begin.end() - 1);
    for (std::size_t i = 0; i < child_owner.size(); ++i)
      ev.children[next[child_owner[i]]++] = child_index[i];
  }

  for (std::uint32_t e = 0; e < n; ++e) {
    const std::size_t t = ev.type[e] % kEventTypeSlots;
    ++ev.counts.started[t];
    if (!ev.stopped(e)) ++ev.counts.never_stopped[t];
  }
  return ev;
}

std::uint32_t api_ancestor(const ProfilerEvents& ev, std::uint32_t e) {
  std::uint32_t a = ev.parent[e];
  for (int depth = 0; a != kNoEvent && depth < 8; ++depth, a = ev.parent[a]) {
    if (ev.type[a] == format::kTypeCollApi || ev.type[a] == format::kTypeP2pApi ||
        ev.type[a] == format::kTypeGroupApi) {
      return a;
    }
  }
  return kNoEvent;
}

std::string profiler_type_name(const NpktDump& dump, std::uint32_t type) {
  for (const auto& [index, name] : dump.event_type_names) {
    if (index == type) return name;
  }
  static constexpr const char* kNames[] = {"Group",     "Coll",      "P2p",      "ProxyOp",
                                           "ProxyStep", "ProxyCtrl", "KernelCh", "NetPlugin",
                                           "GroupApi",  "CollApi",   "P2pApi",   "KernelLaunch",
                                           "CeColl",    "CeSync",    "CeBatch",  "KernelPhase"};
  if (type < std::size(kNames)) return kNames[type];
  return "type" + std::to_string(type);
}

std::string profiler_state_name(const NpktDump& dump, std::uint32_t state) {
  for (const auto& [number, name] : dump.state_names) {
    if (number == state) return name;
  }
  static constexpr const char* kNames[] = {"ProxyOpSendPosted",      "ProxyOpSendRemFifoWait",
                                           "ProxyOpSendTransmitted", "ProxyOpSendDone",
                                           "ProxyOpRecvPosted",      "ProxyOpRecvReceived",
                                           "ProxyOpRecvTransmitted", "ProxyOpRecvDone",
                                           "ProxyStepSendGPUWait",   "ProxyStepSendWait",
                                           "ProxyStepRecvWait",      "ProxyStepRecvFlushWait",
                                           "ProxyStepRecvGPUWait",   "ProxyCtrlIdle",
                                           "ProxyCtrlActive",        "ProxyCtrlSleep",
                                           "ProxyCtrlWakeup",        "ProxyCtrlAppend",
                                           "ProxyCtrlAppendEnd",     "ProxyOpInProgress",
                                           "ProxyStepSendPeerWait",  "NetPluginUpdate",
                                           "KernelChStop",           "GroupStartApiStop",
                                           "GroupEndApiStart",       "CeCollStart",
                                           "CeCollComplete",         "CeSyncStart",
                                           "CeSyncComplete",         "CeBatchStart",
                                           "CeBatchComplete",        "KernelPhaseStop"};
  if (state < std::size(kNames)) return kNames[state];
  return "state" + std::to_string(state);
}

}  // namespace npkit
