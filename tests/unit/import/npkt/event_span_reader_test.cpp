// read_event_spans: .npkt event records paired per stream, timestamps converted by the stream's
// clock, unmatched and unknown events counted. Dumps are built field by field here.
#include "import/npkt/event_span_reader.hpp"

#include <catch2/catch.hpp>

#include "import/npkt/event_stream_check.hpp"

namespace format = npkit::format;
using npkit::EventKind;
using npkit::EventRecords;
using npkit::HostGpuClock;
using npkit::NpktDump;
using npkit::Span;
using npkit::TimeDomain;
using npkit::TrackKind;

namespace {

// Ids: 1/2 OUTER_ENTRY/EXIT (no hint), 3/4 IN_ENTRY/EXIT (sync), 5 MARK (instant).
NpktDump dump_with(std::vector<format::StreamInfo> streams,
                   std::vector<format::EventRecord> records) {
  NpktDump d;
  d.path = "r.npkt";
  d.comm.rank = 3;
  d.event_names = {{1, format::kEventEntry, "OUTER_ENTRY", ""},
                   {2, format::kEventExit, "OUTER_EXIT", ""},
                   {3, format::kEventEntry, "IN_ENTRY", "sync"},
                   {4, format::kEventExit, "IN_EXIT", "sync"},
                   {5, format::kEventInstant, "MARK", ""}};
  std::uint64_t next = 0;
  for (auto& s : streams) {
    s.first_record = next;
    next += s.records_written;
    d.stream_offsets.push_back(1000 + 72 * d.streams.size());
    d.stream_numbers.push_back(static_cast<std::uint32_t>(d.streams.size()));
    d.streams.push_back(s);
  }
  d.event_records = std::move(records);
  d.event_records_offset = 5000;
  return d;
}

format::StreamInfo stream(std::uint32_t source, std::uint32_t clock, std::uint64_t n,
                          std::uint64_t cycles_per_second = 0) {
  format::StreamInfo s{};
  s.source = source;
  s.clock = clock;
  s.records_written = n;
  s.cycles_per_second = cycles_per_second;
  s.block = 4;
  return s;
}

format::EventRecord rec(std::uint64_t ts, std::uint16_t id, std::uint64_t size = 0,
                        std::uint32_t user = 0) {
  format::EventRecord r{};
  r.timestamp = ts;
  r.id = id;
  r.size = size;
  r.user = user;
  return r;
}

struct Collected : npkit::EventSpanSink {
  std::vector<Span> spans;
  std::vector<npkit::EventInstant> instants;
  std::vector<npkit::UnmatchedEvent> unmatched;
  std::vector<npkit::TrackStats> stats;
  std::vector<TimeDomain> domains;
  void begin_stream(const npkit::EventStreamRef&, const npkit::EventStreamClock& c) override {
    domains.push_back(c.domain);
  }
  void on_span(const Span& s) override { spans.push_back(s); }
  void on_instant(const npkit::EventInstant& e) override { instants.push_back(e); }
  void on_unmatched(const npkit::UnmatchedEvent& e) override { unmatched.push_back(e); }
  void end_stream(const npkit::EventStreamRef&, const npkit::TrackStats& s) override {
    stats.push_back(s);
  }
};

struct Fixture {
  NpktDump dump;
  HostGpuClock clock;
  EventRecords records;
  npkit::Diagnostics diagnostics;
  Fixture(NpktDump d, HostGpuClock c) : dump(std::move(d)), clock(c) {
    npkit::add_event_file(records, dump, clock, diagnostics);
    npkit::resolve_event_phases(records, npkit::PhaseMap{});
  }
  Collected read() {
    Collected c;
    npkit::read_event_spans(records, c);
    return c;
  }
};

// GPU - host = 1000 ns, no drift.
HostGpuClock offset_clock() {
  HostGpuClock c;
  c.method = npkit::ClockFitMethod::kSampleOffset;
  c.offset_ns = 1000;
  c.uncertainty_ns = 0;
  return c;
}

}  // namespace

TEST_CASE("event spans: nesting, phases, sizes and user fields", "[pair][events]") {
  Fixture f(dump_with({stream(format::kStreamGpuBlock, format::kStreamClockGlobalTimer, 7)},
                      {rec(10000, 1, 1ULL << 33), rec(11000, 3, 0, 9), rec(12000, 5, 64, 7),
                       rec(14000, 4, 0, 8), rec(15000, 3), rec(16000, 4), rec(20000, 2, 100)}),
            offset_clock());
  const Collected c = f.read();
  CHECK(c.domains == std::vector<TimeDomain>{TimeDomain::kHost});
  REQUIRE(c.spans.size() == 3);
  // IN 11000..14000 -> host 10000..13000, depth 1, phase sync, user 9 / 8.
  const Span& in = c.spans[0];
  CHECK(in.track.rank == 3);
  CHECK(in.track.kind == TrackKind::kGpu);
  CHECK(in.track.index == 0);
  CHECK(in.start_ns == 10000);
  CHECK(in.end_ns == 13000);
  CHECK(in.depth == 1);
  CHECK(f.records.phases.phase_names[in.phase] == "sync");
  CHECK(in.entry_rsvd == 9);
  CHECK(in.exit_rsvd == 8);
  CHECK(in.entry_record == 1);
  CHECK(in.exit_record == 3);
  CHECK(c.spans[1].seq == 1);  // the second IN
  // OUTER 10000..20000 -> host 9000..19000; children 3000 + 1000 ns; its size saturates.
  const Span& outer = c.spans[2];
  CHECK(outer.start_ns == 9000);
  CHECK(outer.end_ns == 19000);
  CHECK(outer.depth == 0);
  CHECK(outer.child_ns == 4000);
  CHECK(outer.phase == f.records.phases.other_phase);
  CHECK(outer.entry_size == 0xFFFFFFFFu);
  CHECK(outer.exit_size == 100);
  REQUIRE(c.instants.size() == 1);
  CHECK(c.instants[0].ns == 11000);
  CHECK(c.instants[0].size == 64);
  CHECK(c.instants[0].user == 7);
  CHECK(c.instants[0].record == 2);
  REQUIRE(c.stats.size() == 1);
  CHECK(c.stats[0].records == 7);
  CHECK(c.stats[0].spans == 3);
  CHECK(c.stats[0].instants == 1);
  CHECK(c.stats[0].first_ns == 9000);
  CHECK(c.stats[0].last_ns == 19000);
  CHECK_FALSE(c.stats[0].overflowed);
}

TEST_CASE("event spans: unmatched, unknown ids, dropped records, order", "[pair][events]") {
  auto s = stream(format::kStreamHostThread, format::kStreamClockHost, 6);
  s.records_dropped = 3;
  s.capacity = 6;
  s.os_tid = 77;
  Fixture f(dump_with({s}, {rec(100, 4), rec(200, 1), rec(150, 9), rec(300, 3), rec(400, 4),
                            rec(500, 0xFFFF)}),
            HostGpuClock{});
  const Collected c = f.read();
  CHECK(c.domains == std::vector<TimeDomain>{TimeDomain::kHost});
  REQUIRE(c.spans.size() == 1);  // IN 300..400 inside the open OUTER
  CHECK(c.spans[0].track.kind == TrackKind::kCpu);
  CHECK(c.spans[0].depth == 1);
  REQUIRE(c.unmatched.size() == 2);
  CHECK(c.unmatched[0].kind == EventKind::kExit);  // IN_EXIT at 100 with nothing open
  CHECK(c.unmatched[0].record == 0);
  CHECK(c.unmatched[1].kind == EventKind::kEntry);  // OUTER never closed
  CHECK(c.unmatched[1].record == 1);
  CHECK(c.unmatched[1].ns == 200);
  const npkit::TrackStats& t = c.stats.at(0);
  CHECK(t.unmatched_exits == 1);
  CHECK(t.unmatched_entries == 1);
  CHECK(t.unknown_ids == 2);   // ids 9 and 0xFFFF
  CHECK(t.nonmonotonic == 1);  // 150 after 200
  CHECK(t.overflowed);

  // The check pass: the same counts, examples with offsets, and the warnings.
  npkit::Diagnostics diag;
  const auto summaries = npkit::check_event_streams(f.records, diag);
  REQUIRE(summaries.size() == 1);
  CHECK(summaries[0].max_depth == 1);
  REQUIRE(summaries[0].unmatched.size() == 2);
  CHECK(summaries[0].unmatched[0].name == "IN_EXIT");
  CHECK(summaries[0].unmatched[0].offset == 5000);
  CHECK(summaries[0].unmatched[1].name == "OUTER_ENTRY");
  CHECK(summaries[0].unmatched[1].offset == 5024);
  CHECK(summaries[0].unknown_ids == std::vector<std::uint16_t>{9, 0xFFFF});
  std::vector<std::string> categories;
  for (const auto& w : diag.warnings()) categories.push_back(w.category);
  CHECK(categories == std::vector<std::string>{"unmatched events", "dropped event records",
                                               "unknown event id", "non-monotonic timestamps"});
  CHECK(diag.warnings()[0].examples.front() ==
        "r.npkt: stream 0, host thread 77: 1 ENTRY without EXIT, 1 EXIT without ENTRY; first: "
        "IN_EXIT (EXIT without ENTRY) at record 0 (offset 5000)");
  CHECK(diag.warnings()[1].examples.front() ==
        "r.npkt: stream 0, host thread 77: 3 record(s) dropped, the buffer of 6 record(s) was "
        "full; the stream's later events are missing (ENTRYs left open are expected)");
  CHECK(diag.warnings()[2].examples.front() ==
        "r.npkt: stream 0, host thread 77: 2 record(s) with ids the file does not name (0x0009, "
        "0xFFFF); skipped");
}

TEST_CASE("event spans: clocks of GPU streams", "[pair][events]") {
  // Stream 0: %globaltimer without a clock fit; stream 1: clock64 at 1.5 GHz; stream 2: clock64
  // without a rate (left out).
  Fixture f(dump_with({stream(format::kStreamGpuBlock, format::kStreamClockGlobalTimer, 2),
                       stream(format::kStreamGpuWarp, format::kStreamClockCycles, 2, 1500000000),
                       stream(format::kStreamGpuBlock, format::kStreamClockCycles, 2)},
                      {rec(5000, 3), rec(7000, 4), rec(3000000, 3), rec(3015001, 4), rec(1, 3),
                       rec(2, 4)}),
            HostGpuClock{});
  const Collected c = f.read();
  CHECK(c.domains == std::vector<TimeDomain>{TimeDomain::kGpuCounter, TimeDomain::kGpuCounter,
                                             TimeDomain::kGpuCounter});
  REQUIRE(c.spans.size() == 2);
  CHECK(c.spans[0].start_ns == 5000);  // the timer's own ns
  CHECK(c.spans[0].end_ns == 7000);
  // 3000000 cycles x 1e9 / 1.5e9 = 2000000 ns; 3015001 cycles -> 2010000.67, rounded down.
  CHECK(c.spans[1].start_ns == 2000000);
  CHECK(c.spans[1].end_ns == 2010000);
  CHECK(c.stats.at(2).records == 2);
  CHECK(c.stats.at(2).spans == 0);

  npkit::Diagnostics diag;
  const auto summaries = npkit::check_event_streams(f.records, diag);
  CHECK(summaries.at(1).clock == "clock64 at 1500000000 cycles/s, not on the host clock");
  std::vector<std::string> categories;
  for (const auto& w : diag.warnings()) categories.push_back(w.category);
  CHECK(categories == std::vector<std::string>{"GPU time not on the host clock", "clock64 streams",
                                               "clock64 without a rate"});
}

TEST_CASE("event spans: cycle counts near 2^64 do not overflow", "[pair][events]") {
  const auto s = stream(format::kStreamGpuBlock, format::kStreamClockCycles, 1, 1000000000);
  const npkit::EventStreamClock clock = npkit::event_stream_clock(s, HostGpuClock{});
  CHECK(clock.to_ns(~0ULL) == INT64_MAX);       // 1.8e19 ns saturates
  CHECK(clock.to_ns(1ULL << 62) == 1LL << 62);  // 1 ns per cycle
  const auto host = npkit::event_stream_clock(
      stream(format::kStreamHostThread, format::kStreamClockHost, 1), HostGpuClock{});
  CHECK(host.to_ns(~0ULL) == INT64_MAX);
  CHECK(host.describe() == "host clock");
}
