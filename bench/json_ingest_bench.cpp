// json_ingest_bench.cpp — throughput of the Chrome-trace JSON ingest (docs/performance.md).
//
//   npkit_json_ingest_bench gen FILE MB          writes a trace shaped like NPKit's generator's
//   npkit_json_ingest_bench read FILE [REPEAT]   times the ingest of FILE
//
// Contract:
// - gen writes at least MB × 10^6 bytes: 8 ranks × 4 GPU buffers, each running ring all-reduce
//   kernels (ALL_REDUCE_RING around SEND, DIRECT_RECV_REDUCE_COPY_SEND and DIRECT_RECV steps, one
//   PRIM_SIMPLE_REDUCE_OR_COPY_MULTI nested in each step), plus one CPU channel per rank with
//   NET_SEND requests on two slots; events sorted by ts across tracks as the generator sorts
//   them, with its field order, args and µs timestamps (three decimals). Deterministic.
// - read runs, REPEAT times (default 3): (1) the reader alone (every event decoded into a
//   TraceEvent, nothing kept), (2) the whole span ingest as `report` uses it (producer check,
//   pairing, phases, per-rank phase totals). Each prints wall seconds and MB/s (10^6 bytes / s)
//   per run; the first run of each also pays for first touching the reader's buffers.
#include <sys/stat.h>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/phases/phase_breakdown.hpp"
#include "import/chrome_json/json_span_source.hpp"
#include "import/chrome_json/trace_event_reader.hpp"

namespace {

using namespace npkit;

constexpr int kRanks = 8;
constexpr int kBuffers = 4;

void append_us(std::string& out, std::uint64_t ns) {
  char buf[32];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, ns / 1000).ptr);
  const auto frac = static_cast<unsigned>(ns % 1000);
  out.push_back('.');
  out.push_back(static_cast<char>('0' + frac / 100));
  out.push_back(static_cast<char>('0' + frac / 10 % 10));
  out.push_back(static_cast<char>('0' + frac % 10));
}

void append_int(std::string& out, std::uint64_t v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

struct Emitter {
  std::string out;
  bool first = true;
  void event(char ph, std::uint64_t ns, int pid, int tid, const char* name, bool gpu, int index,
             std::uint64_t seq, std::uint64_t size, int slot) {
    out += first ? "{\"ph\": \"" : ", {\"ph\": \"";
    first = false;
    out.push_back(ph);
    out += "\", \"ts\": ";
    append_us(out, ns);
    out += ", \"pid\": ";
    append_int(out, static_cast<std::uint64_t>(pid));
    out += ", \"tid\": ";
    append_int(out, static_cast<std::uint64_t>(tid));
    out += ", \"name\": \"NPKIT_EVENT_";
    out += name;
    out += ph == 'B' ? "_ENTRY\"" : "_EXIT\"";
    out += gpu ? ", \"cat\": \"GPU\", \"args\": {\"rank\": "
               : ", \"cat\": \"CPU\", \"args\": {\"rank\": ";
    append_int(out, static_cast<std::uint64_t>(pid));
    out += gpu ? ", \"buf_idx\": " : ", \"channel\": ";
    append_int(out, static_cast<std::uint64_t>(index));
    if (!gpu) {
      out += ", \"slot\": ";
      append_int(out, static_cast<std::uint64_t>(slot));
    }
    out += ", \"seq\": ";
    append_int(out, seq);
    if (gpu) out += ", \"rsvd_0\": 0";
    out += ", \"size_0\": ";
    append_int(out, size);
    out += "}}";
  }
};

int generate(const std::string& path, double mb) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return 2;
  }
  const auto target = static_cast<std::uint64_t>(mb * 1e6);
  std::uint64_t written = 0;
  Emitter e;
  e.out = "{\"traceEvents\": [";
  const char* steps[] = {"ALL_REDUCE_RING_SEND", "ALL_REDUCE_RING_DIRECT_RECV_REDUCE_COPY_SEND",
                         "ALL_REDUCE_RING_DIRECT_RECV"};
  std::uint64_t t = 6347722214448110;  // ns, as large as a steady clock's
  for (std::uint64_t iter = 0; written + e.out.size() < target; ++iter) {
    // One kernel on every (rank, buffer), interleaved in time as the sorted trace interleaves.
    for (int step = -1; step <= 3; ++step) {
      for (int r = 0; r < kRanks; ++r) {
        for (int b = 0; b < kBuffers; ++b) {
          const std::uint64_t base = t + static_cast<std::uint64_t>(r * 37 + b * 11);
          if (step == -1) {
            e.event('B', base, r, b + 1, "ALL_REDUCE_RING", true, b, iter, 8388608, 0);
          } else if (step == 3) {
            e.event('E', base + 3000, r, b + 1, "ALL_REDUCE_RING", true, b, iter, 8388608, 0);
          } else {
            const std::uint64_t s = base + 100 + static_cast<std::uint64_t>(step) * 900;
            e.event('B', s, r, b + 1, steps[step], true, b, iter, 2097152, 0);
            e.event('B', s + 50, r, b + 1, "PRIM_SIMPLE_REDUCE_OR_COPY_MULTI", true, b, iter,
                    2097152, 0);
            e.event('E', s + 650, r, b + 1, "PRIM_SIMPLE_REDUCE_OR_COPY_MULTI", true, b, iter,
                    2097152, 0);
            e.event('E', s + 800, r, b + 1, steps[step], true, b, iter, 2097152, 0);
          }
        }
        if (step == 0) {
          for (int slot = 0; slot < 2; ++slot) {
            e.event('B', t + 200 + static_cast<std::uint64_t>(slot) * 40, r, 1000 + slot,
                    "NET_SEND", false, 0, iter * 2 + static_cast<std::uint64_t>(slot), 524288,
                    slot + 7);
          }
          for (int slot = 0; slot < 2; ++slot) {
            e.event('E', t + 2200 + static_cast<std::uint64_t>(slot) * 40, r, 1000 + slot,
                    "NET_SEND", false, 0, iter * 2 + static_cast<std::uint64_t>(slot), 524288,
                    slot + 7);
          }
        }
      }
    }
    t += 4000;
    if (e.out.size() > (8u << 20)) {
      file.write(e.out.data(), static_cast<std::streamsize>(e.out.size()));
      written += e.out.size();
      e.out.clear();
    }
  }
  e.out += "], \"displayTimeUnit\": \"ns\"}\n";
  file.write(e.out.data(), static_cast<std::streamsize>(e.out.size()));
  written += e.out.size();
  if (!file) {
    std::fprintf(stderr, "write to %s failed\n", path.c_str());
    return 2;
  }
  std::printf("wrote %s: %.1f MB\n", path.c_str(), static_cast<double>(written) / 1e6);
  return 0;
}

class Nothing : public TraceEventVisitor {
 public:
  Status on_event(const TraceEvent& e) override {
    sum += e.name.size() + e.args.size();
    return Ok{};
  }
  std::uint64_t sum = 0;
};

class Breakdown : public JsonSpanTarget {
 public:
  explicit Breakdown(const PhaseAssignment& phases) : sink(phases) {}
  void on_span(const Span& s, TimeDomain) override { sink.on_span(s); }
  void on_unmatched(const UnmatchedEvent&, TimeDomain) override {}
  PhaseBreakdownSink sink;
};

int read(const std::string& path, int repeat) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    std::fprintf(stderr, "cannot stat %s\n", path.c_str());
    return 2;
  }
  const double mb = static_cast<double>(st.st_size) / 1e6;
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < repeat; ++i) {
    Diagnostics d;
    Nothing v;
    const auto t0 = Clock::now();
    auto r = read_trace_file(path, v, TraceReadOptions{}, d);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!r) {
      std::fprintf(stderr, "%s\n", r.error().message.c_str());
      return 1;
    }
    std::printf("reader      run %d: %.3f s, %.0f MB/s, %llu events\n", i + 1, s, mb / s,
                static_cast<unsigned long long>(r->events));
  }
  for (int i = 0; i < repeat; ++i) {
    Diagnostics d;
    const auto t0 = Clock::now();
    auto input = open_json_span_input({path}, "auto", PhaseMap::builtin(), d);
    if (!input) {
      std::fprintf(stderr, "%s\n", input.error().message.c_str());
      return 1;
    }
    Breakdown target(input->names->phases());
    TrackBook tracks;
    auto status = read_json_spans(*input, JsonSpanReadOptions{}, tracks, target, d);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!status) {
      std::fprintf(stderr, "%s\n", status.error().message.c_str());
      return 1;
    }
    std::uint64_t spans = 0;
    for (const auto& t : tracks.tracks()) spans += t.stats.spans;
    std::printf("span ingest run %d: %.3f s, %.0f MB/s, %llu spans, %zu ranks, %llu warnings\n",
                i + 1, s, mb / s, static_cast<unsigned long long>(spans),
                target.sink.ranks().size(), static_cast<unsigned long long>(d.total()));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 3 && args[0] == "gen") return generate(args[1], std::atof(args[2].c_str()));
  if ((args.size() == 2 || args.size() == 3) && args[0] == "read") {
    return read(args[1], args.size() == 3 ? std::max(1, std::atoi(args[2].c_str())) : 3);
  }
  std::fprintf(stderr, "usage: npkit_json_ingest_bench gen FILE MB | read FILE [REPEAT]\n");
  return 2;
}
