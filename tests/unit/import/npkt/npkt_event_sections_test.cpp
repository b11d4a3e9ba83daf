// parse_npkt on the event-record sections of format 1.1 (EventNames, Streams, EventRecords):
// values as written, forward compatibility, and every error with the offset computed by hand.
//
// The base file (comm(1, 0, 1), one name, two streams of two records each) is laid out as:
//   0 file header | 64 Communicator | 216 Metadata | 232 Names | 248 Strings | 264 Threads |
//   280 ProfilerRecords (empty sections of 16 bytes) | 296 EventNames header, 312 the entry
//   (16 + "A_ENTRY" 7 = 23 bytes, 1 padding) | 336 Streams header, 352 stream 0 (its
//   first_record at 376), 424 stream 1 (first_record at 448) | 496 EventRecords header, 512 the
//   four records | 608 end
#include <catch2/catch.hpp>

#include "import/npkt/npkt_dump.hpp"
#include "support/npkt_writer.hpp"

namespace format = npkit::format;
using npkit::NpktDump;
using npkit::test::NpktBuilder;
using npkit::test::StreamSpec;

namespace {

npkit::Result<NpktDump> parse(const NpktBuilder& b) {
  const std::string image = b.bytes();
  return npkit::parse_npkt("ev.npkt", reinterpret_cast<const std::uint8_t*>(image.data()),
                           image.size());
}

std::string parse_error(const NpktBuilder& b) {
  auto d = parse(b);
  return d.ok() ? "(parsed without an error)" : d.error().message;
}

NpktBuilder base(StreamSpec second = {}) {
  NpktBuilder b;
  b.comm(1, 0, 1).event_name(0x1000, 1, "A_ENTRY");
  b.stream(StreamSpec{}).event(10, 0x1000).event(20, 0x1000);
  second.block = 1;
  b.stream(second).event(30, 0x1000).event(40, 0x1000);
  return b;
}

}  // namespace

TEST_CASE("npkt events: the base file is valid and 608 bytes", "[npkt][events]") {
  const NpktBuilder b = base();
  CHECK(b.bytes().size() == 608);
  auto d = parse(b);
  REQUIRE(d.ok());
  CHECK(d->minor_version == 1);
  CHECK(d->feature_bits == (format::kFeatureProfilerRecords | format::kFeatureEventRecords));
  CHECK(d->warnings.empty());
  CHECK(d->event_records_offset == 512);
  CHECK(d->stream_offsets == std::vector<std::uint64_t>{352, 424});
}

TEST_CASE("npkt events: names, streams and records read as written", "[npkt][events]") {
  NpktBuilder b;
  b.comm(7, 1, 2).string(1, "allreduce").string(2, "worker");
  b.event_name(0x1002, 1, "RS_ENTRY", "reduce_scatter").event_name(0x1003, 2, "RS_EXIT", "x");
  b.event_name(0x0034, 3, "TIME_SYNC_GPU", "");
  b.stream(StreamSpec{.source = 2,
                      .clock = 2,
                      .cuda_device = 3,
                      .block = 5,
                      .warp = 2,
                      .name_string = 1,
                      .records_dropped = 9,
                      .capacity = 2,
                      .cycles_per_second = 1410000000,
                      .os_tid = 0});
  b.event(0xFFFFFFFFFFFFFFFFULL, 0x1002, 1ULL << 40, 0xDEADBEEF).event(5, 0x1003, 0, 1);
  b.stream(
      StreamSpec{.source = 3, .clock = 3, .cuda_device = -1, .name_string = 2, .os_tid = 4711});
  b.event(1700000000000000000ULL, 0x0034);
  auto d = parse(b);
  REQUIRE(d.ok());
  CHECK(d->warnings.empty());
  REQUIRE(d->event_names.size() == 3);
  CHECK(d->event_names[0].id == 0x1002);
  CHECK(d->event_names[0].kind == format::kEventEntry);
  CHECK(d->event_names[0].name == "RS_ENTRY");
  CHECK(d->event_names[0].phase == "reduce_scatter");
  CHECK(d->event_names[1].kind == format::kEventExit);
  CHECK(d->event_names[1].phase == "x");
  CHECK(d->event_names[2].id == 0x0034);
  CHECK(d->event_names[2].kind == format::kEventInstant);
  CHECK(d->event_names[2].phase.empty());
  REQUIRE(d->streams.size() == 2);
  const format::StreamInfo& w = d->streams[0];
  CHECK(w.source == format::kStreamGpuWarp);
  CHECK(w.clock == format::kStreamClockCycles);
  CHECK(w.cuda_device == 3);
  CHECK(w.block == 5);
  CHECK(w.warp == 2);
  CHECK(d->string_at(w.name_string) == "allreduce");
  CHECK(w.first_record == 0);
  CHECK(w.records_written == 2);
  CHECK(w.records_dropped == 9);
  CHECK(w.capacity == 2);
  CHECK(w.cycles_per_second == 1410000000);
  const format::StreamInfo& h = d->streams[1];
  CHECK(h.source == format::kStreamHostThread);
  CHECK(h.cuda_device == -1);
  CHECK(h.first_record == 2);
  CHECK(h.records_written == 1);
  CHECK(h.os_tid == 4711);
  CHECK(d->stream_numbers == std::vector<std::uint32_t>{0, 1});
  REQUIRE(d->event_records.size() == 3);
  CHECK(d->event_records[0].timestamp == 0xFFFFFFFFFFFFFFFFULL);
  CHECK(d->event_records[0].size == 1ULL << 40);
  CHECK(d->event_records[0].user == 0xDEADBEEF);
  CHECK(d->event_records[0].id == 0x1002);
  CHECK(d->event_records[1].timestamp == 5);
  CHECK(d->event_records[1].user == 1);
  CHECK(d->event_records[2].timestamp == 1700000000000000000ULL);
  CHECK(d->event_records[2].id == 0x0034);
}

TEST_CASE("npkt events: a file of event records alone", "[npkt][events]") {
  NpktBuilder b = base();
  b.omit(NpktBuilder::kNames).omit(NpktBuilder::kThreads).omit(NpktBuilder::kProfilerRecords);
  auto d = parse(b);
  REQUIRE(d.ok());
  CHECK(d->feature_bits == format::kFeatureEventRecords);
  CHECK(d->records.empty());
  CHECK(d->has_event_streams());
  CHECK(d->warnings.empty());  // no "no Names section": the profiler's names are not needed

  // Records without names read as unnamed: a warning, not an error.
  NpktBuilder unnamed = base();
  unnamed.omit(NpktBuilder::kEventNames);
  auto u = parse(unnamed);
  REQUIRE(u.ok());
  CHECK(u->warnings ==
        std::vector<std::string>{
            "no EventNames section: every event record reads as an unnamed instant"});
}

TEST_CASE("npkt events: newer minors (larger entries, unknown kinds and sources)",
          "[npkt][events]") {
  NpktBuilder b = base(StreamSpec{.source = 7});
  b.entry_size(NpktBuilder::kStreams, 80).entry_size(NpktBuilder::kEventRecords, 32);
  b.event_name(0x1001, 9, "FUTURE_KIND");
  auto d = parse(b);
  REQUIRE(d.ok());
  REQUIRE(d->streams.size() == 1);  // the source-7 stream is skipped
  CHECK(d->streams[0].records_written == 2);
  CHECK(d->stream_numbers == std::vector<std::uint32_t>{0});
  REQUIRE(d->event_records.size() == 4);
  CHECK(d->event_records[3].timestamp == 40);
  CHECK(d->event_record_size == 32);
  REQUIRE(d->event_names.size() == 1);
  // Names at 312 (23 + 27 bytes, 6 padding): Streams header at 368, its 80-byte entries at 384
  // and 464.
  CHECK(d->warnings ==
        std::vector<std::string>{
            "1 event name(s) of an unknown kind (known: 1 ENTRY, 2 EXIT, 3 instant) skipped; "
            "their records read as unnamed; first at offset 335: id 4097, kind 9",
            "1 stream(s) of an unknown source (known: 1-3) or clock (known: 1-3) skipped with "
            "their records; first: stream 1 at offset 464: source 7, clock 1"});
}

TEST_CASE("npkt events: records that no stream owns are counted", "[npkt][events]") {
  NpktBuilder b = base(StreamSpec{.records_written = 1});
  auto d = parse(b);
  REQUIRE(d.ok());
  CHECK(d->warnings ==
        std::vector<std::string>{"1 event record(s) belong to no stream and were ignored"});
}

TEST_CASE("npkt events: stream ranges are checked", "[npkt][events]") {
  CHECK(parse_error(base(StreamSpec{.first_record = 2, .records_written = 3})) ==
        "ev.npkt: offset 448: Streams section: stream 1: records [2, 2 + 3) run past the 4 "
        "record(s) of the EventRecords section");
  CHECK(parse_error(base(StreamSpec{.first_record = 5, .records_written = 0})) ==
        "ev.npkt: offset 448: Streams section: stream 1: records [5, 5 + 0) run past the 4 "
        "record(s) of the EventRecords section");
  CHECK(parse_error(base(StreamSpec{.first_record = 1})) ==
        "ev.npkt: offset 448: Streams section: stream 1: records [1, 1 + 2) overlap stream 0's "
        "records [0, 0 + 2)");
  // A huge count must not wrap around.
  CHECK(parse_error(base(StreamSpec{.first_record = 2, .records_written = ~0ULL})) ==
        "ev.npkt: offset 448: Streams section: stream 1: records [2, 2 + 18446744073709551615) "
        "run past the 4 record(s) of the EventRecords section");
  // Without a Streams section the EventRecords section (then at 336) belongs to nobody.
  CHECK(parse_error(base().omit(NpktBuilder::kStreams)) ==
        "ev.npkt: offset 336: EventRecords section: 4 record(s) but no Streams section to say "
        "whose they are; expected a Streams section (kind 9)");
  // Streams whose records are missing altogether.
  CHECK(parse_error(base().omit(NpktBuilder::kEventRecords)) ==
        "ev.npkt: offset 376: Streams section: stream 0: records [0, 0 + 2) run past the 0 "
        "record(s) of the EventRecords section");
}

TEST_CASE("npkt events: malformed names and entry sizes", "[npkt][events]") {
  CHECK(parse_error(base().event_name(70000, 1, "B_ENTRY")) ==
        "ev.npkt: offset 335: EventNames section: event id 70000: expected at most 65535 "
        "(EventRecord ids are 16-bit)");
  CHECK(parse_error(base().event_name(0x1000, 2, "A_EXIT")) ==
        "ev.npkt: offset 335: EventNames section: event id 4096 named twice; expected unique ids");
  CHECK(parse_error(base().entry_size(NpktBuilder::kStreams, 64)) ==
        "ev.npkt: offset 340: Streams section: entry_size 64: expected at least 72 bytes per "
        "entry");
  CHECK(parse_error(base().entry_size(NpktBuilder::kEventRecords, 16)) ==
        "ev.npkt: offset 500: EventRecords section: entry_size 16: expected at least 24 bytes "
        "per entry");
  // The padding byte counted as payload: one byte is no entry header.
  CHECK(parse_error(base().payload_size(NpktBuilder::kEventNames, 24)) ==
        "ev.npkt: offset 335: EventNames section: expected an entry header of 16 bytes, only 1 "
        "bytes left in the section");
  // An EventNames entry claiming a phase hint longer than the section (id 1, kind 3, name 1 byte,
  // phase 200 bytes).
  NpktBuilder hint;
  hint.comm(1, 0, 1).extra_section(8, 0,
                                   std::string("\x01\0\0\0\x03\0\0\0\x01\0\0\0\xC8\0\0\0X", 17));
  CHECK(parse_error(hint) ==
        "ev.npkt: offset 232: EventNames section: entry text of 201 bytes runs past the end of "
        "the section (1 bytes left after the entry header)");
  CHECK(parse_error(base().duplicate(NpktBuilder::kStreams)) ==
        "ev.npkt: offset 496: a second Streams section; expected at most one");
}
