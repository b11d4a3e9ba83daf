// The event-record spans of our .npkt trace read back from a hand-written trace: nesting rebuilt
// from depth and start order (phases by hint, "inherit" from the parent, child time, root name,
// occurrence numbers across lanes), an unmatched ENTRY, an own-time-base stream, a name the trace
// does not list, a rank selection; and otherData.event_names itself.
#include <catch2/catch.hpp>

#include <string>

#include "import/chrome_json/own_event_span_decoder.hpp"
#include "support/span_collector.hpp"

using namespace npkit;

namespace {

const char* const kTrace = R"json({"otherData": {"generator": "npkit-analyze test",
 "layout": "npkit-analyze.trace v2", "time_origin_ns": 1000000,
 "event_names": [["KERNEL", "other"], ["STEP", "reduce_scatter"], ["INNER", "inherit"],
                 ["WAIT", "sync"]]},
 "traceEvents": [
 {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "rank 3, comm 00000000000000ab (node0)"}},
 {"ph": "M", "name": "process_name", "pid": 100001,
  "args": {"name": "rank 3, comm 00000000000000ab (node0), GPU timer time base"}},
 {"ph": "X", "name": "KERNEL", "cat": "gpu_event", "pid": 1, "tid": 30002000, "ts": 1.000, "dur": 10.000,
  "args": {"phase": "other", "depth": 0, "size": 4096, "user": 7, "id": 1, "entry_record": 0, "exit_record": 9}},
 {"ph": "X", "name": "STEP", "cat": "gpu_event", "pid": 1, "tid": 30002000, "ts": 2.000, "dur": 3.000,
  "args": {"phase": "reduce_scatter", "depth": 1, "size": 1024, "exit_size": 2048, "user": 1, "id": 3,
           "entry_record": 1, "exit_record": 4}},
 {"ph": "X", "name": "INNER", "cat": "gpu_event", "pid": 1, "tid": 30002000, "ts": 2.500, "dur": 1.000,
  "args": {"phase": "reduce_scatter", "depth": 2, "size": 0, "user": 0, "id": 5, "entry_record": 2,
           "exit_record": 3}},
 {"ph": "X", "name": "STEP", "cat": "gpu_event", "pid": 1, "tid": 30002001, "ts": 6.000, "dur": 2.000,
  "args": {"phase": "reduce_scatter", "depth": 1, "size": 1024, "user": 1, "exit_user": 2, "id": 3,
           "entry_record": 5, "exit_record": 6}},
 {"ph": "i", "s": "t", "name": "WAIT_ENTRY (no EXIT)", "cat": "gpu_event", "pid": 1, "tid": 30002000,
  "ts": 8.500, "args": {"size": 0, "user": 0, "id": 7, "record": 7}},
 {"ph": "X", "name": "NOPE", "cat": "gpu_event", "pid": 1, "tid": 30002000, "ts": 9.000, "dur": 0.500,
  "args": {"depth": 1, "size": 0, "user": 0, "id": 11, "entry_record": 8, "exit_record": 8}},
 {"ph": "X", "name": "WAIT", "cat": "host_event", "pid": 100001, "tid": 30000000, "ts": 0.000,
  "dur": 0.250, "args": {"depth": 0, "size": 1, "user": 0, "id": 9, "entry_record": 0, "exit_record": 1}}
]})json";

class HeaderOnly : public TraceEventVisitor {
 public:
  Status on_header(const TraceHeader& h) override {
    header = h;
    return Ok{};
  }
  Status on_event(const TraceEvent&) override { return Ok{}; }
  bool done() const override { return true; }
  TraceHeader header;
};

TraceHeader header_of(std::string_view text) {
  HeaderOnly h;
  Diagnostics d;
  REQUIRE(read_trace_bytes("t.json", text, h, TraceReadOptions{}, d).ok());
  return h.header;
}

struct Decoded {
  TraceEventNames names;
  PhaseAssignment phases;
  test::SpanCollector sink;
  Diagnostics diagnostics;
};

void decode(Decoded& out, const std::string& ranks) {
  auto names = read_trace_event_names(header_of(kTrace), "t.json");
  REQUIRE(names.ok());
  out.names = *names;
  out.phases =
      assign_phases_with_hints(PhaseMap{}, out.names.bases, out.names.hints, PhaseMap::builtin());
  auto filter = RankFilter::parse(ranks);
  REQUIRE(filter.ok());
  OwnEventSpanDecoder decoder("t.json", out.names, out.phases, *filter, out.sink, out.diagnostics);
  REQUIRE(read_trace_bytes("t.json", kTrace, decoder, TraceReadOptions{}, out.diagnostics).ok());
  decoder.finish();
}

const Span& find(const Decoded& d, std::uint64_t entry_record, TrackKind kind = TrackKind::kGpu) {
  for (const auto& s : d.sink.spans) {
    if (s.entry_record == entry_record && s.track.kind == kind) return s;
  }
  FAIL("no span with entry record " << entry_record);
  return d.sink.spans.front();
}

std::string phase(const Decoded& d, const Span& s) {
  return d.phases.phase_names[s.phase];
}

}  // namespace

TEST_CASE("own event spans: otherData.event_names", "[chrome_json]") {
  auto names = read_trace_event_names(header_of(kTrace), "t.json");
  REQUIRE(names.ok());
  CHECK(names->bases == std::vector<std::string>{"KERNEL", "STEP", "INNER", "WAIT"});
  CHECK(names->hints == std::vector<std::string>{"other", "reduce_scatter", "inherit", "sync"});

  auto none = read_trace_event_names(header_of(R"({"otherData": {}, "traceEvents": []})"), "t");
  REQUIRE(none.ok());
  CHECK(none->bases.empty());

  auto bad = read_trace_event_names(
      header_of(R"({"otherData": {"event_names": [["A", 3]]}, "traceEvents": []})"), "t.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("t.json: otherData.event_names: item 0") != std::string::npos);

  TraceEventNames merged{{"A", "B"}, {"", "sync"}};
  merge_trace_event_names(merged, TraceEventNames{{"C", "A"}, {"other", "p2p"}});
  CHECK(merged.bases == std::vector<std::string>{"A", "B", "C"});
  CHECK(merged.hints == std::vector<std::string>{"p2p", "sync", "other"});
}

TEST_CASE("own event spans: nesting, phases, unmatched and own time base", "[chrome_json]") {
  Decoded d;
  decode(d, "all");
  REQUIRE(d.sink.spans.size() == 5);

  // Children come before their parents, as a pairer hands them out.
  CHECK(d.sink.spans[0].entry_record == 2);  // INNER
  CHECK(d.sink.spans[1].entry_record == 1);  // STEP #0
  const Span& kernel = find(d, 0);
  CHECK(kernel.track == TrackRef{3, TrackKind::kGpu, 2});
  CHECK(kernel.start_ns == 1001000);
  CHECK(kernel.end_ns == 1011000);
  CHECK(kernel.child_ns == 3000 + 2000);
  CHECK(kernel.depth == 0);
  CHECK(phase(d, kernel) == "other");
  CHECK(kernel.entry_size == 4096);
  CHECK(kernel.exit_size == 4096);
  CHECK(kernel.entry_rsvd == 7);
  CHECK(kernel.exit_record == 9);

  const Span& step0 = find(d, 1);
  CHECK(step0.start_ns == 1002000);
  CHECK(step0.end_ns == 1005000);
  CHECK(step0.child_ns == 1000);
  CHECK(step0.seq == 0);
  CHECK(step0.root_base == 0);
  CHECK(step0.entry_size == 1024);
  CHECK(step0.exit_size == 2048);
  CHECK(phase(d, step0) == "reduce_scatter");

  const Span& inner = find(d, 2);
  CHECK(inner.depth == 2);
  CHECK(phase(d, inner) == "reduce_scatter");  // "inherit": its parent's
  CHECK(inner.root_base == 0);

  const Span& step1 = find(d, 5);  // on lane 1 of the same stream
  CHECK(step1.track == TrackRef{3, TrackKind::kGpu, 2});
  CHECK(step1.seq == 1);
  CHECK(step1.exit_rsvd == 2);

  const Span& wait = find(d, 0, TrackKind::kCpu);
  CHECK(wait.track == TrackRef{3, TrackKind::kCpu, 0});
  CHECK(wait.start_ns == 1000000);
  CHECK(wait.end_ns == 1000250);
  CHECK(phase(d, wait) == "sync");

  REQUIRE(d.sink.unmatched.size() == 1);
  CHECK(d.sink.unmatched[0].base == 3);
  CHECK(d.sink.unmatched[0].kind == EventKind::kEntry);
  CHECK(d.sink.unmatched[0].record == 7);
  CHECK(d.sink.unmatched[0].ns == 1008500);

  REQUIRE(d.sink.tracks.size() == 2);
  const auto& gpu = d.sink.tracks[0];
  CHECK(gpu.file.track == TrackRef{3, TrackKind::kGpu, 2});
  CHECK(gpu.domain == TimeDomain::kHost);
  CHECK(gpu.stats.records == 10);
  CHECK(gpu.stats.spans == 4);
  CHECK(gpu.stats.unmatched_entries == 1);
  CHECK(gpu.stats.first_ns == 1001000);
  CHECK(gpu.stats.last_ns == 1011000);
  CHECK(d.sink.tracks[1].domain == TimeDomain::kGpuCounter);
  CHECK(d.sink.tracks[1].stats.records == 2);

  REQUIRE(d.diagnostics.warnings().size() == 1);
  CHECK(d.diagnostics.warnings()[0].category == "unnamed event span");
}

TEST_CASE("own event spans: a rank selection leaves other ranks out", "[chrome_json]") {
  Decoded d;
  decode(d, "0-2");
  CHECK(d.sink.spans.empty());
  CHECK(d.sink.unmatched.empty());
  CHECK(d.sink.tracks.empty());
}
