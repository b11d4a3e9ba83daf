// Hostile input, legacy NPKit dump directories: every case of the quality bar's "Bad input" list
// (docs: /work/shared/design/quality-bar.md) that a legacy dump can show, run through the CLI.
// Each case states the exit code and the exact message a user sees; a case that gives a sound
// result exits 0 with a counted warning, one whose result would be wrong exits non-zero naming the
// file. Legacy dumps carry no format version and name each rank's files uniquely, so "a newer
// format version" and "duplicate ranks" apply to .npkt files only (hostile_npkt_test.cpp); the
// legacy analogue of a rank present twice, one dump's GPU files under both naming schemes, is here.
//
// The base dump: two ranks, 1 GHz GPU clock (1 tick = 1 ns), nanosecond CPU ticks; each GPU
// buffer opens with TIME_SYNC_CPU (0x34, host 1,000,000 ns) and TIME_SYNC_GPU (0x33, tick 5,000),
// then one ALL_REDUCE_RING ENTRY (0x01) / EXIT (0x02) pair of 4096 bytes: rank 0 ticks 5,000 to
// 6,000 (1.000 us), rank 1 ticks 5,200 to 6,400 (1.200 us). Records are 16 bytes.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "hostile/hostile_run.hpp"
#include "hostile/memory_limit.hpp"
#include "support/legacy_dump_writer.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

const std::string kClocks =
    "rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n"
    "rank 1 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n";
const std::string kRank0 =
    "rank 0 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=4096 ts=5000 | "
    "0x02 size=4096 ts=6000\n";
const std::string kRank1 =
    "rank 1 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=4096 ts=5200 | "
    "0x02 size=4096 ts=6400\n";

std::string one_warning(const std::string& category, const std::string& message) {
  return "npkit-analyze: 1 warning(s) in 1 categories:\n  1 × " + category + ": " + message + "\n";
}

TEST_CASE("hostile legacy: the base dump is clean", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank0 + kRank1);
  const CliRun run = run_hostile(tmp, {"info", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
  CHECK_THAT(run.out, Catch::Contains("spans         8 records, 2 pairs, 0 unmatched"));
}

TEST_CASE("hostile legacy: a truncated file drops its partial record with a warning", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank0 + "rank 0 gpu 0 tail: 01 02 03\n" + kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  // 4 whole records of 16 bytes, then 3 bytes: the partial record starts at byte 64.
  CHECK(run.err == one_warning("truncated file",
                               "$DIR/dump/gpu_events_rank_0_buf_0: 3 trailing byte(s) at offset "
                               "64 (16-byte records) do not form a whole record and were dropped"));
}

TEST_CASE("hostile legacy: garbage bytes in an event file are counted, never read as spans",
          "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank1);
  // 39 bytes of text: two 16-byte records and 7 trailing bytes. Record 0 has id 'h' (0x68), its
  // timestamp is the bytes "rld, thi"; record 1 has id 's' (0x73) and timestamp " an NPKi". Read
  // little-endian, the top bytes 'i' = 'i', then 'h' (0x68) > 'K' (0x4B): record 1 is earlier.
  tmp.write_file("dump/gpu_events_rank_0_buf_0", "hello world, this is not an NPKit dump\n");
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  const std::string file = "$DIR/dump/gpu_events_rank_0_buf_0";
  CHECK(run.err ==
        "npkit-analyze: 4 warning(s) in 3 categories:\n"
        "  2 × unknown event id: " +
            file +
            ": id 0x68 is not in event table 'nccl' (1 record(s), "
            "read as UNKNOWN_0x68); pick the dump's table with --event-table\n"
            "      " +
            file +
            ": id 0x73 is not in event table 'nccl' (1 record(s), read as "
            "UNKNOWN_0x73); pick the dump's table with --event-table\n"
            "  1 × truncated file: " +
            file +
            ": 7 trailing byte(s) at offset 32 (16-byte records) do "
            "not form a whole record and were dropped\n"
            "  1 × non-monotonic timestamps: " +
            file +
            ": 1 record(s) have a timestamp earlier than "
            "the record before\n");
  const CliRun info = run_hostile(tmp, {"info", "$DIR/dump", "--quiet"});
  CHECK_THAT(info.out, Catch::Contains("spans         6 records, 1 pairs, 0 unmatched"));
}

TEST_CASE("hostile legacy: an unknown event id is counted and named", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank0 + "rank 0 gpu 0: 0x90 size=1 ts=7000\n" + kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err == one_warning("unknown event id",
                               "$DIR/dump/gpu_events_rank_0_buf_0: id 0x90 is not in event table "
                               "'nccl' (1 record(s), read as UNKNOWN_0x90); pick the dump's table "
                               "with --event-table"));
}

TEST_CASE("hostile legacy: ENTRY without EXIT", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank0 + "rank 0 gpu 0: 0x01 size=4096 ts=7000\n" + kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err == one_warning("unmatched events",
                               "$DIR/dump/gpu_events_rank_0_buf_0: 1 ENTRY "
                               "without EXIT, 0 EXIT without ENTRY"));
  const CliRun info = run_hostile(tmp, {"info", "$DIR/dump", "--quiet"});
  CHECK_THAT(info.out, Catch::Contains("spans         9 records, 2 pairs, 1 unmatched"));
}

TEST_CASE("hostile legacy: EXIT without ENTRY", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank0 + "rank 0 gpu 0: 0x02 size=4096 ts=7000\n" + kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err == one_warning("unmatched events",
                               "$DIR/dump/gpu_events_rank_0_buf_0: 0 ENTRY "
                               "without EXIT, 1 EXIT without ENTRY"));
}

TEST_CASE("hostile legacy: zero-length event files read as empty buffers", "[hostile]") {
  TempDir tmp;
  SECTION("one empty buffer beside a full one") {
    write_legacy_dump(tmp, kClocks + kRank0 + "rank 0 gpu 1:\n" + kRank1);
    const CliRun run = run_hostile(tmp, {"info", "$DIR/dump"});
    CHECK(run.exit_code == 0);
    CHECK(run.err.empty());
    CHECK_THAT(run.out, Catch::Contains("spans         8 records, 2 pairs, 0 unmatched"));
    CHECK_THAT(run.out, Catch::Contains("   0           2           0        4      1"));
  }
  SECTION("every event file empty") {
    write_legacy_dump(tmp, kClocks + "rank 0 gpu 0:\nrank 1 gpu 0:\n");
    const CliRun run = run_hostile(tmp, {"info", "$DIR/dump"});
    CHECK(run.exit_code == 0);
    CHECK(run.err.empty());
    CHECK_THAT(run.out, Catch::Contains("spans         0 records, 0 pairs, 0 unmatched"));
  }
}

TEST_CASE("hostile legacy: missing clock files are assumed with a warning per rank and value",
          "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kRank0 + kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err ==
        "npkit-analyze: 4 warning(s) in 1 categories:\n"
        "  4 × missing clock file: rank 0: no usable cpu_clock_period files; assuming nanosecond "
        "ticks (1/1000000000 s, the Linux value)\n"
        "      rank 0: no usable gpu_clock_rate; GPU durations are raw ticks, not nanoseconds\n"
        "      rank 1: no usable cpu_clock_period files; assuming nanosecond ticks (1/1000000000 "
        "s, the Linux value)\n");
}

TEST_CASE("hostile legacy: a buffer without TIME_SYNC stays on the GPU counter, with a warning",
          "[hostile]") {
  TempDir tmp;
  write_legacy_dump(
      tmp, kClocks + "rank 0 gpu 0: 0x01 size=4096 ts=5000 | 0x02 size=4096 ts=6000\n" + kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err == one_warning("no TIME_SYNC events",
                               "$DIR/dump/gpu_events_rank_0_buf_0: no TIME_SYNC_CPU record; GPU "
                               "times stay on the GPU counter (ticks / clock rate) and are not "
                               "aligned with host time"));
}

TEST_CASE("hostile legacy: non-monotonic timestamps are counted", "[hostile]") {
  TempDir tmp;
  // A second pair at ticks 5,500..5,600 after the EXIT at 6,000: one step back.
  write_legacy_dump(tmp, kClocks + kRank0 +
                             "rank 0 gpu 0: 0x01 size=4096 ts=5500 | 0x02 size=4096 ts=5600\n" +
                             kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err == one_warning("non-monotonic timestamps",
                               "$DIR/dump/gpu_events_rank_0_buf_0: 1 record(s) have a timestamp "
                               "earlier than the record before"));
}

TEST_CASE("hostile legacy: a CPU file whose size fits no record size", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank0 + kRank1);
  // 17 bytes: one 16-byte NET_SEND ENTRY (0x2F) record and 1 byte. 17 is no multiple of 16, 18
  // or 22, so detection falls back to 16 and the byte is dropped.
  tmp.write_file("dump/cpu_events_rank_0_channel_0", std::string(17, '\x2f'));
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  const std::string file = "$DIR/dump/cpu_events_rank_0_channel_0";
  CHECK(run.err ==
        "npkit-analyze: 3 warning(s) in 3 categories:\n"
        "  1 × cpu record size: $DIR/dump: CPU event file sizes are not all multiples of 16, 18 or "
        "22 bytes; reading 16-byte records, trailing bytes are dropped\n"
        "  1 × truncated file: " +
            file +
            ": 1 trailing byte(s) at offset 16 (16-byte records) do "
            "not form a whole record and were dropped\n"
            "  1 × unmatched events: " +
            file + ": 1 ENTRY without EXIT, 0 EXIT without ENTRY\n");
}

TEST_CASE("hostile legacy: one rank's GPU files under both naming schemes is an error",
          "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank0 + kRank1);
  tmp.write_file("dump/gpu_events_rank_0_channel_0", "");
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(run.err ==
        "npkit-analyze: error: $DIR/dump: mixes gpu_events_rank_*_buf_* and "
        "gpu_events_rank_*_channel_* files; expected one dump per directory\n");
}

TEST_CASE("hostile legacy: a directory with a rank missing", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + "rank 2 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n" +
                             kRank0 +
                             "rank 2 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=4096 "
                             "ts=5000 | 0x02 size=4096 ts=6000\n");
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err == one_warning("missing ranks", "$DIR/dump: no files for rank(s) 1..1"));
}

TEST_CASE("hostile legacy: one rank's files only: the size is unknown until --nranks says it",
          "[hostile]") {
  // Rank 0 of a 2-rank run: AllReduce of 4096 B in 1.000 us, algbw 4.096 GB/s. nccl-tests'
  // busbw factor 2(n-1)/n is 0 for n = 1 and 1 for n = 2.
  TempDir tmp;
  write_legacy_dump(tmp, "rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n" + kRank0);
  const CliRun guessed = run_hostile(tmp, {"bandwidth", "$DIR/dump"});
  CHECK(guessed.exit_code == 0);
  CHECK(guessed.err ==
        one_warning("communicator size unknown",
                    "$DIR/dump: files of rank 0 only: NPKit dumps do not record the communicator "
                    "size, taken as 1; busbw depends on it (give --nranks N)"));
  const CliRun told = run_hostile(tmp, {"bandwidth", "$DIR/dump", "--nranks", "2"});
  CHECK(told.exit_code == 0);
  CHECK(told.err ==
        one_warning("missing ranks", "$DIR/dump: no files for rank(s) 1..1 (--nranks 2)"));
  CHECK_THAT(told.out, Catch::Contains("n = 2"));
  CHECK_THAT(told.out, Catch::Contains("4.10          4.10"));  // algbw, busbw (GB/s)
  const CliRun too_small = run_hostile(tmp, {"bandwidth", "$DIR/dump", "--nranks", "0"});
  CHECK(too_small.exit_code == 0);  // 0: the default, the highest rank + 1
}

TEST_CASE("hostile legacy: --nranks below a rank with files is an error", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kClocks + kRank0 + kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump", "--nranks", "1"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == "npkit-analyze: error: --nranks 1: $DIR/dump has files of rank 1\n");
}

TEST_CASE("hostile legacy: huge sizes and timestamps never give a negative time", "[hostile]") {
  TempDir tmp;
  // Rank 0's pair: size 0xFFFFFFFF (4 GiB - 1) and an EXIT at tick 2^64 - 1. Read as unsigned
  // ticks the EXIT is the latest possible time: the span saturates at INT64_MAX ns, it does not
  // wrap to 5,001 ticks before its ENTRY.
  write_legacy_dump(tmp, kClocks +
                             "rank 0 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=0xFFFFFFFF "
                             "ts=5000 | 0x02 size=0xFFFFFFFF ts=0xFFFFFFFFFFFFFFFF\n" +
                             kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
  // INT64_MAX - 1,000,000 ns = 9,223,372,036.853775807 s (printed through a double), and rank
  // 1's 1.200 us (0.000 s): no negative time anywhere in the per-rank table.
  const std::size_t table = run.out.find("Per rank (GPU)");
  REQUIRE(table != std::string::npos);
  const std::string per_rank = run.out.substr(table, run.out.find("\n\n", table) - table);
  CHECK_THAT(per_rank, Catch::Contains("   0  9223372036.854"));
  CHECK_THAT(per_rank, Catch::Contains("   1           0.000"));
  CHECK_THAT(per_rank, !Catch::Contains("-"));
}

// A clock file made sparse up to 3 GiB (resize_file: ftruncate) is refused by its size, before
// it is read, under an address-space limit of 100 MB more than the process maps
// (hostile/memory_limit.hpp).
TEST_CASE("hostile legacy: a sparse 3 GiB clock file is a bad clock file, not read", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp,
                    "rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n"
                    "rank 0 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=4096 ts=5000 | "
                    "0x02 size=4096 ts=6000\n");
  std::filesystem::resize_file(tmp.file("dump/gpu_clock_rate_rank_0"), uint64_t{3} << 30);
  const CliRun run = run_hostile_limited(tmp, {"info", "$DIR/dump"});
  CHECK_THAT(run.err, Catch::Contains("bad clock file: $DIR/dump/gpu_clock_rate_rank_0: "
                                      "3221225472 bytes, expected a short text file (at most "
                                      "256 bytes)"));
  CHECK(run.err.find("internal error") == std::string::npos);
}

}  // namespace
}  // namespace npkit::test
