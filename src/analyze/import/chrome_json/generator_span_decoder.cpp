#include "import/chrome_json/generator_span_decoder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace npkit {
namespace {

constexpr std::uint32_t kNegativeSizeBit = 0x80000000u;
constexpr std::int64_t kMaxId = std::numeric_limits<std::uint32_t>::max();

std::uint32_t clamp_u32(std::uint64_t v) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 0xFFFFFFFFu));
}

}  // namespace

struct GeneratorSpanDecoder::GpuPairing {
  TrackRef track;
  NestedPairer pairer;
};

struct GeneratorSpanDecoder::CpuPairing {
  TrackRef track;
  SlotPairer pairer;
};

GeneratorSpanDecoder::GeneratorSpanDecoder(std::string path, EventNameBook& names,
                                           TrackBook& tracks, const RankFilter& ranks,
                                           JsonSpanTarget& target, Diagnostics& diagnostics)
    : path_(std::move(path)),
      names_(names),
      tracks_(tracks),
      ranks_(ranks),
      target_(target),
      diagnostics_(diagnostics) {}

GeneratorSpanDecoder::~GeneratorSpanDecoder() = default;

void GeneratorSpanDecoder::warn(std::string_view category, const TraceEvent& e,
                                const std::string& what) {
  diagnostics_.warn(category, fmt::format("{}: offset {}: {}", path_, e.offset, what));
}

GeneratorSpanDecoder::Thread* GeneratorSpanDecoder::thread_of(const TraceEvent& e) {
  const auto pid = static_cast<std::uint32_t>(*e.pid);
  const auto tid = static_cast<std::uint32_t>(*e.tid);
  const std::uint64_t key = std::uint64_t{pid} << 32 | tid;
  if (last_thread_ != nullptr && last_key_ == key) return last_thread_;
  auto& slot = threads_[key];
  if (!slot) {
    const bool gpu = e.cat == "GPU" || (e.cat != "CPU" && tid < 1000);
    TrackRef track{pid, gpu ? TrackKind::kGpu : TrackKind::kCpu, 0};
    if (gpu) {
      if (tid == 0 && !e.arg_uint("buf_idx")) return nullptr;
      track.index = clamp_u32(e.arg_uint("buf_idx").value_or(tid - 1));
    } else {
      if (tid < 1000 && !e.arg_uint("channel")) return nullptr;
      track.index = clamp_u32(e.arg_uint("channel").value_or(tid / 1000 - 1));
    }
    slot = std::make_unique<Thread>();
    slot->track = track;
    const auto same = [&](const auto& p) { return p->track == track; };
    if (gpu) {
      auto it = std::find_if(gpu_.begin(), gpu_.end(), same);
      if (it == gpu_.end()) {
        gpu_.push_back(std::make_unique<GpuPairing>(GpuPairing{
            track, NestedPairer(names_.phases().phase_of_base, names_.phases().other_phase)}));
        it = gpu_.end() - 1;
      }
      slot->pairer = static_cast<std::uint32_t>(it - gpu_.begin());
    } else {
      auto it = std::find_if(cpu_.begin(), cpu_.end(), same);
      if (it == cpu_.end()) {
        cpu_.push_back(std::make_unique<CpuPairing>(CpuPairing{
            track, SlotPairer(names_.phases().phase_of_base, names_.phases().other_phase)}));
        it = cpu_.end() - 1;
      }
      slot->pairer = static_cast<std::uint32_t>(it - cpu_.begin());
    }
  }
  last_key_ = key;
  last_thread_ = slot.get();
  return last_thread_;
}

std::uint32_t GeneratorSpanDecoder::size_arg(const TraceEvent& e, std::string_view key,
                                             std::string_view fallback, std::uint16_t base) {
  auto v = e.arg_uint(key);
  if (!v) v = e.arg_uint(fallback);
  if (!v) return 0;
  if (*v > 0xFFFFFFFFu) {
    warn("size out of range", e, fmt::format("size {} does not fit 32 bits; read as 0", *v));
    return 0;
  }
  const auto size = static_cast<std::uint32_t>(*v);
  if (size >= kNegativeSizeBit && !names_.collective_level(base)) {
    ++negative_sizes_;  // a wrapped negative step size, as the binary reader reads it
    return 0;
  }
  return size;
}

Status GeneratorSpanDecoder::on_event(const TraceEvent& e) {
  const char ph = e.phase();
  if (ph == 'M') return Ok{};
  if (ph == 'i' || ph == 'I') {
    ++instants_;
    return Ok{};
  }
  if (ph != 'B' && ph != 'E') {
    if (e.fields == 0) return Ok{};  // an empty object closing the array
    warn("unexpected trace event", e,
         e.has_ph ? fmt::format("phase '{}' is not written by NPKit's generator; skipped", e.ph)
                  : std::string("event without \"ph\"; skipped"));
    return Ok{};
  }
  if (!e.pid || !e.tid || !e.ts_ns || *e.pid < 0 || *e.pid > kMaxId || *e.tid < 0 ||
      *e.tid > kMaxId) {
    warn("incomplete trace event", e,
         fmt::format("{} event without a usable pid, tid and ts{}; skipped", ph,
                     e.bad_fields.empty() ? "" : fmt::format(" (bad: {})", e.bad_fields)));
    return Ok{};
  }
  tracks_.note_rank(static_cast<std::uint32_t>(*e.pid));
  if (!ranks_.contains(static_cast<std::uint32_t>(*e.pid))) return Ok{};
  Thread* t = thread_of(e);
  if (t == nullptr) {
    warn("incomplete trace event", e,
         fmt::format("tid {} names no GPU buffer or CPU channel; skipped", *e.tid));
    return Ok{};
  }
  const bool gpu = t->track.kind == TrackKind::kGpu;
  JsonTrack& jt = tracks_.at(t->track, TimeDomain::kHost, path_);
  TrackStats& stats = jt.stats;
  const std::uint64_t record = stats.records++;
  const std::int64_t ns = *e.ts_ns;
  note_track_time(stats, ns);
  const auto arg32 = [&](std::string_view key, std::string_view fallback) {
    auto v = e.arg_uint(key);
    if (!v) v = e.arg_uint(fallback);
    return v ? std::optional<std::uint32_t>(clamp_u32(*v)) : std::nullopt;
  };

  if (ph == 'B') {
    if (!e.has_name) {
      warn("incomplete trace event", e, "B event without a name; skipped");
      return Ok{};
    }
    const auto base = names_.base_of(e.name);
    if (!base) {
      warn("too many event names", e,
           fmt::format("no event id left for '{}' (256 names at most); skipped", e.name));
      return Ok{};
    }
    const std::uint32_t size = size_arg(e, "size_0", "size", *base);
    Open open{*base, 0, 0, 0, 0};
    if (gpu) {
      gpu_[t->pairer]->pairer.open(*base, ns, size, arg32("rsvd_0", "rsvd").value_or(0), record);
    } else {
      open.slot = arg32("slot", "slot").value_or(static_cast<std::uint32_t>(*e.tid % 1000));
      open.sender_rank = arg32("sender_rank", "sender_rank").value_or(0);
      open.receiver_rank = arg32("receiver_rank", "receiver_rank").value_or(0);
      open.step = arg32("step", "step").value_or(0);
      tracks_.note_cpu_fields(e.arg("sender_rank") != nullptr, e.arg("step") != nullptr);
      cpu_[t->pairer]->pairer.open(*base, ns, size, open.slot, record);
    }
    t->open.push_back(open);
    return Ok{};
  }

  // E: the innermost open event of its name, or (no name) the innermost one.
  std::optional<std::uint16_t> base;
  if (e.has_name) {
    base = names_.base_of(e.name);
    if (!base) {
      warn("too many event names", e,
           fmt::format("no event id left for '{}' (256 names at most); skipped", e.name));
      return Ok{};
    }
  }
  std::size_t at = t->open.size();
  if (base) {
    while (at > 0 && t->open[at - 1].base != *base) --at;
  }
  if (at == 0) {
    const std::uint16_t b = base ? *base : names_.base_of("(unnamed)").value_or(0);
    ++stats.unmatched_exits;
    target_.on_unmatched(
        UnmatchedEvent{t->track, b, EventKind::kExit, record, ns, size_arg(e, "size", "size_0", b)},
        TimeDomain::kHost);
    return Ok{};
  }
  const Open open = t->open[at - 1];
  t->open.erase(t->open.begin() + static_cast<std::ptrdiff_t>(at - 1));
  const std::uint32_t size = size_arg(e, "size", "size_0", open.base);
  bool closed = false;
  if (gpu) {
    closed = gpu_[t->pairer]->pairer.close(open.base, ns, size, arg32("rsvd", "rsvd_0").value_or(0),
                                           record, span_);
  } else {
    closed = cpu_[t->pairer]->pairer.close(open.base, ns, size, open.slot, record, span_);
    span_.sender_rank =
        static_cast<std::uint8_t>(arg32("sender_rank", "sender_rank").value_or(open.sender_rank));
    span_.receiver_rank = static_cast<std::uint8_t>(
        arg32("receiver_rank", "receiver_rank").value_or(open.receiver_rank));
    span_.step = arg32("step", "step").value_or(open.step);
  }
  if (!closed) return Ok{};  // cannot happen: `open` mirrors the pairer's open events
  span_.track = t->track;
  ++stats.spans;
  target_.on_span(span_, TimeDomain::kHost);
  return Ok{};
}

void GeneratorSpanDecoder::finish() {
  const auto drain = [&](const TrackRef& track, std::vector<OpenEvent> left) {
    if (left.empty()) return;
    JsonTrack& jt = tracks_.at(track, TimeDomain::kHost, path_);
    for (const auto& o : left) {
      ++jt.stats.unmatched_entries;
      target_.on_unmatched(
          UnmatchedEvent{track, o.base, EventKind::kEntry, o.record, o.start_ns, o.size},
          TimeDomain::kHost);
    }
  };
  for (auto& g : gpu_) drain(g->track, g->pairer.drain_unmatched());
  for (auto& c : cpu_) drain(c->track, c->pairer.drain_unmatched());
  tracks_.warn_unmatched(path_, diagnostics_);
  if (negative_sizes_ > 0) {
    diagnostics_.warn("negative sizes",
                      fmt::format("{}: {} step event(s) carry a negative byte count (a channel "
                                  "with no data in that step, wrapped to 32 bits); read as 0 bytes",
                                  path_, negative_sizes_),
                      negative_sizes_);
  }
}

}  // namespace npkit
