// The .npkt trace parses as JSON, keeps every thread's spans nested, puts KernelCh on the host
// clock, and marks events that never stopped. Uses the ring golden fixture's spec.
#include "output/trace/capture_trace_writer.hpp"
#include "output/trace/json_trace_encoder.hpp"

#include <simdjson.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

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
  return npkit::write_capture_trace(captures, nullptr, nullptr, source, encoder, "out");
}

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
  // Origin: the earliest host time, rank 0's first GroupApi at B+1000.
  CHECK(doc["otherData"]["time_origin_ns"].get_int64().value() ==
        static_cast<std::int64_t>(npkit::test::kBase + 1000));
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
    // 55000..165000, i.e. 54 us after the origin, 110 us long.
    // GPU channel 0: tid 10^7 (docs/cli.md "trace").
    if (pid == 2 && tid == 10000000 && e["args"]["seq"].get_uint64().value() == 1) {
      found_kernel = true;
      CHECK(e["ts"].get_double().value() == Approx(54.0));
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
  CHECK(doc["otherData"]["time_origin_ns"].get_int64().value() ==
        static_cast<std::int64_t>(npkit::test::kBase + 2000000));
  std::size_t spans = 0;
  for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
    if (std::string_view(e["ph"].get_string()) != "X") continue;
    ++spans;
    CHECK(e["tid"].get_int64().value() < 100000);  // no GPU channel thread
  }
  CHECK(spans == 2);  // the CollApi and the Coll
}
