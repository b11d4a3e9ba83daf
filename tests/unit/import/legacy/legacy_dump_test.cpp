// open_legacy_dump: CPU record size detection, automatic event-table choice, clock files.
#include "import/legacy/legacy_dump.hpp"

#include <catch2/catch.hpp>

#include "support/find_warning.hpp"
#include "support/legacy_dump_writer.hpp"
#include "support/temp_dir.hpp"

using npkit::Diagnostics;
using npkit::LegacyDump;
using npkit::LegacyDumpOptions;
using npkit::Rational;
using npkit::test::find_warning;
using npkit::test::LegacyDumpSpec;
using npkit::test::RecordSpec;
using npkit::test::TempDir;
using npkit::test::write_legacy_dump;

namespace {

LegacyDump open_ok(const std::string& dir, Diagnostics& diag, LegacyDumpOptions options = {}) {
  auto dump = npkit::open_legacy_dump(dir, options, diag);
  if (!dump.ok()) FAIL(dump.error().message);
  return std::move(*dump);
}

// `n` NET_SEND ENTRY/EXIT records 1 µs apart, as a proxy thread writes them.
void add_net_records(LegacyDumpSpec& spec, std::size_t n, std::uint64_t first_ts) {
  auto& track = spec.cpu_track(0, 0);
  for (std::size_t i = 0; i < n; ++i) {
    RecordSpec r;
    r.id = i % 2 == 0 ? 0x2F : 0x30;
    r.size = 4096;
    r.rsvd = 100 + static_cast<std::uint32_t>(i / 2);
    r.ts = first_ts + 1000 * i;
    r.sender = 0;
    r.receiver = 1;
    r.step = static_cast<std::uint32_t>(i / 2);
    track.records.push_back(r);
  }
}

}  // namespace

TEST_CASE("cpu record size: the only size dividing the files", "[ingest][legacy_dump]") {
  // 3 records: 48 bytes (16 only), 54 bytes (18 only), 66 bytes (22 only).
  for (unsigned size : {16u, 18u, 22u}) {
    TempDir tmp;
    LegacyDumpSpec spec;
    spec.cpu_record_size = size;
    spec.gpu_track(0, 0);
    add_net_records(spec, 3, 1000000000000);
    Diagnostics diag;
    const auto dump = open_ok(write_legacy_dump(tmp, spec), diag);
    CHECK(dump.cpu_record_size == size);
    CHECK_THAT(dump.cpu_record_reason, Catch::Contains("only size dividing"));
  }
}

TEST_CASE("cpu record size: 576 bytes (36x16 = 32x18) decided by timestamps",
          "[ingest][legacy_dump]") {
  SECTION("36 records of 16 bytes, epoch ns") {
    TempDir tmp;
    LegacyDumpSpec spec;
    spec.cpu_record_size = 16;
    add_net_records(spec, 36, 1700000000000000000ULL);
    Diagnostics diag;
    const auto dump = open_ok(write_legacy_dump(tmp, spec), diag);
    CHECK(dump.cpu_record_size == 16);
    // 36 records = 35 steps of +1000 ns, all plausible.
    CHECK_THAT(dump.cpu_record_reason, Catch::Contains("35 of 35"));
  }
  SECTION("32 records of 18 bytes, steady ns") {
    TempDir tmp;
    LegacyDumpSpec spec;
    spec.cpu_record_size = 18;
    add_net_records(spec, 32, 5000000000000ULL);
    Diagnostics diag;
    const auto dump = open_ok(write_legacy_dump(tmp, spec), diag);
    CHECK(dump.cpu_record_size == 18);
    CHECK_THAT(dump.cpu_record_reason, Catch::Contains("31 of 31"));
  }
  SECTION("176 bytes = 8 records of 22 = 11 of 16") {
    TempDir tmp;
    LegacyDumpSpec spec;
    spec.cpu_record_size = 22;
    add_net_records(spec, 8, 5000000000000ULL);
    Diagnostics diag;
    const auto dump = open_ok(write_legacy_dump(tmp, spec), diag);
    CHECK(dump.cpu_record_size == 22);
    CHECK_THAT(dump.cpu_record_reason, Catch::Contains("7 of 7"));
  }
  SECTION("198 bytes = 11 records of 18 = 9 of 22") {
    TempDir tmp;
    LegacyDumpSpec spec;
    spec.cpu_record_size = 18;
    add_net_records(spec, 11, 5000000000000ULL);
    Diagnostics diag;
    const auto dump = open_ok(write_legacy_dump(tmp, spec), diag);
    CHECK(dump.cpu_record_size == 18);
    CHECK_THAT(dump.cpu_record_reason, Catch::Contains("10 of 10"));
  }
}

TEST_CASE("cpu record size: no CPU data, or sizes that fit nothing", "[ingest][legacy_dump]") {
  TempDir tmp;
  Diagnostics diag;
  const auto empty = open_ok(write_legacy_dump(tmp, "rank 0 gpu 0:\nrank 0 cpu 0:", "a"), diag);
  CHECK(empty.cpu_record_size == 16);
  CHECK_THAT(empty.cpu_record_reason, Catch::Contains("no non-empty CPU event file"));

  // 48 bytes divide only by 16, 54 only by 18: no size fits both files.
  LegacyDumpSpec spec;
  spec.cpu_track(0, 0).records.resize(3);  // 3 x 16 = 48
  spec.cpu_track(0, 1).tail = std::string(54, '\0');
  Diagnostics diag2;
  const auto mixed = open_ok(write_legacy_dump(tmp, spec, "b"), diag2);
  CHECK(mixed.cpu_record_size == 16);
  CHECK(find_warning(diag2, "cpu record size") != nullptr);
}

TEST_CASE("cpu record size: --cpu-record-size overrides detection", "[ingest][legacy_dump]") {
  TempDir tmp;
  LegacyDumpSpec spec;
  add_net_records(spec, 36, 1700000000000000000ULL);  // detects as 16
  const std::string dir = write_legacy_dump(tmp, spec);
  Diagnostics diag;
  LegacyDumpOptions options;
  options.cpu_record_size = 18;
  const auto dump = open_ok(dir, diag, options);
  CHECK(dump.cpu_record_size == 18);
  CHECK_THAT(dump.cpu_record_reason, Catch::Contains("--cpu-record-size"));
  // With 18-byte CPU records, auto picks the 2.20 port table.
  CHECK(dump.table.label() == "nccl-2.20-port");

  options.cpu_record_size = 20;
  auto bad = npkit::open_legacy_dump(dir, options, diag);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message, Catch::Contains("20"));
}

TEST_CASE("auto event table: the evidence and its reason", "[ingest][legacy_dump]") {
  struct Case {
    const char* spec;
    const char* table;
    const char* reason;
  };
  const Case cases[] = {
      {"cpu_record_size 18\nrank 0 cpu 0: 0x2F ts=1 | 0x30 ts=2 | 0x2F ts=3", "nccl-2.20-port",
       "18-byte CPU records"},
      {"cpu_record_size 22\nrank 0 cpu 0: 0x2F ts=1 | 0x30 ts=2 | 0x2F ts=3", "nccl-2.20-port",
       "22-byte CPU records"},
      {"rank 0 gpu 0: 0x02 ts=9 | 0x01 ts=1 | 0x1D ts=2", "mscclpp", "0x02/0x01"},
      {"rank 0 gpu 0: 0x2C ts=9 | 0x2B ts=1 | 0x01 ts=2", "msccl-0.1", "0x2C/0x2B"},
      {"rank 0 clock gpu_khz=100000.000000\nrank 0 gpu 0: 0x34 | 0x33", "rccl", "100000 kHz"},
      {"rank 0 clock gpu_khz=25000\nrank 0 gpu 0: 0x34 | 0x33", "rccl", "25000 kHz"},
      {"rank 0 clock gpu_khz=1410000.5\nrank 0 gpu 0:", "rccl", "AMD"},
      {"rank 0 clock gpu_khz=1755000\nrank 0 gpu 0: 0x34 | 0x33 | 0x01", "nccl", "0x34/0x33"},
      {"rank 0 gpu 0: 0x01 | 0x02", "nccl", "standard NCCL"},
      {"naming channel\nrank 0 gpu 0: 0x36 | 0x35", "npkit-2021", "per channel"},
  };
  for (const auto& c : cases) {
    INFO(c.spec);
    TempDir tmp;
    Diagnostics diag;
    const auto dump = open_ok(write_legacy_dump(tmp, c.spec), diag);
    CHECK(dump.table.label() == c.table);
    CHECK_THAT(dump.table_reason, Catch::StartsWith("auto: ") && Catch::Contains(c.reason));
  }
}

TEST_CASE("auto event table: more than 512 GPU buffers means RCCL", "[ingest][legacy_dump]") {
  TempDir tmp;
  LegacyDumpSpec spec;
  spec.clock(0).gpu_khz = "1755000";
  for (std::uint32_t b = 0; b < 513; ++b) spec.gpu_track(0, b);
  Diagnostics diag;
  const auto dump = open_ok(write_legacy_dump(tmp, spec), diag);
  CHECK(dump.table.label() == "rccl");
  CHECK_THAT(dump.table_reason, Catch::Contains("513 GPU buffer files"));
}

TEST_CASE("npkit-2021 dumps hold 2^20 records per buffer", "[ingest][legacy_dump]") {
  TempDir tmp;
  Diagnostics diag;
  const auto old = open_ok(write_legacy_dump(tmp, "naming channel\nrank 0 gpu 0:", "a"), diag);
  CHECK(old.gpu_buffer_capacity == 1048576);
  const auto cur = open_ok(write_legacy_dump(tmp, "rank 0 gpu 0:", "b"), diag);
  CHECK(cur.gpu_buffer_capacity == 65536);
  CHECK(cur.cpu_buffer_capacity == 2097152);
}

TEST_CASE("explicit event table: built-in name, header path, bad name", "[ingest][legacy_dump]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, "rank 0 gpu 0: 0x34 | 0x33");
  Diagnostics diag;
  LegacyDumpOptions options;
  options.event_table = "mscclpp";
  const auto a = open_ok(dir, diag, options);
  CHECK(a.table.label() == "mscclpp");
  CHECK_THAT(a.table_reason, Catch::Contains("--event-table"));

  options.event_table = tmp.write_file("hdr/npkit_event.h", "#define NPKIT_EVENT_MINE_ENTRY 0x7\n");
  const auto b = open_ok(dir, diag, options);
  CHECK(b.table[0x07].full == "NPKIT_EVENT_MINE_ENTRY");
  CHECK(b.table.defined_count() == 1);

  options.event_table = "no-such-table";
  auto c = npkit::open_legacy_dump(dir, options, diag);
  REQUIRE_FALSE(c.ok());
  CHECK_THAT(c.error().message, Catch::Contains("no-such-table"));
}

TEST_CASE("clock files: all present, per rank", "[ingest][legacy_dump][clock]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 0 clock cpu_num=1 cpu_den=1000000 gpu_khz=1755000
    rank 0 gpu 0:
  )");
  Diagnostics diag;
  const auto dump = open_ok(dir, diag);
  REQUIRE(dump.clocks.size() == 1);
  CHECK(dump.clocks[0].cpu_tick_seconds == Rational{1, 1000000});
  CHECK(dump.clocks[0].gpu_khz == Rational{1755000, 1});
  CHECK(find_warning(diag, "missing clock file") == nullptr);
  CHECK(diag.total() == 0);
}

TEST_CASE("clock files: a missing file borrows the other ranks' value",
          "[ingest][legacy_dump][clock]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1755000
    rank 1 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1755000
    rank 2 clock cpu_num=1 gpu_khz=abc
    rank 0 gpu 0:
    rank 1 gpu 0:
    rank 2 gpu 0:
  )");
  Diagnostics diag;
  const auto dump = open_ok(dir, diag);
  REQUIRE(dump.clocks.size() == 3);
  // Rank 2: den file missing and kHz unreadable -> both borrowed from ranks 0 and 1.
  CHECK(dump.clocks[2].cpu_tick_seconds == Rational{1, 1000000000});
  CHECK_THAT(dump.clocks[2].cpu_source, Catch::Contains("borrowed"));
  CHECK(dump.clocks[2].gpu_khz == Rational{1755000, 1});
  CHECK_THAT(dump.clocks[2].gpu_source, Catch::Contains("borrowed"));
  const auto* missing = find_warning(diag, "missing clock file");
  REQUIRE(missing != nullptr);
  CHECK(missing->count == 2);  // rank 2: CPU period, GPU rate
  const auto* bad = find_warning(diag, "bad clock file");
  REQUIRE(bad != nullptr);
  CHECK_THAT(bad->examples[0], Catch::Contains("gpu_clock_rate_rank_2"));
}

TEST_CASE("clock files: none at all", "[ingest][legacy_dump][clock]") {
  TempDir tmp;
  Diagnostics diag;
  const auto dump = open_ok(write_legacy_dump(tmp, "rank 0 gpu 0:\nrank 1 gpu 0:"), diag);
  REQUIRE(dump.clocks.size() == 2);
  for (const auto& c : dump.clocks) {
    CHECK(c.cpu_tick_seconds == Rational{1, 1000000000});  // Linux default
    CHECK_FALSE(c.gpu_khz.has_value());
  }
  const auto* missing = find_warning(diag, "missing clock file");
  REQUIRE(missing != nullptr);
  CHECK(missing->count == 4);  // 2 ranks x (CPU period, GPU rate)
}

TEST_CASE("clock files: differing GPU rates are kept per rank", "[ingest][legacy_dump][clock]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1755000
    rank 1 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1410000
    rank 2 clock cpu_num=1 cpu_den=1000000000
    rank 0 gpu 0:
    rank 1 gpu 0:
    rank 2 gpu 0:
  )");
  Diagnostics diag;
  const auto dump = open_ok(dir, diag);
  CHECK(dump.clocks[0].gpu_khz == Rational{1755000, 1});
  CHECK(dump.clocks[1].gpu_khz == Rational{1410000, 1});
  // No agreed value to borrow for rank 2.
  CHECK_FALSE(dump.clocks[2].gpu_khz.has_value());
  CHECK(find_warning(diag, "differing clock files") != nullptr);
}
