#include "analysis/hang/stall.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/align/host_offsets.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "util/prose_list.hpp"
#include "util/quantiles.hpp"
#include "util/readable_duration.hpp"

namespace npkit {
namespace {

// A member whose progress leaves nothing to wait for (completion unknown cannot be judged).
bool settled(const RunMember& m) {
  return m.progress == Progress::kCompleted || m.progress == Progress::kCompletionUnknown;
}

// A collective completes on no rank unless every rank took part: once one rank completed it,
// kernel and transfers (kCompleted: no proxy step left open), the others' missing KernelCh and
// ProxyStep stops are events their proxy thread never delivered, not a wait. A finished kernel
// alone (kProxyPending) is no such proof: over the network it finishes once its data is in its
// proxy's buffers.
bool completed_somewhere(const RunInstance& inst) {
  return !inst.is_pair() &&
         std::any_of(inst.members.begin(), inst.members.end(),
                     [](const RunMember& m) { return m.progress == Progress::kCompleted; });
}

// The capture records operations' ends: some member's progress is other than kCompletionUnknown
// (a capture without KernelCh events has none).
bool completion_recorded(const RunCommunicator& c) {
  return std::any_of(c.instances.begin(), c.instances.end(), [](const RunInstance& inst) {
    return std::any_of(inst.members.begin(), inst.members.end(), [](const RunMember& m) {
      return m.progress != Progress::kCompletionUnknown;
    });
  });
}

const RunMember* member_of(const RunInstance& inst, std::int32_t rank) {
  for (const auto& m : inst.members) {
    if (m.rank == rank) return &m;
  }
  return nullptr;
}

// The ranks with data that should hold `inst`.
std::vector<std::int32_t> expected_ranks(const RunInstance& inst,
                                         const std::vector<std::int32_t>& ranks) {
  if (!inst.is_pair()) return ranks;
  std::vector<std::int32_t> out;
  for (auto r : ranks) {
    if (r == inst.sender || r == inst.receiver) out.push_back(r);
  }
  return out;
}

std::string rank_list(const std::vector<std::int32_t>& ranks) {
  std::vector<std::string> names;
  for (auto r : ranks) names.push_back(std::to_string(r));
  return (ranks.size() == 1 ? "rank " : "ranks ") + prose_list(names);
}

std::string in_flight_detail(Progress p, const InFlightDetail* d) {
  std::string out;
  switch (p) {
    case Progress::kCompleted:
      return "completed";
    case Progress::kEnqueued:
      out = "enqueued; no channel of its kernel started";
      break;
    case Progress::kKernelRunning: {
      out = d == nullptr || d->running.empty()
                ? "kernel running"
                : fmt::format("kernel running on channel(s) {}", fmt::join(d->running, ", "));
      if (d != nullptr) {
        out += d->channels > 0 ? fmt::format(" ({} of {} finished)", d->finished, d->channels)
                               : fmt::format(" ({} finished)", d->finished);
      }
      break;
    }
    case Progress::kProxyPending:
      out = "kernel finished; its proxy's transfer is not";
      break;
    case Progress::kCompletionUnknown:
      out = "enqueued; completion unknown without kernel events";
      break;
  }
  if (d != nullptr && d->proxy) {
    const ProxyWait& w = *d->proxy;
    out += fmt::format("; proxy step {} of {} on channel {} {} rank {}{}", w.step, w.steps,
                       w.channel, w.send ? "sending to" : "receiving from", w.peer,
                       w.state.empty() ? "" : ": " + w.state);
  }
  return out;
}

RankStallState state_of(Progress p) {
  switch (p) {
    case Progress::kCompleted:
      return RankStallState::kCompleted;
    case Progress::kEnqueued:
      return RankStallState::kEnqueued;
    case Progress::kKernelRunning:
      return RankStallState::kKernelRunning;
    case Progress::kProxyPending:
      return RankStallState::kProxyPending;
    case Progress::kCompletionUnknown:
      break;
  }
  return RankStallState::kCompletionUnknown;
}

std::string ordinal(std::size_t n) {
  const std::size_t tens = n % 100;
  const char* suffix = tens >= 11 && tens <= 13 ? "th"
                       : n % 10 == 1            ? "st"
                       : n % 10 == 2            ? "nd"
                       : n % 10 == 3            ? "rd"
                                                : "th";
  return std::to_string(n) + suffix;
}

// The first position at which the ranks' own sequences of collectives call different functions
// (see the contract); "" when they agree as far as each goes.
std::string first_divergence(const RunCommunicator& c) {
  std::map<std::int32_t, std::vector<std::pair<std::uint32_t, const RunInstance*>>> by_rank;
  for (const auto& inst : c.instances) {
    if (inst.is_pair()) continue;
    for (const auto& m : inst.members) by_rank[m.rank].push_back({m.order, &inst});
  }
  std::size_t shortest = SIZE_MAX;
  for (auto& [rank, ops] : by_rank) {
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    shortest = std::min(shortest, ops.size());
  }
  if (by_rank.size() < 2) return "";
  for (std::size_t k = 0; k < shortest; ++k) {
    const std::string& func = by_rank.begin()->second[k].second->func;
    const bool agree = std::all_of(by_rank.begin(), by_rank.end(), [&](const auto& entry) {
      return entry.second[k].second->func == func;
    });
    if (agree) continue;
    // Group the ranks by what they called there.
    std::map<std::string, std::vector<std::int32_t>> callers;
    for (const auto& [rank, ops] : by_rank) callers[ops[k].second->label].push_back(rank);
    std::vector<std::string> parts;
    for (const auto& [label, ranks] : callers) parts.push_back(label + " on " + rank_list(ranks));
    return "the ranks' collectives differ from the " + ordinal(k + 1) + ": " + prose_list(parts) +
           " (a mismatch)";
  }
  return "";
}

// How long a rank has waited, for a sentence: "5.000 s", "at least 125.727 us", "15.200 s so far".
std::string waited_text(const RankAtStall& a) {
  if (a.so_far_ns != kUnknownTime) return readable_duration(a.so_far_ns) + " so far";
  if (a.before_end_ns == kUnknownTime) return "";
  return (a.at_least ? "at least " : "") + readable_duration(a.before_end_ns);
}

// When a rank enqueued the operation, for "rank 0 enqueued it 5.000 s before its capture ended":
// " at least 2.000 ms before its capture ended (its live file ends at its last record)", " 15.20 s
// ago (its process still runs)", "" when unknown.
std::string enqueued_when(const RankAtStall* a) {
  if (a == nullptr) return "";
  if (a->so_far_ns != kUnknownTime) {
    return " " + readable_duration(a->so_far_ns) + " ago (its process still runs)";
  }
  if (a->before_end_ns == kUnknownTime) return "";
  return " " + std::string(a->at_least ? "at least " : "") + readable_duration(a->before_end_ns) +
         " before its capture ended" +
         (a->at_least ? " (its live file ends at its last record)" : "");
}

// Why a rank in the stuck operation does not move on, for the verdict.
std::string holdup(const RankAtStall& a) {
  if (a.waits_on >= 0) return fmt::format("rank {} waits on rank {}", a.rank, a.waits_on);
  switch (a.state) {
    case RankStallState::kEnqueued:
      return fmt::format("rank {}'s kernel never started", a.rank);
    case RankStallState::kProxyPending:
      return fmt::format("rank {}'s kernel finished, its transfers did not", a.rank);
    default:
      return "";
  }
}

class CommunicatorJudge {
 public:
  explicit CommunicatorJudge(const RunCommunicator& c) : c_(c) {
    for (const auto& r : c.ranks) {
      ranks_.push_back(r.rank);
      rank_info_[r.rank] = &r;
      last_done_[r.rank] = -1;
      latest_ns_[r.rank] = r.capture_end_ns;
    }
    for (std::size_t i = 0; i < c.instances.size(); ++i) {
      for (const auto& m : c.instances[i].members) {
        if (settled_in(i, m)) last_done_[m.rank] = static_cast<std::ptrdiff_t>(i);
        see(m.rank, m.launch_ns);
        if (m.timed) see(m.rank, m.end_ns);
      }
    }
    for (const auto& d : c.in_flight) see(d.rank, d.last_event_ns);
  }

  CommunicatorStall judge() const {
    CommunicatorStall s;
    s.comm = &c_;
    s.ranks_without_data = c_.absent_ranks;
    s.completion_known = completion_recorded(c_);
    const std::ptrdiff_t stuck = stuck_instance();
    s.last_gpu_evidence = last_timed_everywhere(stuck);
    s.divergence = first_divergence(c_);
    const std::string diverged = s.divergence.empty() ? "" : "; " + s.divergence;
    if (stuck < 0) {
      s.last_completed = last_completed_by_all();
      std::vector<std::int32_t> unknown;
      for (auto r : ranks_) {
        s.ranks.push_back(rank_without_stall(r));
        if (s.ranks.back().state == RankStallState::kCompletionUnknown) unknown.push_back(r);
      }
      s.completion_unknown = !unknown.empty();
      s.verdict = without_data(s) + quiet_verdict(s, unknown) + diverged;
      return s;
    }
    const RunInstance& inst = c_.instances[static_cast<std::size_t>(stuck)];
    s.stalled = true;
    s.func = inst.func;
    s.seq = inst.seq;
    s.label = inst.label;
    s.typical_ns = typical_ns(inst.func);
    for (auto r : expected_ranks(inst, ranks_)) {
      RankAtStall a = rank_at(static_cast<std::size_t>(stuck), r);
      (a.state == RankStallState::kNeverCalled ? s.ranks_missing
       : a.state == RankStallState::kCompleted ? s.ranks_completed
                                               : s.ranks_in_flight)
          .push_back(r);
      s.ranks.push_back(std::move(a));
    }
    // A mismatch the verdict names already (a rank in another operation) is not said twice.
    const bool named = std::any_of(s.ranks.begin(), s.ranks.end(),
                                   [](const RankAtStall& a) { return !a.other.empty(); });
    s.verdict = without_data(s) + verdict(s) + (named ? "" : diverged);
    return s;
  }

 private:
  // The last instance before `stuck` (every instance when negative) that is timed on every rank
  // it has, for a sampling capture; "" otherwise.
  std::string last_timed_everywhere(std::ptrdiff_t stuck) const {
    if (c_.sample.empty()) return "";
    const std::size_t end = stuck < 0 ? c_.instances.size() : static_cast<std::size_t>(stuck);
    for (std::size_t i = end; i-- > 0;) {
      const RunInstance& inst = c_.instances[i];
      if (inst.is_pair() || inst.members.empty()) continue;
      if (std::all_of(inst.members.begin(), inst.members.end(),
                      [](const RunMember& m) { return m.timed; })) {
        return inst.label;
      }
    }
    return "";
  }

  // "; the last operation with GPU evidence is AllReduce seq 7 (NPKIT_SAMPLE=1/8), completed on
  // every rank", where the comm samples and one is.
  std::string gpu_evidence(const CommunicatorStall& s) const {
    if (s.last_gpu_evidence.empty()) return "";
    return fmt::format(
        "; the last operation with GPU evidence is {} (NPKIT_SAMPLE={}), "
        "completed on every rank with data",
        s.last_gpu_evidence, c_.sample);
  }

  void see(std::int32_t rank, std::int64_t ns) {
    auto at = latest_ns_.find(rank);
    if (at == latest_ns_.end() || ns == kUnknownTime) return;
    if (at->second == kUnknownTime || ns > at->second) at->second = ns;
  }

  const InFlightDetail* detail(std::size_t instance, std::int32_t rank) const {
    for (const auto& d : c_.in_flight) {
      if (d.instance == instance && d.rank == rank) return &d;
    }
    return nullptr;
  }

  bool settled_in(std::size_t instance, const RunMember& m) const {
    return settled(m) || completed_somewhere(c_.instances[instance]);
  }

  std::ptrdiff_t stuck_instance() const {
    for (std::size_t i = 0; i < c_.instances.size(); ++i) {
      const RunInstance& inst = c_.instances[i];
      for (auto r : expected_ranks(inst, ranks_)) {
        if (static_cast<std::ptrdiff_t>(i) <= last_done_.at(r)) continue;
        const RunMember* m = member_of(inst, r);
        if (m == nullptr || !settled_in(i, *m)) return static_cast<std::ptrdiff_t>(i);
      }
    }
    return -1;
  }

  std::string last_completed_by_all() const {
    std::ptrdiff_t least = -1;
    bool first = true;
    for (auto r : ranks_) {
      least = first ? last_done_.at(r) : std::min(least, last_done_.at(r));
      first = false;
    }
    return least < 0 ? "" : c_.instances[static_cast<std::size_t>(least)].label;
  }

  // When `rank` finished its last completed operation (GPU end where timed, else its call).
  std::int64_t last_done_ns(std::int32_t rank) const {
    const std::ptrdiff_t i = last_done_.at(rank);
    if (i < 0) return kUnknownTime;
    const RunMember* m = member_of(c_.instances[static_cast<std::size_t>(i)], rank);
    return m->timed ? m->end_ns : m->launch_ns;
  }

  // The rank's capture end; for a live file (only its last record known) the latest time known
  // of the rank, which the end is at or after.
  std::int64_t capture_end(std::int32_t rank) const {
    const RunRank& r = *rank_info_.at(rank);
    return r.end == CaptureEnd::kLastRecord ? latest_ns_.at(rank) : r.capture_end_ns;
  }

  void set_waits(std::int32_t rank, RankAtStall& a) const {
    const RunRank& r = *rank_info_.at(rank);
    const std::int64_t end = capture_end(rank);
    a.at_least = r.end == CaptureEnd::kLastRecord;
    a.before_end_ns =
        a.since_ns == kUnknownTime || end == kUnknownTime ? kUnknownTime : sat_sub(end, a.since_ns);
    a.so_far_ns = kUnknownTime;
    if (r.process_running.value_or(false) && a.since_ns != kUnknownTime &&
        r.read_ns != kUnknownTime) {
      a.so_far_ns = sat_sub(r.read_ns, a.since_ns);
    }
  }

  RankAtStall rank_without_stall(std::int32_t rank) const {
    RankAtStall a;
    a.rank = rank;
    const std::ptrdiff_t i = last_done_.at(rank);
    if (i >= 0) {
      const RunInstance& inst = c_.instances[static_cast<std::size_t>(i)];
      a.last_completed = inst.label;
      // Its last operation enqueued, its completion not recorded: nothing says it finished.
      if (member_of(inst, rank)->progress == Progress::kCompletionUnknown &&
          !completed_somewhere(inst)) {
        a.state = RankStallState::kCompletionUnknown;
        a.detail = in_flight_detail(Progress::kCompletionUnknown, nullptr);
      }
    }
    a.since_ns = last_done_ns(rank);
    set_waits(rank, a);
    return a;
  }

  RankAtStall rank_at(std::size_t stuck, std::int32_t rank) const {
    RankAtStall a = rank_without_stall(rank);
    const RunMember* m = member_of(c_.instances[stuck], rank);
    if (m == nullptr) {
      a.state = RankStallState::kNeverCalled;
      a.detail = "never called it";
      for (std::size_t j = 0; j < c_.instances.size(); ++j) {
        const RunMember* other = member_of(c_.instances[j], rank);
        if (j != stuck && other != nullptr && !settled_in(j, *other)) {
          a.other = c_.instances[j].label;
          a.detail = "never called it; in " + a.other + " instead (" +
                     in_flight_detail(other->progress, detail(j, rank)) + ")";
          break;
        }
      }
      return a;
    }
    a.state = state_of(m->progress);
    const InFlightDetail* d = detail(stuck, rank);
    a.detail = in_flight_detail(m->progress, d);
    if (d != nullptr && d->proxy) a.waits_on = d->proxy->peer;
    if (a.state != RankStallState::kCompleted) {
      a.since_ns = m->launch_ns;
      set_waits(rank, a);
    }
    return a;
  }

  double typical_ns(const std::string& func) const {
    std::vector<double> durations;
    for (const auto& inst : c_.instances) {
      if (inst.func != func) continue;
      for (const auto& m : inst.members) {
        if (m.timed) durations.push_back(static_cast<double>(m.duration_ns()));
      }
    }
    if (durations.empty()) return 0.0;
    std::sort(durations.begin(), durations.end());
    return sorted_quantile(durations, 0.5);
  }

  // The waiting rank that has waited longest: what the verdict quotes.
  static const RankAtStall* longest_waiter(const CommunicatorStall& s) {
    const RankAtStall* longest = nullptr;
    auto key = [](const RankAtStall& a) {
      return a.so_far_ns != kUnknownTime ? a.so_far_ns : a.before_end_ns;
    };
    for (const auto& a : s.ranks) {
      if (a.state == RankStallState::kNeverCalled || a.state == RankStallState::kCompleted) {
        continue;
      }
      if (key(a) == kUnknownTime) continue;
      if (longest == nullptr || key(a) > key(*longest)) longest = &a;
    }
    return longest;
  }

  // "; look first at rank 1": the ranks others wait on that wait on no one themselves.
  static std::string first_suspects(const CommunicatorStall& s) {
    std::vector<std::int32_t> suspects;
    for (const auto& a : s.ranks) {
      if (a.waits_on < 0 || a.waits_on == a.rank) continue;
      const auto peer = std::find_if(s.ranks.begin(), s.ranks.end(),
                                     [&](const RankAtStall& b) { return b.rank == a.waits_on; });
      if (peer == s.ranks.end() || peer->waits_on >= 0) continue;
      if (std::find(suspects.begin(), suspects.end(), peer->rank) == suspects.end()) {
        suspects.push_back(peer->rank);
      }
    }
    std::sort(suspects.begin(), suspects.end());
    return suspects.empty() ? "" : "; look first at " + rank_list(suspects);
  }

  // Who the verdict speaks for (`ranks`: those it concerns): "every rank", or with ranks without
  // data "rank 0, the only rank with data," / "every rank with data (ranks 0 and 2)".
  std::string everyone(const std::vector<std::int32_t>& ranks) const {
    if (c_.absent_ranks.empty()) return "every rank";
    if (ranks.size() == 1) return rank_list(ranks) + ", the only rank with data,";
    return "every rank with data (" + rank_list(ranks) + ")";
  }

  // "rank 1 has no data: where it stopped cannot be told; rank 0 waits on it; " — the ranks
  // without data, and the ranks whose open proxy step waits on one of them ("" when none lacks).
  static std::string without_data(const CommunicatorStall& s) {
    const auto& absent = s.ranks_without_data;
    if (absent.empty()) return "";
    const bool one = absent.size() == 1;
    std::string out = fmt::format("{} {} no data: where {} stopped cannot be told",
                                  rank_list(absent), one ? "has" : "have", one ? "it" : "they");
    for (auto r : absent) {
      std::vector<std::int32_t> waiters;
      for (const auto& a : s.ranks) {
        if (a.waits_on == r) waiters.push_back(a.rank);
      }
      if (waiters.empty()) continue;
      out +=
          fmt::format("; {} {} on {}", rank_list(waiters), waiters.size() == 1 ? "waits" : "wait",
                      one ? "it" : "rank " + std::to_string(r));
    }
    return out + "; ";
  }

  // The verdict when no rank is stopped before the others.
  std::string quiet_verdict(const CommunicatorStall& s,
                            const std::vector<std::int32_t>& unknown) const {
    if (s.last_completed.empty()) return "no operation to judge";
    if (unknown.empty()) {
      return (s.ranks_without_data.empty() ? "nothing is stuck: " : "") + everyone(ranks_) +
             " completed its last operation (" + s.last_completed + ")";
    }
    return "no rank is behind the others: " + everyone(ranks_) + " enqueued " + s.last_completed +
           " last; " +
           (!c_.sample.empty()   ? "completion unknown: sampling left it without kernel events"
            : s.completion_known ? "its completion is not recorded (it has no kernel events)"
                                 : "completion unknown without kernel events (the capture's "
                                   "NPKIT_EVENTS lacks kernel)") +
           ": whether it finished cannot be told" + gpu_evidence(s);
  }

  std::string verdict(const CommunicatorStall& s) const {
    const RankAtStall* longest = longest_waiter(s);
    const std::string usual =
        s.typical_ns > 0 ? fmt::format(" (it usually takes {})",
                                       readable_duration(static_cast<std::int64_t>(s.typical_ns)))
                         : "";
    std::string v;
    if (!s.ranks_missing.empty()) {
      for (const auto& a : s.ranks) {
        if (a.state != RankStallState::kNeverCalled) continue;
        v += fmt::format("{}rank {} never called {}", v.empty() ? "" : "; ", a.rank, s.label);
        if (!a.other.empty()) v += " (it is in " + a.other + " instead: a mismatch)";
      }
      if (!s.ranks_in_flight.empty()) {
        std::string wait;
        if (longest != nullptr) {
          wait = " for " + waited_text(*longest) +
                 (longest->so_far_ns != kUnknownTime ? " (its process still runs)"
                  : longest->at_least                ? " (its live file ends at its last record)"
                                                     : " before its capture ended");
        }
        // Whether the ranks in it could have shown more than having enqueued it: not where
        // the capture has no kernel events, nor where sampling left this operation without.
        const bool unknown_here =
            std::all_of(s.ranks.begin(), s.ranks.end(), [](const RankAtStall& a) {
              return a.state == RankStallState::kNeverCalled ||
                     a.state == RankStallState::kCompletionUnknown;
            });
        if (s.completion_known && !unknown_here) {
          v += fmt::format("; {} {} waited in it{}{}", rank_list(s.ranks_in_flight),
                           s.ranks_in_flight.size() == 1 ? "has" : "have", wait, usual);
        } else {
          v += fmt::format("; {} enqueued it{}; completion unknown without kernel events{}",
                           rank_list(s.ranks_in_flight), enqueued_when(longest),
                           c_.sample.empty() ? "" : " (not sampled)");
          v += gpu_evidence(s);
        }
      }
      return v;
    }
    const bool none = s.ranks_completed.empty();
    const bool alone = s.ranks.size() == 1;
    std::vector<std::int32_t> concerned;
    for (const auto& a : s.ranks) concerned.push_back(a.rank);
    std::vector<std::string> holdups;
    for (const auto& a : s.ranks) {
      if (std::string h = holdup(a); !h.empty()) holdups.push_back(std::move(h));
    }
    std::string first;
    if (longest != nullptr) {
      first = (alone ? "; it arrived " : "; the first arrived ") + waited_text(*longest) +
              (longest->so_far_ns != kUnknownTime ? " ago (its process still runs)"
               : longest->at_least ? " before its capture ended (its live file ends at its last "
                                     "record)"
                                   : " before its capture ended");
    }
    return fmt::format(
        "{} entered {}{}{}{}{}{}: a peer or transport stall, or the job ended during "
        "the operation",
        everyone(concerned), s.label,
        none ? (alone ? " and did not complete it" : " and none completed it")
             : "; " + rank_list(s.ranks_in_flight) + " never completed it",
        holdups.empty() ? "" : " (" + prose_list(holdups) + ")", first_suspects(s), first, usual);
  }

  const RunCommunicator& c_;
  std::vector<std::int32_t> ranks_;
  std::map<std::int32_t, const RunRank*> rank_info_;
  std::map<std::int32_t, std::ptrdiff_t> last_done_;
  std::map<std::int32_t, std::int64_t> latest_ns_;  // the latest time known of each rank
};

}  // namespace

std::string_view stall_state_name(RankStallState s) {
  switch (s) {
    case RankStallState::kCompleted:
      return "completed";
    case RankStallState::kNeverCalled:
      return "never called";
    case RankStallState::kEnqueued:
      return "enqueued";
    case RankStallState::kKernelRunning:
      return "kernel running";
    case RankStallState::kProxyPending:
      return "transfer open";
    case RankStallState::kCompletionUnknown:
      break;
  }
  return "completion unknown";
}

bool HangAnalysis::cannot_tell() const {
  return std::any_of(comms.begin(), comms.end(),
                     [](const CommunicatorStall& c) { return c.cannot_tell(); });
}

bool HangAnalysis::lacks_ranks() const {
  return std::any_of(comms.begin(), comms.end(),
                     [](const CommunicatorStall& c) { return !c.ranks_without_data.empty(); });
}

bool HangAnalysis::stalled() const {
  return std::any_of(comms.begin(), comms.end(),
                     [](const CommunicatorStall& c) { return c.stalled; });
}

HangAnalysis analyze_hang(const Run& run) {
  HangAnalysis h;
  for (const auto& c : run.comms) {
    if (!c.progress_known) continue;
    h.judged = true;
    CommunicatorStall s = CommunicatorJudge(c).judge();
    const HostAlignment alignment = estimate_host_offsets(cross_rank_input(c));
    s.alignment = alignment.status_name();
    for (auto& r : s.ranks) {
      if (r.since_ns == kUnknownTime) continue;
      r.since_aligned_ns =
          sat_add(r.since_ns, static_cast<std::int64_t>(std::llround(alignment.offset_of(r.rank))));
    }
    h.comms.push_back(std::move(s));
  }
  return h;
}

}  // namespace npkit
