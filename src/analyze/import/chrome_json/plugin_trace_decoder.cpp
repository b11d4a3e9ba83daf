#include "import/chrome_json/plugin_trace_decoder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "import/chrome_json/json_number.hpp"
#include "import/rank_limit.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

// The text of an argument whatever its kind (NCCL's older plugin leaves some strings unquoted).
std::string_view arg_text(const TraceEvent& e, std::string_view key) {
  const EventArg* a = e.arg(key);
  return a == nullptr ? std::string_view() : a->text;
}

// "prefix_12715772615376301750_3.json" → (12715772615376301750, 3).
bool comm_and_rank_from_name(const std::string& path, std::uint64_t& comm, std::int32_t& rank) {
  std::string_view name = path;
  if (const auto slash = name.rfind('/'); slash != std::string_view::npos) {
    name.remove_prefix(slash + 1);
  }
  if (name.size() < 5 || name.substr(name.size() - 5) != ".json") return false;
  name.remove_suffix(5);
  const auto last = name.rfind('_');
  if (last == std::string_view::npos || last == 0) return false;
  const auto before = name.rfind('_', last - 1);
  if (before == std::string_view::npos) return false;
  const auto r = parse_json_int(name.substr(last + 1));
  const auto c = parse_json_uint(name.substr(before + 1, last - before - 1));
  if (!r || !c || *r < 0 || *r >= kMaxRanks) return false;
  comm = *c;
  rank = static_cast<std::int32_t>(*r);
  return true;
}

}  // namespace

std::uint16_t intern_name(PluginRankTrace& trace,
                          std::map<std::string, std::uint32_t, std::less<>>& interned,
                          std::string_view s) {
  if (s.empty()) return 0;
  if (auto it = interned.find(s); it != interned.end())
    return static_cast<std::uint16_t>(it->second);
  if (trace.names.size() >= 0xFFFF) return 0;  // a hostile file: further names read as none
  trace.names.emplace_back(s);
  const auto id = static_cast<std::uint32_t>(trace.names.size() - 1);
  interned.emplace(std::string(s), id);
  return static_cast<std::uint16_t>(id);
}

ExamplePluginDecoder::ExamplePluginDecoder(std::string path, Diagnostics& diagnostics)
    : diagnostics_(diagnostics) {
  trace_.path = std::move(path);
  trace_.producer = trace_producer_name(TraceProducer::kNcclExample);
}

void ExamplePluginDecoder::warn(std::string_view category, const TraceEvent& e,
                                const std::string& what) {
  diagnostics_.warn(category, fmt::format("{}: offset {}: {}", trace_.path, e.offset, what));
}

std::uint16_t ExamplePluginDecoder::intern(std::string_view s) {
  return intern_name(trace_, interned_, s);
}

Status ExamplePluginDecoder::on_event(const TraceEvent& e) {
  if (e.fields == 0) return Ok{};  // the `{}` that closes the plugin's array
  const char ph = e.phase();
  if (ph != 'b' && ph != 'e') {
    warn("unexpected trace event", e,
         fmt::format("phase '{}' is not written by NCCL's example profiler plugin; skipped", e.ph));
    return Ok{};
  }
  auto [it, inserted] = trace_.events_by_category.try_emplace(std::string(e.cat), 0);
  ++it->second;
  if (e.pid && trace_.pid == 0) trace_.pid = *e.pid;
  if (e.cat != "COLL") return Ok{};
  const auto id = e.has_id ? parse_json_uint(e.id) : std::nullopt;
  if (!id || !e.ts_ns) {
    warn("incomplete trace event", e,
         fmt::format("COLL {} event without a numeric id and ts{}; skipped", ph,
                     e.bad_fields.empty() ? "" : fmt::format(" (bad: {})", e.bad_fields)));
    return Ok{};
  }
  if (ph == 'e') {
    auto open = open_colls_.find(*id);
    if (open == open_colls_.end()) {
      ++unmatched_ends_;
      return Ok{};
    }
    trace_.colls[open->second].end_ns = *e.ts_ns;
    open_colls_.erase(open);
    return Ok{};
  }
  const auto seq = e.arg_uint("SeqNum");
  const auto comm = e.arg_uint("CommHash");
  const auto rank = e.arg_int("Rank");
  if (!seq || !e.has_name) {
    warn("incomplete trace event", e, "COLL b event without a name or SeqNum; skipped");
    return Ok{};
  }
  if (rank && (*rank < 0 || *rank >= kMaxRanks)) {
    return Error{
        fmt::format("{}: offset {}: \"Rank\": {}: expected 0 to {} (the largest "
                    "communicator npkit-analyze reads has {} ranks)",
                    trace_.path, e.offset, *rank, kMaxRanks - 1, kMaxRanks)};
  }
  if (comm && rank) {
    if (!comm_from_events_) {
      trace_.comm_hash = *comm;
      trace_.rank = static_cast<std::int32_t>(*rank);
      comm_from_events_ = true;
    } else if (*comm != trace_.comm_hash || *rank != trace_.rank) {
      warn("mixed communicators", e,
           fmt::format("CommHash {} rank {} differs from the file's first collective (CommHash "
                       "{} rank {}); read as the first",
                       *comm, *rank, trace_.comm_hash, trace_.rank));
    }
  }
  PluginColl c;
  c.seq = *seq;
  c.count = e.arg_uint("Count").value_or(0);
  c.func = intern(e.name);
  c.datatype = intern(arg_text(e, "Datatype"));
  c.algo = intern(arg_text(e, "Algorithm"));
  c.proto = intern(arg_text(e, "Protocol"));
  c.channels = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(e.arg_uint("nChannels").value_or(0), 0xFFFFFFFFu));
  c.start_ns = *e.ts_ns;
  if (open_colls_.count(*id) != 0) {
    warn("duplicate event id", e,
         fmt::format("COLL id {} begins again before it ended; the earlier one never ends", *id));
  }
  open_colls_[*id] = trace_.colls.size();
  trace_.colls.push_back(c);
  return Ok{};
}

PluginRankTrace ExamplePluginDecoder::finish() {
  if (!comm_from_events_ && !comm_and_rank_from_name(trace_.path, trace_.comm_hash, trace_.rank)) {
    diagnostics_.warn("unknown rank",
                      trace_.path +
                          ": no COLL event and no <file>_<commHash>_<rank>.json name "
                          "says which communicator and rank the file is");
  }
  for (const auto& c : trace_.colls) trace_.never_ended += c.end_ns == kNeverEnded ? 1 : 0;
  if (trace_.never_ended > 0) {
    diagnostics_.warn("never ended",
                      fmt::format("{}: {} collective(s) began (b) and never ended (e)", trace_.path,
                                  trace_.never_ended),
                      trace_.never_ended);
  }
  if (unmatched_ends_ > 0) {
    diagnostics_.warn(
        "unmatched events",
        fmt::format("{}: {} COLL end(s) (e) without a begin (b)", trace_.path, unmatched_ends_),
        unmatched_ends_);
  }
  return std::move(trace_);
}

OwnProfilerTraceDecoder::OwnProfilerTraceDecoder(std::string path, Diagnostics& diagnostics)
    : path_(std::move(path)), diagnostics_(diagnostics) {}

Status OwnProfilerTraceDecoder::on_header(const TraceHeader& header) {
  if (const std::string* origin = header.other("time_origin_ns")) {
    const auto ns = parse_json_int(*origin);
    if (!ns) return Error{path_ + ": otherData.time_origin_ns is not an integer: " + *origin};
    origin_ns_ = *ns;
  }
  return Ok{};
}

OwnProfilerTraceDecoder::Process& OwnProfilerTraceDecoder::process(std::int64_t pid) {
  auto [it, inserted] = processes_.try_emplace(pid);
  if (inserted) {
    it->second.trace.path = path_;
    it->second.trace.producer = trace_producer_name(TraceProducer::kOwnProfiler);
    it->second.trace.pid = pid;
  }
  return it->second;
}

std::size_t OwnProfilerTraceDecoder::coll_of(Process& p, std::string_view func, std::uint64_t seq) {
  const std::uint16_t f = intern_name(p.trace, p.interned, func);
  auto [it, inserted] = p.by_key.try_emplace({f, seq}, p.trace.colls.size());
  if (inserted) {
    PluginColl c;
    c.seq = seq;
    c.func = f;
    c.start_ns = INT64_MAX;
    p.trace.colls.push_back(c);
  }
  return it->second;
}

Status OwnProfilerTraceDecoder::on_event(const TraceEvent& e) {
  if (!e.pid) return Ok{};
  const char ph = e.phase();
  if (ph == 'M' && e.name == "process_name") {
    // "rank 0, comm 00000000c0ffee01 (node0)"
    const auto name = e.arg_string("name");
    if (!name) return Ok{};
    Process& p = process(*e.pid);
    std::string_view s = *name;
    if (s.rfind("rank ", 0) != 0) return Ok{};
    s.remove_prefix(5);
    const auto comma = s.find(", comm ");
    if (comma == std::string_view::npos) return Ok{};
    const auto rank = parse_json_int(s.substr(0, comma));
    s.remove_prefix(comma + 7);
    const auto space = s.find(' ');
    const std::string_view hex = s.substr(0, space);
    std::uint64_t hash = 0;
    const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), hash, 16);
    if (rank && (*rank < -1 || *rank >= kMaxRanks)) {
      return Error{fmt::format(
          "{}: offset {}: process_name \"rank {}\": expected -1 (unknown) or a rank of 0 to {}",
          path_, e.offset, *rank, kMaxRanks - 1)};
    }
    if (rank && ec == std::errc() && end == hex.data() + hex.size()) {
      p.trace.rank = static_cast<std::int32_t>(*rank);
      p.trace.comm_hash = hash;
    }
    if (space != std::string_view::npos) {
      std::string_view host = s.substr(space + 1);
      if (host.size() >= 2 && host.front() == '(' && host.back() == ')') {
        p.trace.host = std::string(host.substr(1, host.size() - 2));
      }
    }
    return Ok{};
  }
  if (ph != 'X') return Ok{};
  Process& p = process(*e.pid);
  auto [it, inserted] = p.trace.events_by_category.try_emplace(std::string(e.cat), 0);
  ++it->second;
  const auto func = e.arg_string("func");
  const auto seq = e.arg_uint("seq");
  if (!func || !seq || (e.cat != "gpu" && e.cat != "enqueue")) return Ok{};
  if (!e.ts_ns || !e.dur_ns) {
    ++incomplete_;
    return Ok{};
  }
  PluginColl& c = p.trace.colls[coll_of(p, *func, *seq)];
  if (e.cat == "gpu") {
    const std::int64_t start = sat_add(origin_ns_, *e.ts_ns);
    c.start_ns = std::min(c.start_ns, start);
    c.end_ns = std::max(c.end_ns, sat_add(start, *e.dur_ns));
    return Ok{};
  }
  c.count = e.arg_uint("count").value_or(0);
  c.datatype = intern_name(p.trace, p.interned, arg_text(e, "datatype"));
  c.algo = intern_name(p.trace, p.interned, arg_text(e, "algo"));
  c.proto = intern_name(p.trace, p.interned, arg_text(e, "proto"));
  c.channels = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(e.arg_uint("channels").value_or(0), 0xFFFFFFFFu));
  return Ok{};
}

std::vector<PluginRankTrace> OwnProfilerTraceDecoder::finish() {
  std::vector<PluginRankTrace> out;
  std::uint64_t untimed = 0;
  for (auto& [pid, p] : processes_) {
    for (auto& c : p.trace.colls) {
      if (c.end_ns != kNeverEnded) continue;
      ++untimed;
      ++p.trace.never_ended;
      c.start_ns = 0;
    }
    std::sort(p.trace.colls.begin(), p.trace.colls.end(),
              [](const PluginColl& a, const PluginColl& b) { return a.start_ns < b.start_ns; });
    if (p.trace.rank >= 0) out.push_back(std::move(p.trace));
  }
  if (untimed > 0) {
    diagnostics_.warn("never ended",
                      fmt::format("{}: {} collective(s) have no GPU span in the trace (no valid "
                                  "KernelCh); left out of the timing",
                                  path_, untimed),
                      untimed);
  }
  if (incomplete_ > 0) {
    diagnostics_.warn(
        "incomplete trace event",
        fmt::format("{}: {} X event(s) without ts or dur; skipped", path_, incomplete_),
        incomplete_);
  }
  return out;
}

Result<std::vector<PluginRankTrace>> read_profiler_traces(const std::vector<std::string>& paths,
                                                          Diagnostics& diagnostics) {
  std::vector<PluginRankTrace> traces;
  for (const auto& path : paths) {
    NPKIT_ASSIGN(auto identity, identify_trace(path));
    const TraceProducer p = identity.producer;
    if (p == TraceProducer::kNcclExample) {
      ExamplePluginDecoder decoder(path, diagnostics);
      NPKIT_TRY(read_trace_file(path, decoder, TraceReadOptions{}, diagnostics));
      traces.push_back(decoder.finish());
    } else if (p == TraceProducer::kOwnProfiler) {
      OwnProfilerTraceDecoder decoder(path, diagnostics);
      NPKIT_TRY(read_trace_file(path, decoder, TraceReadOptions{}, diagnostics));
      for (auto& t : decoder.finish()) traces.push_back(std::move(t));
    } else {
      return Error{path + ": written by " + trace_producer_name(p) +
                   "; it cannot be read together with profiler-plugin traces"};
    }
  }
  return traces;
}

}  // namespace npkit
