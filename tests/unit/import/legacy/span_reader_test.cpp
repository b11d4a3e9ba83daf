// read_legacy_spans end to end on dumps made by the test writer. Unless a spec says otherwise
// the GPU runs at 1 GHz (gpu_khz=1000000: 1 tick = 1 ns) and CPU ticks are ns, so every
// expected time below is host_base + (ticks - gpu_base), computed by hand from the spec.
#include "import/legacy/span_reader.hpp"

#include <catch2/catch.hpp>

#include "support/legacy_dump_writer.hpp"
#include "support/span_collector.hpp"
#include "support/temp_dir.hpp"

using npkit::Diagnostics;
using npkit::EventKind;
using npkit::Span;
using npkit::TimeDomain;
using npkit::TrackKind;
using npkit::TrackRef;
using npkit::test::LegacyDumpSpec;
using npkit::test::RecordSpec;
using npkit::test::SpanCollector;
using npkit::test::TempDir;
using npkit::test::write_legacy_dump;

namespace {

constexpr const char* kClock1GHz = "rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n";

struct Run {
  npkit::LegacyDump dump;
  npkit::PhaseAssignment phases;
  SpanCollector sink;
  Diagnostics diag;

  std::string base(const Span& s) const { return dump.table.base_names()[s.base]; }
  std::string base(std::uint16_t b) const { return dump.table.base_names()[b]; }
  std::string phase(const Span& s) const { return phases.phase_names[s.phase]; }
  std::uint64_t warned(std::string_view category) const {
    for (const auto& g : diag.warnings()) {
      if (g.category == category) return g.count;
    }
    return 0;
  }
  std::string first_example(std::string_view category) const {
    for (const auto& g : diag.warnings()) {
      if (g.category == category && !g.examples.empty()) return g.examples[0];
    }
    return {};
  }
  const npkit::TrackStats& stats(std::size_t track = 0) const {
    REQUIRE(track < sink.tracks.size());
    return sink.tracks[track].stats;
  }
};

void read(Run& run, const std::string& dir, npkit::LegacyDumpOptions options = {},
          std::string_view ranks = "") {
  auto dump = npkit::open_legacy_dump(dir, options, run.diag);
  if (!dump.ok()) FAIL(dump.error().message);
  run.dump = std::move(*dump);
  run.phases = npkit::assign_phases(npkit::PhaseMap::builtin(), run.dump.table);
  npkit::SpanReadOptions read_options;
  auto filter = npkit::RankFilter::parse(ranks);
  REQUIRE(filter.ok());
  read_options.ranks = *filter;
  const auto st = npkit::read_legacy_spans(run.dump, run.phases, read_options, run.sink, run.diag);
  if (!st.ok()) FAIL(st.error().message);
}

void read_text(Run& run, const TempDir& tmp, std::string_view spec,
               npkit::LegacyDumpOptions options = {}, std::string_view ranks = "") {
  read(run, write_legacy_dump(tmp, spec), options, ranks);
}

}  // namespace

TEST_CASE("spans: ring all-reduce with one step, aligned by TIME_SYNC", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp,
            std::string(kClock1GHz) +
                "rank 0 gpu 0: 0x34 size=0 ts=5000 | 0x33 ts=100 | 0x01 size=1024 ts=110 "
                "| 0x35 size=512 ts=120 | 0x36 size=512 rsvd=7 ts=170 | 0x02 size=1024 "
                "ts=200");
  REQUIRE(run.sink.spans.size() == 2);
  // Inner span first: spans stream out as their EXIT is read.
  const Span& send = run.sink.spans[0];
  CHECK(run.base(send) == "ALL_REDUCE_RING_SEND");
  CHECK(send.track == TrackRef{0, TrackKind::kGpu, 0});
  CHECK(send.start_ns == 5000 + (120 - 100));  // 5020
  CHECK(send.end_ns == 5000 + (170 - 100));    // 5070
  CHECK(send.depth == 1);
  CHECK(send.entry_size == 512);
  CHECK(send.exit_rsvd == 7);
  CHECK(send.entry_record == 3);
  CHECK(send.exit_record == 4);
  CHECK(run.phase(send) == "reduce_scatter");
  const Span& ring = run.sink.spans[1];
  CHECK(run.base(ring) == "ALL_REDUCE_RING");
  CHECK(ring.start_ns == 5010);
  CHECK(ring.end_ns == 5100);
  CHECK(ring.child_ns == 50);
  CHECK(ring.depth == 0);
  CHECK(ring.entry_size == 1024);
  CHECK(run.phase(ring) == "other");
  CHECK(run.phases.collective_of_base[ring.base] != npkit::kNoCollective);

  REQUIRE(run.sink.tracks.size() == 1);
  CHECK(run.sink.tracks[0].domain == TimeDomain::kHost);
  const auto& s = run.stats();
  CHECK(s.records == 6);
  CHECK(s.spans == 2);
  CHECK(s.sync_records == 2);
  CHECK(s.instants == 0);
  CHECK(s.unknown_ids == 0);
  CHECK(s.unmatched_entries + s.unmatched_exits == 0);
  CHECK(s.partial_bytes == 0);
  CHECK(s.nonmonotonic == 0);  // the CPU-clock sync value is not compared with GPU ticks
  CHECK(s.before_first_sync == 0);
  CHECK_FALSE(s.overflowed);
  CHECK(s.first_ns == 5010);
  CHECK(s.last_ns == 5100);
  CHECK(run.diag.total() == 0);
}

TEST_CASE("spans: re-based at every work item, 1.755 GHz clock", "[pair][span_reader]") {
  // 1755 ticks = 1000 ns at 1,755,000 kHz.
  TempDir tmp;
  Run run;
  read_text(run, tmp, R"(
    rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1755000
    rank 0 gpu 3: 0x34 ts=1700000000000000000 | 0x33 ts=1000000 | 0x4B size=65536 ts=1001755
    rank 0 gpu 3: 0x4C size=65536 ts=1005265
    rank 0 gpu 3: 0x34 ts=1700000000000050000 | 0x33 ts=2000000 | 0x4B ts=2003510 | 0x4C ts=2007020
  )");
  REQUIRE(run.sink.spans.size() == 2);
  const Span& a = run.sink.spans[0];
  CHECK(run.base(a) == "SEND_RECV_SEND");
  CHECK(run.phase(a) == "p2p_send");
  CHECK(a.start_ns == 1700000000000000000 + 1000);  // 1755 ticks
  CHECK(a.end_ns == 1700000000000000000 + 3000);    // 5265 ticks
  CHECK(a.seq == 0);
  const Span& b = run.sink.spans[1];
  CHECK(b.start_ns == 1700000000000050000 + 2000);  // 3510 ticks after the second GPU sync
  CHECK(b.end_ns == 1700000000000050000 + 4000);    // 7020 ticks
  CHECK(b.seq == 1);
  CHECK(b.track.index == 3);
}

TEST_CASE("spans: nesting depth 4 with inherited phases", "[pair][span_reader]") {
  // RING ⊃ RING_SEND ⊃ SEND (generic primitive) ⊃ PRIM_LL_DATA_PROCESS.
  TempDir tmp;
  Run run;
  read_text(run, tmp, std::string(kClock1GHz) + R"(
    rank 0 gpu 0: 0x34 ts=0 | 0x33 ts=0 | 0x01 ts=10 | 0x35 ts=20 | 0x1F ts=30 | 0x29 ts=40
    rank 0 gpu 0: 0x2A ts=45 | 0x20 ts=60 | 0x36 ts=80 | 0x02 ts=100
  )");
  REQUIRE(run.sink.spans.size() == 4);
  const auto& s = run.sink.spans;
  CHECK(run.base(s[0]) == "PRIM_LL_DATA_PROCESS");
  CHECK(s[0].depth == 3);
  CHECK(run.phase(s[0]) == "reduce_scatter");
  CHECK(run.base(s[1]) == "SEND");
  CHECK(s[1].depth == 2);
  CHECK(s[1].child_ns == 5);
  CHECK(run.phase(s[1]) == "reduce_scatter");
  CHECK(s[2].depth == 1);
  CHECK(s[2].child_ns == 30);  // SEND 30..60
  CHECK(s[3].depth == 0);
  CHECK(s[3].child_ns == 60);  // RING_SEND 20..80
  CHECK(s[3].duration_ns() == 90);
}

TEST_CASE("spans: CPU channel paired by slot, µs clock period", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp, R"(
    rank 0 clock cpu_num=1 cpu_den=1000000 gpu_khz=1000000
    rank 0 cpu 1: 0x2F size=4096 rsvd=11 ts=6 | 0x2F size=4096 rsvd=12 ts=7
    rank 0 cpu 1: 0x31 size=100 rsvd=13 ts=8 | 0x30 size=4096 rsvd=11 ts=10
    rank 0 cpu 1: 0x32 size=99 rsvd=13 ts=11 | 0x30 rsvd=12 ts=15
  )");
  REQUIRE(run.sink.spans.size() == 3);
  const auto& s = run.sink.spans;
  CHECK(s[0].track == TrackRef{0, TrackKind::kCpu, 1});
  CHECK(run.base(s[0]) == "NET_SEND");
  CHECK(s[0].entry_rsvd == 11);
  CHECK(s[0].start_ns == 6000);
  CHECK(s[0].end_ns == 10000);
  CHECK(s[0].lane == 0);
  CHECK(run.phase(s[0]) == "net_send");
  CHECK(run.base(s[1]) == "NET_RECV");
  CHECK(s[1].start_ns == 8000);
  CHECK(s[1].end_ns == 11000);
  CHECK(s[1].lane == 2);
  CHECK(s[1].entry_size == 100);
  CHECK(s[1].exit_size == 99);
  CHECK(run.phase(s[1]) == "net_recv");
  CHECK(s[2].entry_rsvd == 12);
  CHECK(s[2].start_ns == 7000);
  CHECK(s[2].end_ns == 15000);
  CHECK(s[2].lane == 1);
  CHECK(run.stats().records == 6);
  CHECK(run.stats().domain == TimeDomain::kHost);
}

TEST_CASE("spans: 22-byte CPU records carry sender, receiver and step", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp, R"(
    cpu_record_size 22
    rank 0 clock cpu_num=1 cpu_den=1000000000
    rank 0 cpu 0: 0x2F size=8 rsvd=3 ts=100 from=0 to=1 step=4 | 0x30 size=8 rsvd=3 ts=250 from=0 to=1 step=4
    rank 0 cpu 0: 0x31 rsvd=5 ts=260 from=1 to=0 step=9 | 0x32 rsvd=5 ts=300 from=1 to=0 step=9
  )");
  CHECK(run.dump.cpu_record_size == 22);  // 88 bytes: divisible by 22 only
  REQUIRE(run.sink.spans.size() == 2);
  const auto& s = run.sink.spans;
  CHECK(s[0].start_ns == 100);
  CHECK(s[0].end_ns == 250);
  CHECK(s[0].sender_rank == 0);
  CHECK(s[0].receiver_rank == 1);
  CHECK(s[0].step == 4);
  CHECK(s[1].start_ns == 260);
  CHECK(s[1].end_ns == 300);
  CHECK(s[1].sender_rank == 1);
  CHECK(s[1].receiver_rank == 0);
  CHECK(s[1].step == 9);
}

TEST_CASE("spans: unmatched events are reported with their record index", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp, std::string(kClock1GHz) + R"(
    rank 0 gpu 0: 0x34 ts=1000 | 0x33 ts=0 | 0x02 ts=10 | 0x01 size=64 ts=20 | 0x1F ts=30
    rank 0 cpu 0: 0x30 rsvd=1 ts=5 | 0x2F rsvd=2 ts=6
  )");
  CHECK(run.sink.spans.empty());
  REQUIRE(run.sink.unmatched.size() == 5);
  const auto& u = run.sink.unmatched;
  CHECK(u[0].kind == EventKind::kExit);
  CHECK(run.base(u[0].base) == "ALL_REDUCE_RING");
  CHECK(u[0].record == 2);
  CHECK(u[0].ns == 1010);
  CHECK(u[1].kind == EventKind::kEntry);
  CHECK(run.base(u[1].base) == "ALL_REDUCE_RING");
  CHECK(u[1].record == 3);
  CHECK(u[1].ns == 1020);
  CHECK(u[1].size == 64);
  CHECK(u[2].kind == EventKind::kEntry);
  CHECK(run.base(u[2].base) == "SEND");
  CHECK(u[2].record == 4);
  CHECK(u[3].kind == EventKind::kExit);
  CHECK(u[3].track == TrackRef{0, TrackKind::kCpu, 0});
  CHECK(u[3].record == 0);
  CHECK(u[4].kind == EventKind::kEntry);
  CHECK(u[4].record == 1);
  CHECK(run.stats(0).unmatched_entries == 2);
  CHECK(run.stats(0).unmatched_exits == 1);
  CHECK(run.stats(1).unmatched_entries == 1);
  CHECK(run.stats(1).unmatched_exits == 1);
  CHECK(run.warned("unmatched events") == 5);
}

TEST_CASE("spans: a GPU file of exactly 65,536 records probably overflowed",
          "[pair][span_reader]") {
  for (const std::size_t n : {std::size_t{65536}, std::size_t{65535}}) {
    TempDir tmp;
    LegacyDumpSpec spec;
    spec.clock(0).gpu_khz = "1000000";
    auto& track = spec.gpu_track(0, 0);
    for (std::size_t i = 0; i < n; ++i) {
      track.records.push_back(
          RecordSpec{static_cast<std::uint8_t>(i % 2 == 0 ? 0x1F : 0x20), 0, 0, i, 0, 0, 0});
    }
    Run run;
    read(run, write_legacy_dump(tmp, spec));
    INFO(n << " records");
    CHECK(run.stats().records == n);
    CHECK(run.stats().spans == n / 2);
    CHECK(run.stats().overflowed == (n == 65536));
    CHECK(run.warned("buffer probably overflowed") == (n == 65536 ? 1 : 0));
    CHECK(run.stats().unmatched_entries == n % 2);
  }
}

TEST_CASE("spans: trailing partial records are dropped with a warning", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  const std::string dir = write_legacy_dump(tmp, std::string(kClock1GHz) + R"(
    rank 0 gpu 0: 0x1F ts=1 | 0x20 ts=2
    rank 0 gpu 0 tail: 01 02 03 04 05
  )");
  read(run, dir);
  CHECK(run.stats().records == 2);
  CHECK(run.stats().partial_bytes == 5);
  CHECK(run.stats().spans == 1);
  CHECK(run.warned("truncated file") == 1);
  CHECK_THAT(run.first_example("truncated file"),
             Catch::Contains(dir + "/gpu_events_rank_0_buf_0") && Catch::Contains("offset 32"));
}

TEST_CASE("spans: partial CPU records at the set record size", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  npkit::LegacyDumpOptions options;
  options.cpu_record_size = 18;
  read_text(run, tmp, R"(
    cpu_record_size 18
    rank 0 cpu 0: 0x2F rsvd=1 ts=10 | 0x30 rsvd=1 ts=20 | 0x2F rsvd=2 ts=30
    rank 0 cpu 0 tail: 00 11 22 33 44 55 66
  )",
            options);
  CHECK(run.stats().records == 3);
  CHECK(run.stats().partial_bytes == 7);
  CHECK(run.stats().spans == 1);
  CHECK_THAT(run.first_example("truncated file"), Catch::Contains("offset 54"));
}

TEST_CASE("spans: unknown ids are counted and warned, never fatal", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp, std::string(kClock1GHz) + R"(
    rank 0 gpu 0: 0x34 ts=0 | 0x33 ts=0 | 0x99 ts=1 | 0x01 ts=2 | 0xF0 ts=3 | 0x99 ts=4 | 0x02 ts=5
    rank 0 cpu 0: 0xEE ts=1
  )");
  CHECK(run.dump.table.label() == "nccl");
  REQUIRE(run.sink.spans.size() == 1);
  CHECK(run.sink.spans[0].start_ns == 2);
  CHECK(run.sink.spans[0].end_ns == 5);
  CHECK(run.stats(0).unknown_ids == 3);
  CHECK(run.stats(1).unknown_ids == 1);
  CHECK(run.warned("unknown event id") == 4);
  CHECK_THAT(run.first_example("unknown event id"), Catch::Contains("0x99"));
}

TEST_CASE("spans: timestamps going backwards are counted", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp, std::string(kClock1GHz) + R"(
    rank 0 gpu 0: 0x34 ts=1000 | 0x33 ts=100 | 0x1F ts=200 | 0x20 ts=150 | 0x1F ts=300 | 0x20 ts=400
    rank 0 cpu 0: 0x2F rsvd=1 ts=50 | 0x30 rsvd=1 ts=40
  )");
  CHECK(run.stats(0).nonmonotonic == 1);  // 150 after 200
  CHECK(run.stats(1).nonmonotonic == 1);  // 40 after 50
  CHECK(run.warned("non-monotonic timestamps") == 2);
}

TEST_CASE("spans: events before the first TIME_SYNC use the first pair", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp, std::string(kClock1GHz) + R"(
    rank 0 gpu 0: 0x1F ts=50 | 0x20 ts=60 | 0x34 ts=5000 | 0x33 ts=100 | 0x1F ts=110 | 0x20 ts=130
  )");
  REQUIRE(run.sink.spans.size() == 2);
  CHECK(run.sink.spans[0].start_ns == 5000 - 50);  // 50 ticks before the GPU base 100
  CHECK(run.sink.spans[0].end_ns == 4960);
  CHECK(run.sink.spans[1].start_ns == 5010);
  CHECK(run.sink.spans[1].end_ns == 5030);
  CHECK(run.stats().before_first_sync == 2);
  CHECK(run.stats().domain == TimeDomain::kHost);
  CHECK(run.warned("events before first TIME_SYNC") == 2);
}

TEST_CASE("spans: no TIME_SYNC keeps the GPU counter's own time", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp, R"(
    rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=500000
    rank 0 gpu 0: 0x1F ts=100 | 0x20 ts=400
  )");
  REQUIRE(run.sink.spans.size() == 1);
  CHECK(run.sink.spans[0].start_ns == 200);  // 2 ns per tick at 500 MHz
  CHECK(run.sink.spans[0].end_ns == 800);
  CHECK(run.sink.tracks[0].domain == TimeDomain::kGpuCounter);
  CHECK(run.stats().domain == TimeDomain::kGpuCounter);
  CHECK(run.warned("no TIME_SYNC events") == 1);
}

TEST_CASE("spans: defined instants other than TIME_SYNC are counted", "[pair][span_reader]") {
  TempDir tmp;
  npkit::LegacyDumpOptions options;
  options.event_table =
      tmp.write_file("npkit_event.h",
                     "#define NPKIT_EVENT_MARK 0x60\n#define NPKIT_EVENT_X_ENTRY 0x61\n"
                     "#define NPKIT_EVENT_X_EXIT 0x62\n");
  Run run;
  read_text(run, tmp, std::string(kClock1GHz) + "rank 0 gpu 0: 0x61 ts=1 | 0x60 ts=2 | 0x62 ts=3",
            options);
  CHECK(run.stats().instants == 1);
  CHECK(run.stats().spans == 1);
  CHECK(run.stats().unknown_ids == 0);
}

TEST_CASE("spans: tracks in rank, GPU, CPU order and the rank filter", "[pair][span_reader]") {
  const std::string spec = R"(
    rank 0 gpu 1: 0x1F ts=1 | 0x20 ts=2
    rank 0 gpu 0:
    rank 0 cpu 0: 0x2F rsvd=1 ts=3 | 0x30 rsvd=1 ts=4
    rank 1 gpu 0: 0x1F ts=5 | 0x20 ts=6
    rank 2 gpu 0: 0x1F ts=7 | 0x20 ts=8
  )";
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, spec);
  SECTION("all ranks") {
    Run run;
    read(run, dir);
    const auto& t = run.sink.tracks;
    REQUIRE(t.size() == 5);
    CHECK(t[0].file.track == TrackRef{0, TrackKind::kGpu, 0});
    CHECK(t[0].stats.records == 0);
    CHECK(t[1].file.track == TrackRef{0, TrackKind::kGpu, 1});
    CHECK(t[2].file.track == TrackRef{0, TrackKind::kCpu, 0});
    CHECK(t[3].file.track.rank == 1);
    CHECK(t[4].file.track.rank == 2);
    CHECK(run.sink.spans.size() == 4);
  }
  SECTION("ranks 1-2") {
    Run run;
    read(run, dir, {}, "1-2");
    REQUIRE(run.sink.tracks.size() == 2);
    REQUIRE(run.sink.spans.size() == 2);
    CHECK(run.sink.spans[0].track.rank == 1);
    CHECK(run.sink.spans[0].start_ns == 5);
    CHECK(run.sink.spans[1].track.rank == 2);
  }
}

TEST_CASE("spans: RCCL ids pair by name although ENTRY is even", "[pair][span_reader]") {
  // A float kHz file selects the rccl table; 100 MHz: 1 tick = 10 ns.
  TempDir tmp;
  Run run;
  read_text(run, tmp, R"(
    rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=100000.000000
    rank 0 gpu 0: 0x34 ts=1000000 | 0x33 ts=500 | 0x50 size=4096 ts=510 | 0x52 ts=520 | 0x53 ts=530
    rank 0 gpu 0: 0x51 size=4096 ts=600
  )");
  CHECK(run.dump.table.label() == "rccl");
  REQUIRE(run.sink.spans.size() == 2);
  CHECK(run.base(run.sink.spans[0]) == "ALL_GATHER_RING_SEND");
  CHECK(run.sink.spans[0].start_ns == 1000000 + 200);
  CHECK(run.sink.spans[0].end_ns == 1000000 + 300);
  CHECK(run.phase(run.sink.spans[0]) == "all_gather");
  CHECK(run.base(run.sink.spans[1]) == "ALL_GATHER_RING");
  CHECK(run.sink.spans[1].start_ns == 1000000 + 100);
  CHECK(run.sink.spans[1].end_ns == 1000000 + 1000);
}

TEST_CASE("spans: MSCCL++ ops pair ENTRY 0x1D+op with EXIT 0x3B+op", "[pair][span_reader]") {
  TempDir tmp;
  Run run;
  read_text(run, tmp,
            std::string(kClock1GHz) +
                "rank 0 gpu 0: 0x02 ts=1000 | 0x01 ts=0 | 0x28 ts=10 | 0x2F ts=12 | "
                "0x4D ts=20 | 0x46 ts=30");
  CHECK(run.dump.table.label() == "mscclpp");
  // 0x28/0x46: SIGNAL (op 11); 0x2F/0x4D: REDUCE_SEND_PACKETS (op 0x2F - 0x1D = 18).
  REQUIRE(run.sink.spans.size() == 2);
  CHECK(run.base(run.sink.spans[0]) == "EXECUTOR_REDUCE_SEND_PACKETS");
  CHECK(run.sink.spans[0].start_ns == 1012);
  CHECK(run.sink.spans[0].end_ns == 1020);
  CHECK(run.base(run.sink.spans[1]) == "EXECUTOR_SIGNAL");
  CHECK(run.sink.spans[1].start_ns == 1010);
  CHECK(run.sink.spans[1].end_ns == 1030);
  CHECK(run.sink.spans[1].child_ns == 8);
}

TEST_CASE("spans in chunks: a sink per chunk, handed on in track order, warnings merged",
          "[pair][span_reader]") {
  const std::string spec = R"(
    rank 0 gpu 1: 0x1F ts=1 | 0x20 ts=2 | 0x20 ts=3
    rank 0 gpu 0:
    rank 0 cpu 0: 0x2F rsvd=1 ts=3 | 0x30 rsvd=1 ts=4
    rank 1 gpu 0: 0x1F ts=5 | 0x20 ts=6 | 0x1F ts=9
    rank 2 gpu 0: 0x1F ts=7 | 0x20 ts=8
  )";
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, spec);
  Run whole;
  read(whole, dir);
  // The warnings of reading the spans alone (whole.diag also holds those of opening the dump).
  Diagnostics expected;
  SpanCollector ignored;
  REQUIRE(npkit::read_legacy_spans(whole.dump, whole.phases, {}, ignored, expected).ok());
  for (unsigned threads : {1u, 2u, 4u}) {
    INFO("threads " << threads);
    Diagnostics diag;
    npkit::SpanChunks chunks;
    chunks.threads = threads;
    chunks.window = 2;
    chunks.chunk_bytes = 1;  // a track per chunk
    chunks.make_sink = [](std::size_t) { return std::make_unique<SpanCollector>(); };
    std::vector<std::size_t> order;
    std::vector<Span> spans;
    std::vector<TrackRef> tracks;
    chunks.consume = [&](std::size_t chunk, npkit::SpanSink& sink) -> npkit::Status {
      auto& collected = static_cast<SpanCollector&>(sink);
      for (const auto& t : collected.tracks) tracks.push_back(t.file.track);
      order.push_back(chunk);
      spans.insert(spans.end(), collected.spans.begin(), collected.spans.end());
      return npkit::Ok{};
    };
    REQUIRE(npkit::read_legacy_spans_in_chunks(whole.dump, whole.phases, {}, chunks, diag).ok());
    // The empty track (rank 0 GPU buffer 0) shares the next track's chunk.
    CHECK(order == std::vector<std::size_t>{0, 1, 2, 3});
    REQUIRE(tracks.size() == whole.sink.tracks.size());
    for (std::size_t i = 0; i < tracks.size(); ++i) {
      CHECK(tracks[i] == whole.sink.tracks[i].file.track);
    }
    REQUIRE(spans.size() == whole.sink.spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
      CHECK(spans[i].track == whole.sink.spans[i].track);
      CHECK(spans[i].start_ns == whole.sink.spans[i].start_ns);
      CHECK(spans[i].end_ns == whole.sink.spans[i].end_ns);
    }
    // One EXIT without ENTRY on rank 0, one ENTRY without EXIT on rank 1.
    REQUIRE(diag.warnings().size() == expected.warnings().size());
    for (std::size_t i = 0; i < diag.warnings().size(); ++i) {
      CHECK(diag.warnings()[i].category == expected.warnings()[i].category);
      CHECK(diag.warnings()[i].count == expected.warnings()[i].count);
      CHECK(diag.warnings()[i].examples == expected.warnings()[i].examples);
    }
    CHECK(whole.warned("unmatched events") == 2);
  }
}
