// gen_legacy_dump.cpp — writes a large synthetic legacy NPKit dump for benchmarks.
// Contract: the directory looks like an NCCL 2.17 NPKit dump of ring all-reduce runs
// (docs/performance.md): per rank `--gpu-files` GPU buffer files of which the first `--buffers`
// hold events, `--cpu-files` CPU channel files of which the first `--cpu-channels` hold
// NET_SEND/NET_RECV events, and the three clock files. Every GPU buffer holds the same sequence
// of whole collectives (TIME_SYNC_CPU, TIME_SYNC_GPU, ALL_REDUCE_RING_ENTRY, per loop the five
// ring steps each wrapping PRIM_SIMPLE_REDUCE_OR_COPY_MULTI calls, ALL_REDUCE_RING_EXIT), as
// many as fit in `--records` records, so a buffer is never exactly full. Output is fully
// determined by the options (same seed, same bytes). The expected counts (records, spans) are
// printed and written to `<out>.expected` next to the directory, for bench/run_bench.sh, and the
// event ids it uses to `<out>.npkit_event.h`, for NPKit's own trace generator.
// Standard library only.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Event ids of the standard NPKit NCCL table (reference: npkit-formats.md 4.1).
constexpr std::uint8_t kRingEntry = 0x01;
constexpr std::uint8_t kRingExit = 0x02;
constexpr std::uint8_t kPrimEntry = 0x25;  // PRIM_SIMPLE_REDUCE_OR_COPY_MULTI
constexpr std::uint8_t kNetSendEntry = 0x2F;
constexpr std::uint8_t kNetRecvEntry = 0x31;
constexpr std::uint8_t kTimeSyncGpu = 0x33;
constexpr std::uint8_t kTimeSyncCpu = 0x34;
constexpr std::uint8_t kStepSend = 0x35;                      // ALL_REDUCE_RING_SEND
constexpr std::uint8_t kStepRecvReduceSend = 0x37;            // ..._RECV_REDUCE_SEND
constexpr std::uint8_t kStepDirectRecvReduceCopySend = 0x39;  // ..._DIRECT_RECV_REDUCE_COPY_SEND
constexpr std::uint8_t kStepDirectRecvCopySend = 0x3B;        // ..._DIRECT_RECV_COPY_SEND
constexpr std::uint8_t kStepDirectRecv = 0x3D;                // ..._DIRECT_RECV

// The names of those ids (ENTRY, EXIT = ENTRY + 1), for the event header written beside the dump.
struct NamedEvent {
  std::uint8_t entry;
  const char* name;  // without NPKIT_EVENT_ and _ENTRY / _EXIT
};
constexpr NamedEvent kSpanEvents[] = {
    {kRingEntry, "ALL_REDUCE_RING"},
    {kPrimEntry, "PRIM_SIMPLE_REDUCE_OR_COPY_MULTI"},
    {kNetSendEntry, "NET_SEND"},
    {kNetRecvEntry, "NET_RECV"},
    {kStepSend, "ALL_REDUCE_RING_SEND"},
    {kStepRecvReduceSend, "ALL_REDUCE_RING_RECV_REDUCE_SEND"},
    {kStepDirectRecvReduceCopySend, "ALL_REDUCE_RING_DIRECT_RECV_REDUCE_COPY_SEND"},
    {kStepDirectRecvCopySend, "ALL_REDUCE_RING_DIRECT_RECV_COPY_SEND"},
    {kStepDirectRecv, "ALL_REDUCE_RING_DIRECT_RECV"},
};

constexpr std::size_t kRecordBytes = 16;
constexpr std::uint64_t kGpuKhz = 1980000;  // H200 peak SM clock, as its dumps record it
constexpr std::uint64_t kEpochStartNs = 1796023542649048027ull;  // as in the H200 samples
constexpr std::uint64_t kCpuBufferCapacity = 2097152;            // NCCL patch CPU buffer
constexpr std::uint64_t kSlotsInFlight = 8;                      // NCCL_STEPS

struct Options {
  std::string out;
  std::uint32_t ranks = 8;
  std::uint32_t buffers = 64;
  std::uint64_t records = 65536;
  std::uint32_t cpu_channels = 2;
  std::uint32_t gpu_files = 512;
  std::uint32_t cpu_files = 32;
  std::uint64_t seed = 1;
  bool force = false;
};

// splitmix64: small, fast and fully deterministic.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound).
  std::uint64_t below(std::uint64_t bound) { return bound == 0 ? 0 : next() % bound; }

 private:
  std::uint64_t state_;
};

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  return Rng(a * 0x2545F4914F6CDD1Dull ^ (b + 0x632BE59BD9B4E019ull)).next();
}

// One all-reduce as every rank and buffer executes it.
struct Collective {
  std::uint64_t bytes = 0;     // total op bytes (ENTRY/EXIT size)
  std::uint32_t loops = 1;     // outer ring loop iterations
  std::uint64_t chunk = 0;     // bytes per ring step of one loop on one channel
  std::uint64_t start_ns = 0;  // host time the kernel starts (before per-buffer skew)
  std::uint64_t span_ns = 0;   // upper bound of its duration on any buffer
  std::uint64_t gpu_records = 0;
  std::uint64_t gpu_spans = 0;
  std::uint64_t cpu_records = 0;
};

// Ring steps of one loop, in order: id, how many primitive calls the step covers, size factor.
struct StepShape {
  std::uint8_t entry_id;
  std::uint32_t prims;
  std::uint64_t size_factor;
};

std::vector<StepShape> ring_steps(std::uint32_t nranks) {
  const std::uint32_t middle = nranks > 2 ? nranks - 2 : 0;
  std::vector<StepShape> steps;
  steps.push_back({kStepSend, 1, 1});
  if (middle > 0) steps.push_back({kStepRecvReduceSend, middle, middle});
  steps.push_back({kStepDirectRecvReduceCopySend, 1, 1});
  if (middle > 0) steps.push_back({kStepDirectRecvCopySend, middle, middle});
  steps.push_back({kStepDirectRecv, 1, 1});
  return steps;
}

// GPU ticks of one primitive call moving `bytes` (about 25 GB/s per channel plus latency),
// without jitter.
std::uint64_t prim_ticks(std::uint64_t bytes) {
  return 600 + bytes * kGpuKhz / 25000000;
}

constexpr std::uint64_t kMaxJitterTicks = 255;
constexpr std::uint64_t kStepGapTicks = 1000;  // between step events
constexpr std::uint64_t kPrimGapTicks = 300;   // inside a step, before/after each primitive
constexpr std::uint64_t kEdgeTicks = 700;      // ENTRY after the sync pair, EXIT after last step
constexpr std::uint64_t kMaxSkewNs = 500;      // per-buffer launch skew

std::uint64_t ticks_to_ns(std::uint64_t ticks) {
  return ticks * 1000000 / kGpuKhz;
}
std::uint64_t ns_to_ticks(std::uint64_t ns) {
  return ns * kGpuKhz / 1000000;
}

// Plans the collectives every buffer holds: nccl-tests style sizes 1 KiB .. 64 MiB, repeated,
// as many as fit in `budget` records per GPU buffer.
std::vector<Collective> plan(const Options& o) {
  const auto steps = ring_steps(o.ranks);
  std::uint64_t prims_per_loop = 0;
  for (const auto& s : steps) prims_per_loop += s.prims;
  const std::uint64_t records_per_loop = 2 * (steps.size() + prims_per_loop);
  const std::uint64_t net_steps_per_loop = 2 * (o.ranks > 1 ? o.ranks - 1 : 1);
  const std::uint64_t loop_bytes = std::uint64_t{o.buffers} * o.ranks * 32768;

  std::vector<Collective> plan;
  std::uint64_t used = 0;
  std::uint64_t cpu_used = 0;
  std::uint64_t now_ns = kEpochStartNs;
  for (std::uint64_t c = 0;; ++c) {
    Collective k;
    k.bytes = std::uint64_t{1024} << (c % 17);
    k.loops = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>((k.bytes + loop_bytes - 1) / loop_bytes, 1, 8));
    k.chunk = std::max<std::uint64_t>(16, k.bytes / (std::uint64_t{o.buffers} * o.ranks * k.loops));
    k.gpu_records = 4 + k.loops * records_per_loop;
    k.gpu_spans = 1 + k.loops * (steps.size() + prims_per_loop);
    k.cpu_records = 4 * net_steps_per_loop * k.loops;
    if (used + k.gpu_records > o.records) break;
    if (o.cpu_channels > 0 && cpu_used + k.cpu_records > kCpuBufferCapacity) break;
    used += k.gpu_records;
    cpu_used += k.cpu_records;
    std::uint64_t ticks = 2 * kEdgeTicks;
    for (const auto& s : steps) {
      ticks += kStepGapTicks + s.prims * (2 * kPrimGapTicks + kMaxJitterTicks +
                                          prim_ticks(k.chunk * s.size_factor / s.prims));
    }
    k.span_ns = ticks_to_ns(ticks * k.loops) + kMaxSkewNs + 1000;
    k.start_ns = now_ns;
    now_ns += k.span_ns + 15000 + mix(o.seed, c) % 5000;  // 15-20 µs launch gap
    plan.push_back(k);
  }
  return plan;
}

class RecordWriter {
 public:
  void reserve(std::size_t records) { bytes_.reserve(records * kRecordBytes); }
  void clear() { bytes_.clear(); }
  void add(std::uint8_t id, std::uint32_t size, std::uint32_t rsvd, std::uint64_t timestamp) {
    std::uint8_t r[kRecordBytes];
    r[0] = id;
    for (int i = 0; i < 4; ++i) r[1 + i] = static_cast<std::uint8_t>(size >> (8 * i));
    for (int i = 0; i < 3; ++i) r[5 + i] = static_cast<std::uint8_t>(rsvd >> (8 * i));
    for (int i = 0; i < 8; ++i) r[8 + i] = static_cast<std::uint8_t>(timestamp >> (8 * i));
    bytes_.insert(bytes_.end(), r, r + kRecordBytes);
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::size_t records() const { return bytes_.size() / kRecordBytes; }

 private:
  std::vector<std::uint8_t> bytes_;
};

std::uint32_t size_field(std::uint64_t bytes) {
  return static_cast<std::uint32_t>(bytes);
}

// One GPU buffer: the planned collectives, with this buffer's clock base and jitter.
void fill_gpu_buffer(const Options& o, const std::vector<Collective>& plan, std::uint32_t rank,
                     std::uint32_t buffer, RecordWriter& w) {
  const auto steps = ring_steps(o.ranks);
  Rng rng(mix(o.seed, (std::uint64_t{rank} << 32) | buffer));
  // clock64 is per SM: every buffer's counter has its own origin.
  const std::uint64_t counter_origin =
      38000000000ull + rank * 1300000000ull + buffer * 7919000ull + rng.below(1000000);
  for (const auto& k : plan) {
    const std::uint64_t start_ns = k.start_ns + rng.below(kMaxSkewNs);
    std::uint64_t t = counter_origin + ns_to_ticks(start_ns - kEpochStartNs);
    w.add(kTimeSyncCpu, 0, 0, start_ns);
    w.add(kTimeSyncGpu, 0, 0, t);
    t += kEdgeTicks / 2 + rng.below(kMaxJitterTicks);
    w.add(kRingEntry, size_field(k.bytes), 0, t);
    for (std::uint32_t loop = 0; loop < k.loops; ++loop) {
      for (const auto& s : steps) {
        t += kStepGapTicks / 2 + rng.below(kStepGapTicks / 2);
        const std::uint64_t step_bytes = k.chunk * s.size_factor;
        w.add(s.entry_id, size_field(step_bytes), 0, t);
        std::uint64_t busy = 0;
        for (std::uint32_t p = 0; p < s.prims; ++p) {
          t += kPrimGapTicks / 2 + rng.below(kPrimGapTicks / 2);
          w.add(kPrimEntry, size_field(k.chunk), 0, t);
          const std::uint64_t d = prim_ticks(k.chunk) + rng.below(kMaxJitterTicks);
          t += d;
          busy += d;
          w.add(kPrimEntry + 1, size_field(k.chunk), 0, t);
          t += kPrimGapTicks / 2;
        }
        // EXIT rsvd: data-process ticks (ENABLE_NPKIT_PRIM_COLLECT_DATA_PROCESS_TIME), 24 bits.
        w.add(s.entry_id + 1, size_field(step_bytes), static_cast<std::uint32_t>(busy & 0xFFFFFF),
              t);
      }
    }
    t += kEdgeTicks / 2 + rng.below(kMaxJitterTicks);
    w.add(kRingExit, size_field(k.bytes), 0, t);
  }
}

// One CPU channel: for every ring step of every loop a NET_RECV and a NET_SEND, posted ahead and
// completed in order, at most kSlotsInFlight of each in flight; rsvd = the request slot.
void fill_cpu_channel(const Options& o, const std::vector<Collective>& plan, std::uint32_t rank,
                      std::uint32_t channel, RecordWriter& w) {
  struct Event {
    std::uint64_t ns;
    std::uint8_t id;
    std::uint32_t size;
    std::uint32_t slot;
  };
  Rng rng(mix(o.seed ^ 0xC0FFEE, (std::uint64_t{rank} << 32) | channel));
  // Slot = request address / 8, truncated to 24 bits (npkit-formats.md 6.5).
  const std::uint32_t send_slots =
      static_cast<std::uint32_t>((0x7F3A1C0000ull >> 3) + rank * 4096 + channel * 256) & 0xFFFFFF;
  const std::uint32_t recv_slots = (send_slots + 128) & 0xFFFFFF;
  std::vector<Event> events;
  for (const auto& k : plan) {
    const std::uint64_t steps = 2 * (o.ranks > 1 ? o.ranks - 1 : 1) * k.loops;
    // Every request completes within 4 steps, so a slot is free again when it is reused
    // (kSlotsInFlight steps later) and the collective's events end inside its time span.
    const std::uint64_t step_ns = std::max<std::uint64_t>(k.span_ns / (steps + 4), 64);
    const std::uint64_t latency_ns = step_ns * 3;
    events.clear();
    for (std::uint64_t s = 0; s < steps; ++s) {
      const std::uint64_t base = k.start_ns + s * step_ns;
      const auto slot = static_cast<std::uint32_t>(s % kSlotsInFlight) * 5;  // 40-byte requests
      const std::uint64_t recv_post = base + rng.below(step_ns / 4 + 1);
      const std::uint64_t send_post = base + step_ns / 2 + rng.below(step_ns / 4 + 1);
      const auto sz = size_field(k.chunk);
      events.push_back({recv_post, kNetRecvEntry, sz, (recv_slots + slot) & 0xFFFFFF});
      events.push_back({recv_post + latency_ns + rng.below(step_ns / 4 + 1),
                        static_cast<std::uint8_t>(kNetRecvEntry + 1), sz,
                        (recv_slots + slot) & 0xFFFFFF});
      events.push_back({send_post, kNetSendEntry, sz, (send_slots + slot) & 0xFFFFFF});
      events.push_back({send_post + latency_ns + rng.below(step_ns / 4 + 1),
                        static_cast<std::uint8_t>(kNetSendEntry + 1), sz,
                        (send_slots + slot) & 0xFFFFFF});
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const Event& a, const Event& b) { return a.ns < b.ns; });
    for (const auto& e : events) w.add(e.id, e.size, e.slot, e.ns);
  }
}

void write_file(const fs::path& path, const void* data, std::size_t bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot create " + path.string());
  const bool ok = bytes == 0 || std::fwrite(data, 1, bytes, f) == bytes;
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error("cannot write " + path.string());
}

void write_text(const fs::path& path, std::string_view text) {
  write_file(path, text.data(), text.size());
}

bool is_dump_file_name(const std::string& name) {
  for (std::string_view p :
       {"gpu_events_rank_", "cpu_events_rank_", "cpu_clock_period_", "gpu_clock_rate_rank_"}) {
    if (name.rfind(p, 0) == 0) return true;
  }
  return false;
}

void prepare_directory(const Options& o) {
  const fs::path dir(o.out);
  if (fs::exists(dir) && !fs::is_directory(dir)) {
    throw std::runtime_error(o.out + " exists and is not a directory");
  }
  fs::create_directories(dir);
  std::vector<fs::path> old;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!is_dump_file_name(e.path().filename().string())) {
      throw std::runtime_error(o.out + " holds " + e.path().filename().string() +
                               ", which is not a dump file; use an empty directory");
    }
    old.push_back(e.path());
  }
  if (!old.empty() && !o.force) {
    throw std::runtime_error(o.out + " already holds a dump (" + std::to_string(old.size()) +
                             " files); pass --force to replace it");
  }
  for (const auto& p : old) fs::remove(p);
}

std::string with_commas(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

void usage(std::FILE* to) {
  std::fprintf(
      to,
      "usage: npkit_gen_legacy_dump --out DIR [--ranks N] [--buffers N] [--records N]\n"
      "                             [--cpu-channels N] [--gpu-files N] [--cpu-files N]\n"
      "                             [--seed S] [--force]\n"
      "Writes a synthetic legacy NPKit dump shaped like NCCL ring all-reduce runs.\n"
      "  --out DIR          dump directory (created; must be empty or hold a dump with --force)\n"
      "  --ranks N          ranks (default 8; also the ring size)\n"
      "  --buffers N        non-empty GPU buffers per rank (default 64)\n"
      "  --records N        record budget per GPU buffer (default 65536); each buffer holds\n"
      "                     as many whole collectives as fit, so it is never exactly full\n"
      "  --cpu-channels N   non-empty CPU channel files per rank, NET_SEND/NET_RECV (default 2)\n"
      "  --gpu-files N      GPU buffer files per rank, the rest empty (default 512, as NCCL)\n"
      "  --cpu-files N      CPU channel files per rank, the rest empty (default 32)\n"
      "  --seed S           seed of the timing jitter (default 1)\n"
      "  --force            replace the dump files already in DIR\n"
      "Prints what it wrote, writes the expected counts to DIR.expected and the event ids\n"
      "as npkit_event.h defines them to DIR.npkit_event.h.\n");
}

template <typename T>
T parse_number(std::string_view flag, std::string_view text) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw std::runtime_error(std::string(flag) + ": '" + std::string(text) +
                             "' is not a non-negative integer");
  }
  return v;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      std::exit(0);
    }
    if (a == "--force") {
      o.force = true;
      continue;
    }
    static constexpr std::string_view kValued[] = {"--out",          "--ranks",     "--buffers",
                                                   "--records",      "--gpu-files", "--cpu-files",
                                                   "--cpu-channels", "--seed"};
    if (std::find(std::begin(kValued), std::end(kValued), a) == std::end(kValued)) {
      throw std::runtime_error("unknown option " + std::string(a) + " (see --help)");
    }
    if (i + 1 >= argc) throw std::runtime_error(std::string(a) + ": missing value");
    const std::string_view v = argv[++i];
    if (a == "--out") {
      o.out = v;
    } else if (a == "--ranks") {
      o.ranks = parse_number<std::uint32_t>(a, v);
    } else if (a == "--buffers") {
      o.buffers = parse_number<std::uint32_t>(a, v);
    } else if (a == "--records") {
      o.records = parse_number<std::uint64_t>(a, v);
    } else if (a == "--cpu-channels") {
      o.cpu_channels = parse_number<std::uint32_t>(a, v);
    } else if (a == "--gpu-files") {
      o.gpu_files = parse_number<std::uint32_t>(a, v);
    } else if (a == "--cpu-files") {
      o.cpu_files = parse_number<std::uint32_t>(a, v);
    } else {
      o.seed = parse_number<std::uint64_t>(a, v);
    }
  }
  if (o.out.empty()) throw std::runtime_error("--out DIR is required (see --help)");
  if (o.ranks == 0 || o.ranks > 4096) throw std::runtime_error("--ranks: expected 1..4096");
  if (o.buffers == 0) throw std::runtime_error("--buffers: expected at least 1");
  if (o.records > (std::uint64_t{1} << 26)) {
    throw std::runtime_error("--records: at most 67108864 per buffer");
  }
  o.gpu_files = std::max(o.gpu_files, o.buffers);
  o.cpu_files = std::max(o.cpu_files, o.cpu_channels);
  return o;
}

// The ids the dump uses, as NPKit's npkit_event.h defines them: what its own trace generator
// (npkit_trace_generator.py --npkit_event_header_path) needs to name the events.
std::string event_header() {
  std::string out = "// The NPKit event ids of a dump written by npkit_gen_legacy_dump.\n";
  const auto define = [&](const std::string& name, unsigned id) {
    char hex[8];
    std::snprintf(hex, sizeof(hex), "0x%X", id);
    out += "#define NPKIT_EVENT_" + name + " " + hex + "\n";
  };
  for (const NamedEvent& e : kSpanEvents) {
    define(std::string(e.name) + "_ENTRY", e.entry);
    define(std::string(e.name) + "_EXIT", e.entry + 1u);
  }
  define("TIME_SYNC_GPU", kTimeSyncGpu);
  define("TIME_SYNC_CPU", kTimeSyncCpu);
  return out;
}

int run(const Options& o) {
  prepare_directory(o);
  const fs::path dir(o.out);
  const std::vector<Collective> collectives = plan(o);
  std::uint64_t gpu_records = 0, gpu_spans = 0, cpu_records = 0, cpu_spans = 0, loops = 0;
  for (const auto& k : collectives) {
    gpu_records += k.gpu_records;
    gpu_spans += k.gpu_spans;
    cpu_records += k.cpu_records;
    loops += k.loops;
  }
  cpu_spans = cpu_records / 2;

  RecordWriter w;
  w.reserve(static_cast<std::size_t>(std::max(gpu_records, cpu_records)));
  std::uint64_t files = 0, bytes = 0;
  for (std::uint32_t r = 0; r < o.ranks; ++r) {
    const std::string rank = std::to_string(r);
    write_text(dir / ("cpu_clock_period_num_rank_" + rank), "1");
    write_text(dir / ("cpu_clock_period_den_rank_" + rank), "1000000000");
    write_text(dir / ("gpu_clock_rate_rank_" + rank), std::to_string(kGpuKhz));
    files += 3;
    for (std::uint32_t b = 0; b < o.gpu_files; ++b) {
      w.clear();
      if (b < o.buffers) fill_gpu_buffer(o, collectives, r, b, w);
      write_file(dir / ("gpu_events_rank_" + rank + "_buf_" + std::to_string(b)), w.bytes().data(),
                 w.bytes().size());
      bytes += w.bytes().size();
      ++files;
    }
    for (std::uint32_t c = 0; c < o.cpu_files; ++c) {
      w.clear();
      if (c < o.cpu_channels) fill_cpu_channel(o, collectives, r, c, w);
      write_file(dir / ("cpu_events_rank_" + rank + "_channel_" + std::to_string(c)),
                 w.bytes().data(), w.bytes().size());
      bytes += w.bytes().size();
      ++files;
    }
  }

  const std::uint64_t gpu_buffers = std::uint64_t{o.ranks} * o.buffers;
  const std::uint64_t cpu_channels = std::uint64_t{o.ranks} * o.cpu_channels;
  const std::uint64_t total_records = gpu_records * gpu_buffers + cpu_records * cpu_channels;
  const std::uint64_t total_spans = gpu_spans * gpu_buffers + cpu_spans * cpu_channels;
  std::printf("wrote %s: %u ranks, %s files, %s bytes of events (%.1f MB)\n", o.out.c_str(),
              o.ranks, with_commas(files).c_str(), with_commas(bytes).c_str(), bytes / 1e6);
  std::printf(
      "  GPU: %s non-empty buffers x %s records (%zu collectives, %s ring loops; budget %s)\n",
      with_commas(gpu_buffers).c_str(), with_commas(gpu_records).c_str(), collectives.size(),
      with_commas(loops).c_str(), with_commas(o.records).c_str());
  std::printf("       %s spans (ENTRY/EXIT pairs) and %zu TIME_SYNC records per buffer\n",
              with_commas(gpu_spans).c_str(), 2 * collectives.size());
  std::printf("  CPU: %s non-empty channels x %s records, %s NET_SEND/NET_RECV pairs per channel\n",
              with_commas(cpu_channels).c_str(), with_commas(cpu_records).c_str(),
              with_commas(cpu_spans).c_str());
  std::printf("  total: %s records, %s spans expected\n", with_commas(total_records).c_str(),
              with_commas(total_spans).c_str());

  std::string expected;
  const auto kv = [&](const char* key, std::uint64_t v) {
    expected += std::string(key) + "=" + std::to_string(v) + "\n";
  };
  kv("ranks", o.ranks);
  kv("files", files);
  kv("bytes", bytes);
  kv("records", total_records);
  kv("spans", total_spans);
  kv("gpu_buffers", gpu_buffers);
  kv("gpu_records_per_buffer", gpu_records);
  kv("gpu_spans_per_buffer", gpu_spans);
  kv("gpu_sync_records_per_buffer", 2 * collectives.size());
  kv("collectives_per_buffer", collectives.size());
  kv("cpu_channels", cpu_channels);
  kv("cpu_records_per_channel", cpu_records);
  kv("cpu_spans_per_channel", cpu_spans);
  std::string sidecar = o.out;
  while (sidecar.size() > 1 && sidecar.back() == '/') sidecar.pop_back();
  write_text(sidecar + ".expected", expected);
  write_text(sidecar + ".npkit_event.h", event_header());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_options(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "npkit_gen_legacy_dump: %s\n", e.what());
    return 2;
  }
}
