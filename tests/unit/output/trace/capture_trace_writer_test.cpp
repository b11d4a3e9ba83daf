// The .npkt trace parses as JSON, keeps every thread's spans nested, puts KernelCh on the host
// clock, and marks events that never stopped. Uses the ring golden fixture's spec.
#include "output/trace/capture_trace_writer.hpp"
#include "output/trace/json_trace_encoder.hpp"
#include "output/trace/perfetto_trace_encoder.hpp"

#include <fmt/format.h>
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "import/npkt/npkt_capture_tracks.hpp"
#include "support/perfetto_reader.hpp"
#include "support/test_data.hpp"
#include "unit/import/npkt/profiler_test_captures.hpp"

namespace {

std::string ring_spec() {
  std::ifstream in(npkit::test::source_path("tests/golden/cases/npkt_ring/dump.spec"));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

npkit::Result<npkit::CaptureTraceStats> write_json(
    const std::vector<const npkit::RankCapture*>& captures, const std::string& source,
    std::ostream& out) {
  npkit::JsonTraceEncoder encoder(out);
  return npkit::write_capture_trace(*npkit::npkt_capture_tracks(captures, nullptr), nullptr, source,
                                    encoder, "out");
}

// B = 1700000000 s rounded down to whole periods of 7889238 s (3 × 2629746 s, PyTorch's profiler's
// base): 215 × 7889238 s.
constexpr std::int64_t kWallOrigin = 1'696'186'170'000'000'000;

struct XEvent {
  double ts = 0;
  double dur = 0;
};

}  // namespace

TEST_CASE("profiler trace: valid JSON, nested threads, host-clock GPU spans", "[npkt][render]") {
  const auto captures = npkit::test::captures_from_spec(ring_spec());
  std::ostringstream out;
  auto stats = write_json(npkit::test::pointers(captures), "ring", out);
  REQUIRE(stats.ok());
  CHECK(stats->kernel_spans_without_clock == 0);

  const std::string text = out.str();
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(text);
  // The first event: the earliest host time, rank 0's first GroupApi at B+1000. The origin:
  // PyTorch's profiler's base, B+1000 rounded down to whole periods of 7889238 s since the epoch:
  // 215 periods = 1696186170 s (B = 1700000000 s lies 3813830 s into the 216th).
  CHECK(doc["otherData"]["first_event_ns"].get_int64().value() ==
        static_cast<std::int64_t>(npkit::test::kBase + 1000));
  CHECK(doc["otherData"]["time_origin_ns"].get_int64().value() == kWallOrigin);
  CHECK(doc["baseTimeNanoseconds"].get_int64().value() == kWallOrigin);
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<XEvent>> threads;
  std::size_t events = 0;
  std::size_t never_stopped = 0;
  bool found_kernel = false;
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    ++events;
    const std::string_view ph = e["ph"].get_string();
    const std::string_view name = e["name"].get_string();
    if (ph == "i") {
      ++never_stopped;
      CHECK(name == "Recv step (never stopped)");
    }
    if (ph != "X") continue;
    const std::int64_t pid = e["pid"].get_int64();
    const std::int64_t tid = e["tid"].get_int64();
    threads[{pid, tid}].push_back({e["ts"].get_double(), e["dur"].get_double()});
    // Rank 1's channel 0 span of seq 1: gpu 195000..305000, offset 140000 -> host
    // B+55000..B+165000, i.e. 3813830 s + 55 us after the origin, 110 us long (a double holds
    // both exactly). GPU channel 0: tid 10^7 (docs/cli.md "trace").
    if (pid == 2 && tid == 10000000 && e["args"]["seq"].get_uint64().value() == 1) {
      found_kernel = true;
      CHECK(e["ts"].get_double().value() == 3813830000055.0);
      CHECK(e["dur"].get_double().value() == Approx(110.0));
      CHECK(e["args"]["size"].get_uint64().value() == 1048576);
      CHECK(e["args"]["func"].get_string().value() == "AllReduce");
    }
  }
  CHECK(found_kernel);
  CHECK(never_stopped == 1);
  CHECK(events == stats->events);
  // On every thread, in start order, a span either ends by the end of the innermost open span
  // (nests) or starts after it ended.
  for (auto& [key, spans] : threads) {
    std::stable_sort(spans.begin(), spans.end(), [](const XEvent& a, const XEvent& b) {
      return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
    });
    std::vector<double> open;
    for (const auto& s : spans) {
      while (!open.empty() && open.back() <= s.ts + 1e-9) open.pop_back();
      INFO("pid " << key.first << " tid " << key.second << " span at " << s.ts);
      CHECK((open.empty() || s.ts + s.dur <= open.back() + 1e-9));
      open.push_back(s.ts + s.dur);
    }
  }
}

TEST_CASE("profiler trace: stale KernelCh are left out and counted", "[npkt][render]") {
  // Offset 0. The Broadcast's only KernelCh starts 1 ms before its CollApi call (timestamps of
  // another work item): not drawn, not the trace origin, counted in otherData.
  const auto captures = npkit::test::captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 CollApi host={B+2000000} count=4 func=Broadcast datatype=ncclInt8
stop 1 CollApi host={B+2000100}
start 2 Coll host={B+2000200} parent=1 seq=0 count=4 func=Broadcast datatype=ncclInt8 channels=1
stop 2 Coll host={B+2000300}
start 3 KernelCh host={B+2000400} parent=2 gpu_start={B+1000000} channel=0
state 3 KernelCh host={B+2000500} state=22 value={B+1000100}
stop 3 KernelCh host={B+2000500}
)");
  std::ostringstream out;
  auto stats = write_json(npkit::test::pointers(captures), "stale", out);
  REQUIRE(stats.ok());
  CHECK(stats->kernel_spans_stale == 1);
  const std::string text = out.str();
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(text);
  CHECK(doc["otherData"]["kernel_spans_stale"].get_uint64().value() == 1);
  CHECK(doc["otherData"]["first_event_ns"].get_int64().value() ==
        static_cast<std::int64_t>(npkit::test::kBase + 2000000));
  std::size_t spans = 0;
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    if (std::string_view(e["ph"].get_string()) != "X") continue;
    ++spans;
    CHECK(e["tid"].get_int64().value() < 100000);  // no GPU channel thread
  }
  CHECK(spans == 2);  // the CollApi and the Coll
}

TEST_CASE("profiler trace: a record's host time is its wall-clock time in both formats",
          "[npkt][render]") {
  // Rank 1's channel 0 KernelCh of seq 1 lies at host B+55000..B+165000 (the spec's comment).
  const auto captures = npkit::test::captures_from_spec(ring_spec());
  constexpr std::uint64_t kStart = npkit::test::kBase + 55000;
  constexpr std::uint64_t kEnd = npkit::test::kBase + 165000;

  std::ostringstream json;
  REQUIRE(write_json(npkit::test::pointers(captures), "ring", json).ok());
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json.str());
  const std::int64_t base = doc["baseTimeNanoseconds"].get_int64();
  bool in_json = false;
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    if (std::string_view(e["ph"].get_string()) != "X" || e["pid"].get_int64().value() != 2 ||
        e["tid"].get_int64().value() != 10000000 || e["args"]["seq"].get_uint64().value() != 1) {
      continue;
    }
    in_json = true;
    const double ts = e["ts"].get_double();
    const double dur = e["dur"].get_double();
    CHECK(base + std::llround(ts * 1000) == static_cast<std::int64_t>(kStart));
    CHECK(base + std::llround((ts + dur) * 1000) == static_cast<std::int64_t>(kEnd));
  }
  CHECK(in_json);

  std::ostringstream proto;
  npkit::PerfettoTraceEncoder encoder(proto);
  const auto tracks = npkit::npkt_capture_tracks(npkit::test::pointers(captures), nullptr);
  REQUIRE(npkit::write_capture_trace(*tracks, nullptr, "ring", encoder, "out").ok());
  const auto trace = npkit::test::read_perfetto_trace(proto.str());
  REQUIRE(trace.error.empty());
  CHECK(trace.primary_clock == 1);  // REALTIME
  CHECK(trace.snapshot_clocks == std::set<std::uint64_t>{1});
  bool in_proto = false;
  for (const auto& s : trace.slices) {
    if (s.pid != 2 || s.tid != 10000000 || s.args.count("seq") == 0 || s.args.at("seq") != "1") {
      continue;
    }
    in_proto = true;
    CHECK(s.start_ns == kStart);
    CHECK(s.end_ns == kEnd);
  }
  CHECK(in_proto);
}

TEST_CASE("profiler trace: a channel's overlapping steps take at most 4 lanes and a merged one",
          "[npkt][render]") {
  // One ProxyOp with 8 steps all in flight at once (step k: B+2000+100k .. B+10000+100k): steps
  // 0-3 take the 4 lanes of "proxy steps 0", steps 4-7 overlap one another on its merged lane
  // and become one slice from B+2400 to B+10700.
  std::string spec = R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 ProxyOp host={B+1000} pid=1000 peer=1 steps=8 chunk_size=1024 rank=0 channel=0 send=1 thread=1
)";
  for (int k = 0; k < 8; ++k) {
    spec += fmt::format("start {} ProxyStep host={{B+{}}} parent=1 step={} rank=0 thread=1\n",
                        k + 2, 2000 + 100 * k, k);
  }
  for (int k = 0; k < 8; ++k) {
    spec += fmt::format("stop {} ProxyStep host={{B+{}}} thread=1\n", k + 2, 10000 + 100 * k);
  }
  spec += "stop 1 ProxyOp host={B+20000} thread=1\n";
  const auto captures = npkit::test::captures_from_spec(spec);
  std::ostringstream out;
  REQUIRE(write_json(npkit::test::pointers(captures), "steps", out).ok());
  const std::string text = out.str();
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(text);
  std::map<std::int64_t, std::string> thread_names;
  std::map<std::int64_t, int> slices;  // per tid
  bool merged = false;
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    const std::string_view ph = e["ph"].get_string();
    if (ph == "M" && std::string_view(e["name"].get_string()) == "thread_name") {
      thread_names[e["tid"].get_int64()] = std::string(e["args"]["name"].get_string().value());
    }
    if (ph != "X") continue;
    ++slices[e["tid"].get_int64()];
    if (std::string_view(e["name"].get_string()) == "4 overlapping spans") {
      merged = true;
      CHECK(e["tid"].get_int64().value() == 40000004);
      CHECK(e["args"]["spans"].get_uint64().value() == 4);
      // B+2400 .. B+10700 after the origin (B lies 3813830 s after it).
      CHECK(e["ts"].get_double().value() == 3813830000002.4);
      CHECK(e["dur"].get_double().value() == 8.3);
    }
  }
  CHECK(merged);
  CHECK(thread_names ==
        std::map<std::int64_t, std::string>{{20000000, "proxy channel 0"},
                                            {40000000, "proxy steps 0"},
                                            {40000001, "proxy steps 0 #2"},
                                            {40000002, "proxy steps 0 #3"},
                                            {40000003, "proxy steps 0 #4"},
                                            {40000004, "proxy steps 0 (overlaps merged)"}});
  CHECK(slices == std::map<std::int64_t, int>{{20000000, 1},
                                              {40000000, 1},
                                              {40000001, 1},
                                              {40000002, 1},
                                              {40000003, 1},
                                              {40000004, 1}});
}
