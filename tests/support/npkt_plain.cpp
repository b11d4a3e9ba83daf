#include "support/npkt_plain.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

#include "support/device_dump_reader.hpp"
#include "support/dump_bytes_reader.hpp"
#include "support/gzip_bytes.hpp"

namespace npkit::test::plain {
namespace {

namespace fmt = npkit::format;

struct Event {
  const fmt::ProfilerRecord* start = nullptr;
  const fmt::ProfilerRecord* stop = nullptr;
  std::vector<const fmt::ProfilerRecord*> states;
  std::vector<std::uint64_t> children;
};

using Events = std::map<std::uint64_t, Event>;

template <typename T>
T payload(const fmt::ProfilerRecord& r) {
  T t;
  std::memcpy(&t, r.payload, sizeof(T));
  return t;
}

std::uint64_t element_size(const std::string& type) {
  static const std::map<std::string, std::uint64_t> sizes = {
      {"ncclInt8", 1},    {"ncclUint8", 1},    {"ncclFloat8e4m3", 1}, {"ncclFloat8e5m2", 1},
      {"ncclFloat16", 2}, {"ncclBfloat16", 2}, {"ncclInt32", 4},      {"ncclUint32", 4},
      {"ncclFloat32", 4}, {"ncclInt64", 8},    {"ncclUint64", 8},     {"ncclFloat64", 8}};
  const auto it = sizes.find(type);
  return it == sizes.end() ? 0 : it->second;
}

double sample_offset(const fmt::ClockSample& s) {
  return static_cast<double>(static_cast<__int128>(s.gpu_ns) * 2 - s.host_before_ns -
                             s.host_after_ns) /
         2.0;
}

double half_bracket(const fmt::ClockSample& s) {
  return static_cast<double>(s.host_after_ns - s.host_before_ns) / 2.0;
}

Clock fit_clock(const std::vector<fmt::ClockSample>& samples) {
  std::map<std::uint32_t, fmt::ClockSample> best;
  for (const auto& s : samples) {
    if (s.host_after_ns < s.host_before_ns) continue;
    auto [it, fresh] = best.emplace(s.when, s);
    if (!fresh && half_bracket(s) < half_bracket(it->second)) it->second = s;
  }
  REQUIRE_FALSE(best.empty());  // the H200 captures all carry clock samples
  Clock c;
  const auto& first = best.begin()->second;
  const auto& last = best.rbegin()->second;
  c.gpu0 = first.gpu_ns;
  c.offset0 = sample_offset(first);
  c.uncertainty_ns = half_bracket(first);
  if (best.size() > 1 && last.gpu_ns != first.gpu_ns) {
    c.drift = (sample_offset(last) - c.offset0) /
              static_cast<double>(static_cast<__int128>(last.gpu_ns) - first.gpu_ns);
    c.uncertainty_ns = std::max(c.uncertainty_ns, half_bracket(last));
  }
  double beyond = 0;
  for (const auto& s : samples) {
    if (s.host_after_ns < s.host_before_ns) continue;
    const double fit =
        c.offset0 + c.drift * static_cast<double>(static_cast<__int128>(s.gpu_ns) - c.gpu0);
    beyond = std::max(beyond, std::abs(sample_offset(s) - fit) - half_bracket(s));
  }
  c.uncertainty_ns += beyond;
  return c;
}

// The last KernelChStop mark with arguments, 0 when there is none.
std::uint64_t kernel_stop(const Event& e) {
  std::uint64_t stop = 0;
  for (const auto* s : e.states) {
    const auto p = payload<fmt::StatePayload>(*s);
    if (s->word == fmt::kStateKernelChStop && p.has_args) stop = p.value;
  }
  return stop;
}

std::int64_t api_start(const Events& events, std::uint64_t owner) {
  const Event& o = events.at(owner);
  for (std::uint64_t p = o.start->parent_id; events.count(p);) {
    const auto* r = events.at(p).start;
    if (r->type == fmt::kTypeCollApi || r->type == fmt::kTypeP2pApi ||
        r->type == fmt::kTypeGroupApi) {
      return static_cast<std::int64_t>(r->host_ns);
    }
    p = r->parent_id;
  }
  return static_cast<std::int64_t>(o.start->host_ns) - 1000000;  // launch allowance, 1 ms
}

enum class Channel { kValid, kOpen, kStale };

std::map<std::uint64_t, Channel> check_channels(const Events& events, const Clock& clock) {
  const std::int64_t tolerance = std::llround(clock.uncertainty_ns + 5000.0);
  std::map<std::uint64_t, Channel> verdict;
  std::map<std::uint8_t, std::vector<std::uint64_t>> by_channel;  // valid ones, by event id
  for (const auto& [id, e] : events) {
    if (e.start->type != fmt::kTypeKernelCh) continue;
    const auto p = payload<fmt::KernelChPayload>(*e.start);
    const std::uint64_t stop = kernel_stop(e);
    if (p.gpu_start_ns == 0 || stop == 0) {
      verdict[id] = Channel::kOpen;
      continue;
    }
    const std::int64_t start = clock.host(p.gpu_start_ns);
    const std::uint64_t owner = e.start->parent_id;
    const bool owned = events.count(owner) && (events.at(owner).start->type == fmt::kTypeColl ||
                                               events.at(owner).start->type == fmt::kTypeP2p);
    const bool before_api = owned && start < api_start(events, owner) - tolerance;
    const bool after_noticed = start > static_cast<std::int64_t>(e.start->host_ns) + tolerance;
    if (before_api || after_noticed || stop < p.gpu_start_ns) {
      verdict[id] = Channel::kStale;
      continue;
    }
    verdict[id] = Channel::kValid;
    by_channel[p.channel].push_back(id);
  }
  // A channel's works start in order: one starting after a later work's start is stale.
  for (auto& [channel, ids] : by_channel) {
    std::uint64_t earliest_later = std::numeric_limits<std::uint64_t>::max();
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
      const std::uint64_t start = payload<fmt::KernelChPayload>(*events.at(*it).start).gpu_start_ns;
      if (start > earliest_later) {
        verdict[*it] = Channel::kStale;
      } else {
        earliest_later = start;
      }
    }
  }
  return verdict;
}

// Sets the op's channel counts and GPU span from the KernelCh children of `owners`.
void set_span(Op& op, const Events& events, const std::vector<std::uint64_t>& owners,
              const std::map<std::uint64_t, Channel>& verdict, const Clock& clock) {
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t last = 0;
  bool open = false;
  bool valid = false;
  for (std::uint64_t owner : owners) {
    for (std::uint64_t k : events.at(owner).children) {
      const Event& e = events.at(k);
      if (e.start->type != fmt::kTypeKernelCh) continue;
      ++op.kernel_channels;
      const Channel v = verdict.at(k);
      open = open || v == Channel::kOpen;
      if (v == Channel::kStale) ++op.stale_channels;
      if (v != Channel::kValid) continue;
      valid = true;
      first = std::min(first, payload<fmt::KernelChPayload>(*e.start).gpu_start_ns);
      last = std::max(last, kernel_stop(e));
    }
  }
  op.ran = valid;
  if (valid) {
    op.ran_start_ns = clock.host(first);
    op.ran_stop_ns = clock.host(last);
  }
  op.timed = valid && !open && op.stale_channels == 0;
  if (op.timed) {
    op.gpu_start_ns = clock.host(first);
    op.gpu_stop_ns = clock.host(last);
  }
}

// One communicator's kernels never run at the same time: a GroupApi group must not start on the
// GPU before the last stop of the groups called before it (tolerance as for the channels). One
// that does loses its GPU times, and so does the earlier group stopping last, AlltoAll members
// included.
void untime_overlapping_groups(Rank& rank, const Events& events) {
  struct GroupSpan {
    std::int64_t called = 0;
    std::int64_t start = 0;
    std::int64_t stop = 0;
  };
  std::map<std::uint64_t, GroupSpan> spans;
  for (const Op& op : rank.ops) {
    if (op.group == 0 || op.in_alltoall || !op.ran) continue;
    auto [it, fresh] = spans.try_emplace(op.group);
    GroupSpan& g = it->second;
    if (fresh) {
      g = {static_cast<std::int64_t>(events.at(op.group).start->host_ns), op.ran_start_ns,
           op.ran_stop_ns};
    }
    g.start = std::min(g.start, op.ran_start_ns);
    g.stop = std::max(g.stop, op.ran_stop_ns);
  }
  const auto tolerance = std::llround(rank.clock.uncertainty_ns + 5000.0);
  std::vector<std::pair<std::int64_t, std::uint64_t>> by_call;  // (called, group)
  for (const auto& [group, g] : spans) by_call.emplace_back(g.called, group);
  std::stable_sort(by_call.begin(), by_call.end());
  std::set<std::uint64_t> overlapping;
  std::uint64_t last_to_stop = 0;  // of the groups called so far, the one stopping last
  for (const auto& [called, group] : by_call) {
    const GroupSpan& g = spans.at(group);
    if (last_to_stop != 0 && g.start < spans.at(last_to_stop).stop - tolerance) {
      overlapping.insert(group);
      overlapping.insert(last_to_stop);
    }
    if (last_to_stop == 0 || g.stop > spans.at(last_to_stop).stop) last_to_stop = group;
  }
  for (Op& op : rank.ops) {
    if (overlapping.count(op.group) == 0) continue;
    op.timed = false;
    op.overlapping = true;
  }
}

std::uint64_t group_of(const Events& events, std::uint64_t id) {
  for (std::uint64_t p = events.at(id).start->parent_id; events.count(p);) {
    const auto* r = events.at(p).start;
    if (r->type == fmt::kTypeGroupApi) return p;
    p = r->parent_id;
  }
  return 0;
}

void add_proxy_steps(Rank& rank, const Events& events, const ParsedDump& dump) {
  ProxyTotals& t = rank.proxy;
  for (const auto& [id, e] : events) {
    if (e.start->type != fmt::kTypeProxyStep) continue;
    if (e.stop == nullptr) {
      ++t.never_stopped;
      continue;
    }
    ++t.steps;
    const auto start = static_cast<std::int64_t>(e.start->host_ns);
    const auto stop = std::max(start, static_cast<std::int64_t>(e.stop->host_ns));
    const auto clamp = [&](std::int64_t v) { return std::min(stop, std::max(start, v)); };
    std::int64_t send = 0, recv = 0, sync = 0, other = 0;
    std::int64_t at = start;
    std::uint32_t state = 0;  // none yet: other
    const auto close = [&](std::int64_t until) {
      const std::int64_t ns = until - at;
      if (state == fmt::kStateProxyStepSendWait) {
        send += ns;
      } else if (state == fmt::kStateProxyStepRecvWait ||
                 state == fmt::kStateProxyStepRecvFlushWait) {
        recv += ns;
      } else if (state == fmt::kStateProxyStepSendGpuWait ||
                 state == fmt::kStateProxyStepSendPeerWait ||
                 state == fmt::kStateProxyStepRecvGpuWait) {
        sync += ns;
      } else {
        other += ns;
      }
    };
    for (const auto* s : e.states) {
      const std::int64_t mark = clamp(static_cast<std::int64_t>(s->host_ns));
      close(mark);
      at = mark;
      state = s->word;
    }
    close(stop);
    const std::int64_t ns = stop - start;
    t.step_ns += ns;
    t.net_send_ns += send;
    t.net_recv_ns += recv;
    t.sync_ns += sync;
    t.other_ns += other;
    // Ring AllReduce: the step's ProxyOp under a RING AllReduce Coll.
    const std::uint64_t op = e.start->parent_id;
    if (!events.count(op) || events.at(op).start->type != fmt::kTypeProxyOp) continue;
    const std::uint64_t coll = events.at(op).start->parent_id;
    if (!events.count(coll) || events.at(coll).start->type != fmt::kTypeColl) continue;
    const auto c = payload<fmt::CollPayload>(*events.at(coll).start);
    if (dump.strings.count(c.func) == 0 || dump.strings.at(c.func) != "AllReduce" ||
        dump.strings.count(c.algo) == 0 || dump.strings.at(c.algo) != "RING") {
      continue;
    }
    const int transfers =
        dump.strings.count(c.proto) && dump.strings.at(c.proto) == "SIMPLE" ? 2 : 1;
    const int step = payload<fmt::ProxyStepPayload>(*e.start).step;
    const int loop = 2 * (rank.nranks - 1);
    ++t.ring_steps;
    if ((step / transfers) % loop < rank.nranks - 1) {
      t.ring_reduce_scatter_ns += ns;
    } else {
      t.ring_all_gather_ns += ns;
    }
  }
}

Rank read_rank(const std::string& path) {
  const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  const ParsedDump dump =
      parse_dump_bytes(gz ? gunzip_bytes(read_whole_file(path)) : read_whole_file(path));
  INFO(path);
  REQUIRE(dump.problems.empty());
  Rank rank;
  rank.rank = dump.comm.rank;
  rank.nranks = dump.comm.nranks;
  rank.hostname = dump.meta("hostname");
  rank.clock = fit_clock(dump.clock_samples);
  const auto name = [&](std::uint16_t id) {
    return dump.strings.count(id) ? dump.strings.at(id) : std::string();
  };

  Events events;
  for (const auto& r : dump.records) {
    if (r.kind == fmt::kRecordStart) events[r.event_id].start = &r;
  }
  for (const auto& r : dump.records) {
    auto it = events.find(r.event_id);
    if (it == events.end()) continue;
    if (r.kind == fmt::kRecordStart && events.count(r.parent_id)) {
      events[r.parent_id].children.push_back(r.event_id);
    } else if (r.kind == fmt::kRecordStop && it->second.stop == nullptr) {
      it->second.stop = &r;
    } else if (r.kind == fmt::kRecordState) {
      it->second.states.push_back(&r);
    }
  }
  const auto verdict = check_channels(events, rank.clock);

  // The user's type: from the API parent's payload when there is one.
  const auto user_type = [&](const Event& e, std::uint16_t own) {
    if (events.count(e.start->parent_id)) {
      const auto* p = events.at(e.start->parent_id).start;
      if (p->type == fmt::kTypeCollApi) return name(payload<fmt::CollApiPayload>(*p).datatype);
      if (p->type == fmt::kTypeP2pApi) return name(payload<fmt::P2pApiPayload>(*p).datatype);
    }
    return name(own);
  };
  std::map<std::pair<std::string, std::int32_t>, std::uint64_t> p2p_seen;
  for (const auto& [id, e] : events) {
    if (e.start->type != fmt::kTypeColl && e.start->type != fmt::kTypeP2p) continue;
    Op op;
    std::uint16_t own_type = 0;
    if (e.start->type == fmt::kTypeColl) {
      const auto c = payload<fmt::CollPayload>(*e.start);
      op.func = name(c.func);
      op.algo = name(c.algo);
      op.proto = name(c.proto);
      op.seq = c.seq;
      op.count = c.count;
      own_type = c.datatype;
    } else {
      const auto p = payload<fmt::P2pPayload>(*e.start);
      op.func = name(p.func);
      op.count = p.count;
      op.peer = p.peer;
      own_type = p.datatype;
    }
    op.type = user_type(e, own_type);
    op.bytes = op.count * element_size(name(own_type));
    if (op.func == "AllGather" || op.func == "ReduceScatter") op.bytes *= rank.nranks;
    op.host_start_ns = static_cast<std::int64_t>(e.start->host_ns);
    op.group = group_of(events, id);
    set_span(op, events, {id}, verdict, rank.clock);
    rank.ops.push_back(op);
  }
  std::stable_sort(rank.ops.begin(), rank.ops.end(),
                   [](const Op& a, const Op& b) { return a.host_start_ns < b.host_start_ns; });
  for (Op& op : rank.ops) {
    if (op.func == "Send" || op.func == "Recv") op.seq = p2p_seen[{op.func, op.peer}]++;
  }

  // AlltoAll: a GroupApi with no CollApi below it whose P2p events are one Send to and one Recv
  // from every rank, the rank itself included, all of one count and type.
  std::map<std::uint64_t, std::vector<std::uint64_t>> p2p_by_group;
  std::set<std::uint64_t> groups_with_coll;
  for (const auto& [id, e] : events) {
    const std::uint64_t g = group_of(events, id);
    if (g == 0) continue;
    if (e.start->type == fmt::kTypeCollApi) groups_with_coll.insert(g);
    if (e.start->type == fmt::kTypeP2p) p2p_by_group[g].push_back(id);
  }
  std::vector<Op> alltoalls;
  for (const auto& [g, p2ps] : p2p_by_group) {
    if (groups_with_coll.count(g) || rank.nranks < 2) continue;
    std::set<std::pair<std::string, std::int32_t>> seen;
    std::set<std::pair<std::uint64_t, std::uint16_t>> shapes;
    for (std::uint64_t id : p2ps) {
      const auto p = payload<fmt::P2pPayload>(*events.at(id).start);
      seen.insert({name(p.func), p.peer});
      shapes.insert({p.count, p.datatype});
    }
    std::set<std::int32_t> send_peers, recv_peers;
    for (const auto& [func, peer] : seen) (func == "Send" ? send_peers : recv_peers).insert(peer);
    const bool one_each = seen.size() == p2ps.size() && send_peers == recv_peers &&
                          shapes.size() == 1 &&
                          send_peers.size() == static_cast<std::size_t>(rank.nranks) &&
                          send_peers.count(rank.rank) == 1;
    if (!one_each) continue;
    const auto first = payload<fmt::P2pPayload>(*events.at(p2ps.front()).start);
    Op op;
    op.func = "AlltoAll";
    op.count = first.count;
    op.type = user_type(events.at(p2ps.front()), first.datatype);
    op.bytes = first.count * element_size(name(first.datatype)) * rank.nranks;
    op.group = g;
    op.host_start_ns = std::numeric_limits<std::int64_t>::max();
    for (std::uint64_t id : p2ps) {
      op.host_start_ns =
          std::min(op.host_start_ns, static_cast<std::int64_t>(events.at(id).start->host_ns));
    }
    set_span(op, events, p2ps, verdict, rank.clock);
    alltoalls.push_back(op);
    for (Op& member : rank.ops) {
      if (member.group == g && (member.func == "Send" || member.func == "Recv")) {
        member.in_alltoall = true;
      }
    }
  }
  std::stable_sort(alltoalls.begin(), alltoalls.end(),
                   [](const Op& a, const Op& b) { return a.host_start_ns < b.host_start_ns; });
  for (std::size_t k = 0; k < alltoalls.size(); ++k) alltoalls[k].seq = k;
  rank.ops.insert(rank.ops.end(), alltoalls.begin(), alltoalls.end());
  untime_overlapping_groups(rank, events);
  std::stable_sort(rank.ops.begin(), rank.ops.end(),
                   [](const Op& a, const Op& b) { return a.host_start_ns < b.host_start_ns; });
  add_proxy_steps(rank, events, dump);
  return rank;
}

}  // namespace

std::int64_t Clock::host(std::uint64_t gpu_ns) const {
  const double offset = offset0 + drift * static_cast<double>(static_cast<__int128>(gpu_ns) - gpu0);
  return static_cast<std::int64_t>(gpu_ns) - std::llround(offset);
}

std::vector<Rank> read_capture(const std::string& dir) {
  std::vector<Rank> ranks;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    const bool gz = name.size() > 8 && name.compare(name.size() - 8, 8, ".npkt.gz") == 0;
    if (e.path().extension() == ".npkt" || gz) ranks.push_back(read_rank(e.path().string()));
  }
  REQUIRE_FALSE(ranks.empty());
  std::sort(ranks.begin(), ranks.end(),
            [](const Rank& a, const Rank& b) { return a.rank < b.rank; });
  return ranks;
}

std::vector<Instance> join(const std::vector<Rank>& ranks) {
  std::map<std::pair<std::string, std::uint64_t>, Instance> keyed;
  for (const Rank& r : ranks) {
    for (const Op& op : r.ops) {
      if (op.func == "Send" || op.func == "Recv") continue;
      Instance& in = keyed[{op.func, op.seq}];
      in.func = op.func;
      in.key = op.seq;
      in.by_rank[r.rank] = &op;
    }
  }
  std::vector<Instance> out;
  for (auto& [key, in] : keyed) out.push_back(in);
  return out;
}

Sync sync(const std::vector<Instance>& instances) {
  Sync s;
  for (const Instance& in : instances) {
    std::map<std::int32_t, const Op*> timed;
    for (const auto& [rank, op] : in.by_rank) {
      if (op->timed) timed[rank] = op;
    }
    if (timed.size() < 2) continue;
    ++s.compared;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    std::int64_t first_stop = first;
    std::int64_t last_stop = last;
    for (const auto& [rank, op] : timed) {
      first = std::min(first, op->gpu_start_ns);
      last = std::max(last, op->gpu_start_ns);
      first_stop = std::min(first_stop, op->gpu_stop_ns);
      last_stop = std::max(last_stop, op->gpu_stop_ns);
    }
    if (first_stop < last) {
      ++s.violations;
      s.violation_max_ns = std::max(s.violation_max_ns, last - first_stop);
    }
    FuncSync& f = s.funcs[in.func];
    ++f.instances;
    f.spread.push_back(static_cast<double>(last - first));
    f.true_duration.push_back(static_cast<double>(last_stop - last));
    for (const auto& [rank, op] : timed) {
      RankSync& r = s.ranks[rank];
      ++r.instances;
      const std::int64_t skew = last - op->gpu_start_ns;
      const std::int64_t wait = std::max<std::int64_t>(0, std::min(skew, op->span_ns()));
      r.skew.push_back(static_cast<double>(skew));
      r.skew_from_first.push_back(static_cast<double>(op->gpu_start_ns - first));
      r.wait_ns += wait;
      r.busy_ns += op->span_ns();
      f.wait_ns += wait;
      if (op->gpu_start_ns != last) continue;
      ++r.arrived_last;
      std::int64_t latest_other = std::numeric_limits<std::int64_t>::min();
      for (const auto& [other, o] : timed) {
        if (other != rank) latest_other = std::max(latest_other, o->gpu_start_ns);
      }
      r.margins.push_back(static_cast<double>(last - latest_other));
    }
  }
  return s;
}

std::vector<EventRank> read_event_capture(const std::string& dir) {
  std::vector<EventRank> ranks;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".npkt") continue;
    INFO(entry.path().string());
    const ReadEventDump dump = read_event_dump(read_whole_file(entry.path().string()));
    REQUIRE(dump.problems.empty());
    const Clock clock = fit_clock(dump.clock_samples);
    EventRank rank;
    rank.clock = clock;
    rank.streams = dump.streams.size();
    rank.rank = dump.comm.rank;
    rank.nranks = dump.comm.nranks;
    rank.hostname = dump.meta("hostname");
    std::map<std::uint32_t, const ReadEventName*> names;
    for (const auto& n : dump.event_names) names[n.id] = &n;
    for (std::size_t k = 0; k < dump.streams.size(); ++k) {
      const fmt::StreamInfo& stream = dump.streams[k];
      REQUIRE(
          (stream.clock == fmt::kStreamClockGlobalTimer || stream.clock == fmt::kStreamClockHost));
      const bool gpu = stream.source != fmt::kStreamHostThread;
      if (gpu) rank.gpu_records += stream.records_written;
      struct Open {
        std::string name;
        std::int64_t start;
        std::uint64_t size;
        std::int64_t children;
      };
      std::vector<Open> open;
      for (std::uint64_t i = 0; i < stream.records_written; ++i) {
        const fmt::EventRecord& r = dump.records.at(stream.first_record + i);
        REQUIRE(names.count(r.id) == 1);
        const ReadEventName& n = *names.at(r.id);
        const std::int64_t t = stream.clock == fmt::kStreamClockGlobalTimer
                                   ? clock.host(r.timestamp)
                                   : static_cast<std::int64_t>(r.timestamp);
        if (n.kind == fmt::kEventEntry) {
          REQUIRE(n.name.size() > 6);
          open.push_back({n.name.substr(0, n.name.size() - 6), t, r.size, 0});
          continue;
        }
        if (n.kind != fmt::kEventExit) continue;
        const std::string name = n.name.substr(0, n.name.size() - 5);
        // The real captures nest cleanly: an EXIT closes the innermost open span.
        REQUIRE_FALSE(open.empty());
        REQUIRE(open.back().name == name);
        const Open o = open.back();
        open.pop_back();
        Span span;
        span.name = o.name;
        span.gpu = gpu;
        span.stream = k;
        span.start_ns = o.start;
        span.stop_ns = t;
        span.size = o.size;
        span.depth = static_cast<int>(open.size());
        span.top = open.empty() ? o.name : open.front().name;
        span.exclusive_ns = span.ns() - o.children;
        if (!open.empty()) open.back().children += span.ns();
        rank.spans.push_back(span);
      }
      REQUIRE(open.empty());
    }
    ranks.push_back(rank);
  }
  REQUIRE_FALSE(ranks.empty());
  std::sort(ranks.begin(), ranks.end(),
            [](const EventRank& a, const EventRank& b) { return a.rank < b.rank; });
  return ranks;
}

double quantile(std::vector<double> v, double q) {
  REQUIRE_FALSE(v.empty());
  std::sort(v.begin(), v.end());
  const double h = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace npkit::test::plain
