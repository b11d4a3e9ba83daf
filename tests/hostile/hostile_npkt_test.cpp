// Hostile input, .npkt dumps (format v1): every case of the quality bar's "Bad input" list, run
// through the CLI with the exit code and the exact message a user sees. A file the reader cannot
// read whole is an error naming the file and the byte offset (exit 2); conditions that leave the
// result sound are counted warnings (exit 0).
//
// File-level cases corrupt a copy of the two-rank golden capture tests/golden/cases/npkt_ring/
// (its spec lists every record); offsets come from the file's own section table, walked by
// npkt_image.hpp. Record-level cases write one rank from a spec (support/npkt_spec.hpp) whose
// base is one AllReduce with one KernelCh, clock offset GPU - host = 100,000 ns: GPU span host
// 20,000..30,000 ns (10 us) after the base time B = 1,700,000,000,000,000,000.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "hostile/hostile_run.hpp"
#include "hostile/npkt_image.hpp"
#include "support/npkt_spec.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

const std::string kRank0 = "npkit_00000000c0ffee01_rank0.npkt";
const std::string kRank1 = "npkit_00000000c0ffee01_rank1.npkt";

// Copies the golden two-rank capture into tmp/dump and returns that directory.
std::string copy_golden(const TempDir& tmp) {
  const fs::path source = fs::path(NPKIT_SOURCE_DIR) / "tests/golden/cases/npkt_ring/dump";
  const std::string dir = tmp.make_dir("dump");
  for (const std::string& name : {kRank0, kRank1}) {
    fs::copy_file(source / name, fs::path(dir) / name);
  }
  return dir;
}

std::string error_line(const std::string& message) {
  return "npkit-analyze: error: " + message + "\n";
}

// The error for a bad file of the two-file directory: it names --skip-bad.
std::string dir_error_line(const std::string& message) {
  return error_line(message + " (--skip-bad analyzes the other 1 file(s) of $DIR/dump)");
}

std::string one_warning(const std::string& category, const std::string& message) {
  return "npkit-analyze: 1 warning(s) in 1 categories:\n  1 × " + category + ": " + message + "\n";
}

TEST_CASE("hostile npkt: a truncated file is an error naming the file and where it ends",
          "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  const std::string path = dir + "/" + kRank1;
  const uint64_t size = fs::file_size(path);
  fs::resize_file(path, 1000);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(run.err == dir_error_line("$DIR/dump/" + kRank1 + ": offset 1000: truncated: header says " +
                                  std::to_string(size) + " bytes, file has 1000"));
}

TEST_CASE("hostile npkt: garbage bytes are an error at offset 0", "[hostile]") {
  TempDir tmp;
  copy_golden(tmp);
  tmp.write_file("dump/" + kRank1, std::string(600, '\xA7'));
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == dir_error_line("$DIR/dump/" + kRank1 +
                                  ": offset 0: expected the magic \"NPKTDUMP\" of an npkit dump "
                                  "(.npkt)"));
}

TEST_CASE("hostile npkt: a zero-length file is an error", "[hostile]") {
  TempDir tmp;
  copy_golden(tmp);
  tmp.write_file("dump/" + kRank1, "");
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        dir_error_line("$DIR/dump/" + kRank1 +
                       ": offset 0: expected the 8-byte magic \"NPKTDUMP\", the file has "
                       "only 0 bytes"));
}

TEST_CASE("hostile npkt: a newer major format version is refused", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  std::string bytes = read_bytes(dir + "/" + kRank1);
  patch_le(bytes, 8, 2, 2);  // u16 major at offset 8
  write_bytes(dir + "/" + kRank1, bytes);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        dir_error_line("$DIR/dump/" + kRank1 +
                       ": offset 8: was written by a newer npkit (format 2.x); this reader "
                       "knows 1.x"));
}

TEST_CASE("hostile npkt: a record size other than 64 bytes is an error", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  std::string bytes = read_bytes(dir + "/" + kRank1);
  const size_t records = section_header_offset(bytes, 7);  // ProfilerRecords
  REQUIRE(records != std::string::npos);
  REQUIRE(read_le(bytes, records + 4, 4) == 64);
  patch_le(bytes, records + 4, 48, 4);
  write_bytes(dir + "/" + kRank1, bytes);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        dir_error_line("$DIR/dump/" + kRank1 + ": offset " + std::to_string(records + 4) +
                       ": ProfilerRecords section: entry_size 48: expected at least 64 bytes per "
                       "entry"));
}

TEST_CASE("hostile npkt: a huge section size is an error, not an allocation", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  std::string bytes = read_bytes(dir + "/" + kRank1);
  const size_t metadata = section_header_offset(bytes, 2);
  REQUIRE(metadata != std::string::npos);
  patch_le(bytes, metadata + 8, uint64_t{1} << 62, 8);
  write_bytes(dir + "/" + kRank1, bytes);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  const uint64_t left = bytes.size() - (metadata + 16);
  CHECK(run.err ==
        dir_error_line("$DIR/dump/" + kRank1 + ": offset " + std::to_string(metadata + 8) +
                       ": Metadata section: payload_size 4611686018427387904 runs past the "
                       "end of the file (" +
                       std::to_string(left) + " bytes left after the section header)"));
}

TEST_CASE("hostile npkt: the same rank in two files is an error naming both", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  fs::copy_file(dir + "/" + kRank0, dir + "/npkit_00000000c0ffee01_rank0_copy.npkt");
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == error_line("$DIR/dump/" + kRank0 +
                              " and $DIR/dump/npkit_00000000c0ffee01_rank0_copy.npkt both hold "
                              "rank 0 of communicator 00000000c0ffee01: expected one file per "
                              "rank (a copy, or a file planted in a shared directory?); move one "
                              "away, or give one file as the input"));
}

TEST_CASE("hostile npkt: a rank missing from the directory", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  fs::remove(dir + "/" + kRank1);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.out,
             Catch::Contains("comm 00000000c0ffee01 (train), 1 of 2 rank(s); rank(s) 1 absent\n"));
}

// ---- Record-level cases: one rank written from a spec ----

const std::string kHeader =
    "comm hash=0xbad1 rank=0 nranks=1 start_ns=1700000000000000000 "
    "end_ns=1700000000001000000 clock_method=1 event_mask=4095\n"
    "meta hostname node0\n"
    "names standard\n"
    "thread 0 1000 python\n";
const std::string kClocks =
    "clock init before=1700000000000000000 after=1700000000000000000 gpu=1700000000000100000\n"
    "clock end before=1700000000000900000 after=1700000000000900000 gpu=1700000000001000000\n";
const std::string kColl =
    "start 1 Coll host=1700000000000010000 seq=0 count=1024 func=AllReduce "
    "datatype=ncclFloat32 algo=RING proto=SIMPLE channels=1 warps=8\n"
    "stop 1 Coll host=1700000000000011000\n";
const std::string kKernel =
    "start 2 KernelCh host=1700000000000030000 parent=1 gpu_start=1700000000000120000 "
    "channel=0\n"
    "state 2 KernelCh host=1700000000000040000 state=22 value=1700000000000130000\n"
    "stop 2 KernelCh host=1700000000000040100\n";

TEST_CASE("hostile npkt: the record-level base capture is clean", "[hostile]") {
  TempDir tmp;
  write_npkt_spec(tmp, kHeader + kClocks + kColl + kKernel);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
  CHECK_THAT(run.out, Catch::Contains("   0  AllReduce           1      1  10.00 us  10.00 us"));
}

// `info` lists per file what the analysis leaves out; `report` gives the same result as for the
// base capture wherever the anomaly does not touch the numbers.
std::string info_line(const CliRun& run, const std::string& start) {
  const size_t at = run.out.find("\n" + start);
  if (at == std::string::npos) return "(no line starting with '" + start + "')";
  return run.out.substr(at + 1, run.out.find('\n', at + 1) - at - 1);
}

TEST_CASE("hostile npkt: events of a type the reader does not know", "[hostile]") {
  TempDir tmp;
  // Type 15, the last the 4 bits of a handle carry, is KernelPhase since format minor 4; one with
  // no KernelCh parent and a zero payload is kept as an event, outside every analysis (the
  // AllReduce's time is its KernelCh's alone). Type 20 cannot come from the plugin: skipped,
  // warned.
  const std::string spec = kHeader + kClocks + kColl + kKernel +
                           "start 3 15 host=1700000000000050000\n"
                           "stop 3 15 host=1700000000000051000\n"
                           "start 4 20 host=1700000000000052000\n";
  write_npkt_spec(tmp, spec);
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(report.exit_code == 0);
  // The type-20 start is the last of the 8 records, and ProfilerRecords is the file's last
  // section: the record starts 64 bytes before the end of the file.
  const uint64_t size = fs::file_size(tmp.file("dump/npkit_000000000000bad1_rank0.npkt"));
  CHECK(report.err == one_warning("npkt reader",
                                  "$DIR/dump/npkit_000000000000bad1_rank0.npkt: 1 record(s) of an "
                                  "unknown kind (> 4) or event type (> 15) skipped; first at "
                                  "offset " +
                                      std::to_string(size - 64) + ": kind 1, type 20"));
  CHECK_THAT(report.out, Catch::Contains("   0  AllReduce           1      1  10.00 us  10.00 us"));
  const CliRun info = run_hostile(tmp, {"info", "$DIR/dump", "--quiet"});
  CHECK(info_line(info, "  events") == "  events        Coll 1, KernelCh 1, KernelPhase 1");
}

TEST_CASE("hostile npkt: ENTRY without EXIT", "[hostile]") {
  TempDir tmp;
  // A second KernelCh of the AllReduce (channel 1) that never stops: the collective has no GPU
  // span (its channels did not all finish), so it is counted but not timed.
  write_npkt_spec(tmp, kHeader + kClocks + kColl + kKernel +
                           "start 5 KernelCh host=1700000000000060000 parent=1 "
                           "gpu_start=1700000000000150000 channel=1\n");
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(report.exit_code == 0);
  CHECK(report.err.empty());
  CHECK_THAT(report.out, Catch::Contains("   0  AllReduce           1      0  -      -"));
  const CliRun info = run_hostile(tmp, {"info", "$DIR/dump", "--quiet"});
  CHECK(info_line(info, "  never stopped") == "  never stopped KernelCh 1");
  CHECK(info_line(info, "  KernelCh") ==
        "  KernelCh      2 events, 1 without a start or stop timestamp, 0 stale");
}

TEST_CASE("hostile npkt: EXIT without ENTRY", "[hostile]") {
  TempDir tmp;
  write_npkt_spec(tmp, kHeader + kClocks + kColl + kKernel +
                           "stop 99 Coll host=1700000000000061000\n"
                           "state 98 KernelCh host=1700000000000061000 state=22 value=5\n");
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(report.exit_code == 0);
  CHECK(report.err.empty());
  CHECK_THAT(report.out, Catch::Contains("   0  AllReduce           1      1  10.00 us  10.00 us"));
  const CliRun info = run_hostile(tmp, {"info", "$DIR/dump", "--quiet"});
  // (The line wraps at 120 columns: its first part.)
  CHECK_THAT(info_line(info, "  unmatched"),
             Catch::StartsWith("  unmatched     1 stop(s) and 1 state(s) of ids never started, 0 "
                               "double stop(s) (NCCL's stale handle, ignored)"));
}

TEST_CASE("hostile npkt: missing clock samples", "[hostile]") {
  TempDir tmp;
  SECTION("none: the offset is estimated from KernelCh and said to be an upper bound") {
    // KernelCh start seen by the host at 30,000 ns for GPU 120,000: offset at most 90 us.
    write_npkt_spec(tmp, kHeader + kColl + kKernel);
    const CliRun info = run_hostile(tmp, {"info", "$DIR/dump"});
    CHECK(info.exit_code == 0);
    CHECK(info.err.empty());
    CHECK(info_line(info, "  clock") ==
          "  clock         estimated from 1 KernelCh observations (upper bound, proxy polling "
          "lag): GPU - host = 90.000 us");
  }
  SECTION("no end sample: one offset, no drift") {
    write_npkt_spec(tmp, kHeader +
                             "clock init before=1700000000000000000 after=1700000000000000000 "
                             "gpu=1700000000000100000\n" +
                             kColl + kKernel);
    const CliRun info = run_hostile(tmp, {"info", "$DIR/dump"});
    CHECK(info.exit_code == 0);
    CHECK(info.err.empty());
    CHECK(info_line(info, "  clock") ==
          "  clock         offset from 1 clock sample: GPU - host = 100.000 us ± 0.000 us");
  }
}

TEST_CASE("hostile npkt: timestamps that go backwards", "[hostile]") {
  TempDir tmp;
  SECTION("a KernelCh that stops before it starts is stale, left out and warned") {
    write_npkt_spec(tmp, kHeader + kClocks + kColl +
                             "start 2 KernelCh host=1700000000000030000 parent=1 "
                             "gpu_start=1700000000000120000 channel=0\n"
                             "state 2 KernelCh host=1700000000000040000 state=22 "
                             "value=1700000000000110000\n"
                             "stop 2 KernelCh host=1700000000000040100\n");
    const CliRun report = run_hostile(tmp, {"report", "$DIR/dump"});
    CHECK(report.exit_code == 0);
    CHECK(report.err ==
          one_warning("stale KernelCh timestamps",
                      "$DIR/dump/npkit_000000000000bad1_rank0.npkt: 1 of 1 KernelCh events carry "
                      "timestamps of another work item (NCCL ring desynchronisation) and are left "
                      "out of GPU spans (AllReduce 1 of 1); 1 operation(s) with a stale channel "
                      "are reported without GPU time (an operation is timed only when all its "
                      "channels are)"));
    CHECK_THAT(report.out, Catch::Contains("   0  AllReduce           1      0  -      -"));
  }
  SECTION("a huge GPU start and a zero stop are no timestamps") {
    write_npkt_spec(tmp, kHeader + kClocks + kColl +
                             "start 2 KernelCh host=1700000000000030000 parent=1 "
                             "gpu_start=0xFFFFFFFFFFFFFFFF channel=0\n"
                             "state 2 KernelCh host=1700000000000040000 state=22 value=0\n"
                             "stop 2 KernelCh host=1700000000000040100\n");
    const CliRun info = run_hostile(tmp, {"info", "$DIR/dump", "--quiet"});
    CHECK(info.exit_code == 0);
    CHECK(info_line(info, "  KernelCh") ==
          "  KernelCh      1 events, 1 without a start or stop timestamp, 0 stale");
  }
}

// ---- A directory with 10 % of its files damaged: stop, or skip them with --skip-bad ----

// Ten ranks of one communicator, each one AllReduce timed 10 us by one KernelCh.
std::string ten_ranks() {
  std::string spec;
  for (int rank = 0; rank < 10; ++rank) {
    spec += "comm hash=0x5eb rank=" + std::to_string(rank) +
            " nranks=10 start_ns=1700000000000000000 end_ns=1700000000001000000 clock_method=1 "
            "event_mask=4095\n"
            "meta hostname node0\nnames standard\nthread 0 1000 python\n" +
            kClocks + kColl + kKernel;
  }
  return spec;
}

TEST_CASE("hostile npkt: one damaged file of ten stops the analysis and names --skip-bad",
          "[hostile]") {
  TempDir tmp;
  const std::string dir = write_npkt_spec(tmp, ten_ranks());
  const std::string bad = dir + "/npkit_00000000000005eb_rank7.npkt";
  fs::resize_file(bad, 1000);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err,
             Catch::StartsWith("npkit-analyze: error: $DIR/dump/npkit_00000000000005eb_rank7.npkt: "
                               "offset 1000: truncated: header says ") &&
                 Catch::EndsWith(" bytes, file has 1000 (--skip-bad analyzes the other 9 file(s) "
                                 "of $DIR/dump)\n"));
}

TEST_CASE("hostile npkt: --skip-bad reports the damaged file and analyzes the other nine",
          "[hostile]") {
  TempDir tmp;
  const std::string dir = write_npkt_spec(tmp, ten_ranks());
  const std::string bad = dir + "/npkit_00000000000005eb_rank7.npkt";
  fs::resize_file(bad, 1000);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump", "--skip-bad"});
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("9 file(s), 1 communicator(s)") &&
                          Catch::Contains("9 of 10 rank(s); rank(s) 7 absent") &&
                          Catch::Contains("   9  AllReduce           1      1  10.00 us"));
  CHECK_THAT(run.err, Catch::Contains("1 × unreadable file skipped (--skip-bad): "
                                      "$DIR/dump/npkit_00000000000005eb_rank7.npkt: offset 1000: "
                                      "truncated"));
}

TEST_CASE("hostile npkt: --skip-bad with every file damaged is an error", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  fs::resize_file(dir + "/" + kRank0, 1000);
  fs::resize_file(dir + "/" + kRank1, 1000);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump", "--skip-bad"});
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Catch::StartsWith("npkit-analyze: error: no readable .npkt file in "
                                        "$DIR/dump: all 2 skipped (--skip-bad); the first: "
                                        "$DIR/dump/" +
                                        kRank0 + ": offset 1000: truncated"));
}

// Rank 1's file made into a live file as a process killed mid-record leaves it: feature bit 3, room
// for 100 more records claimed by payload_size and file_size, and the bytes cut 30 bytes into the
// record after its last one (ProfilerRecords is the file's last section).
std::string make_live_cut(const std::string& path) {
  std::string bytes = read_bytes(path);
  const size_t records = section_header_offset(bytes, 7);
  REQUIRE(records != std::string::npos);
  REQUIRE(records + 16 + read_le(bytes, records + 8, 8) == bytes.size());
  patch_le(bytes, 32, read_le(bytes, 32, 8) | 8, 8);  // feature_bits |= live
  patch_le(bytes, 24, bytes.size() + 100 * 64, 8);    // file_size
  patch_le(bytes, records + 8, read_le(bytes, records + 8, 8) + 100 * 64, 8);
  bytes += std::string(30, '\x11');  // a record being written when the process died
  write_bytes(path, bytes);
  return bytes;
}

TEST_CASE("hostile npkt: a live file cut inside a record reads its whole records", "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  const std::string whole = read_bytes(dir + "/" + kRank1);
  make_live_cut(dir + "/" + kRank1);
  const CliRun live = run_hostile(tmp, {"info", "$DIR/dump/" + kRank1});
  INFO(live.err);
  CHECK(live.exit_code == 0);
  CHECK(live.err.find("live file: no dump was written (the process was killed, crashed or called "
                      "_exit, or is still running)") != std::string::npos);
  // The same records as the whole file: the bandwidth of the two ranks is unchanged.
  const CliRun from_live = run_hostile(tmp, {"bandwidth", "$DIR/dump"});
  fs::remove(dir + "/" + kRank1);
  write_bytes(dir + "/" + kRank1, whole);
  const CliRun from_whole = run_hostile(tmp, {"bandwidth", "$DIR/dump"});
  CHECK(from_live.exit_code == 0);
  CHECK(from_live.out == from_whole.out);
}

TEST_CASE("hostile npkt: a live file cut before its records is an error naming the section",
          "[hostile]") {
  TempDir tmp;
  const std::string dir = copy_golden(tmp);
  const std::string bytes = make_live_cut(dir + "/" + kRank1);
  const size_t metadata = section_header_offset(bytes, 2);
  REQUIRE(metadata != std::string::npos);
  write_bytes(dir + "/" + kRank1, bytes.substr(0, metadata + 20));
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("$DIR/dump/" + kRank1 + ": offset " + std::to_string(metadata + 8) +
                     ": Metadata section: payload_size") != std::string::npos);
}

}  // namespace
}  // namespace npkit::test
