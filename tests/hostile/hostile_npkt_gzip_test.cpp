// Hostile input, gzip-compressed .npkt captures (*.npkt.gz): damaged compressed data is an error
// naming the file and the compressed byte where it goes wrong (exit 2, or skipped with
// --skip-bad); a compressed file that decompresses to a bad capture gets the reader's message,
// its offset counted in the decompressed bytes; a decompression bomb stops at the size the
// capture's header gives. Each case damages rank 1 of the two-rank golden capture
// tests/golden/cases/npkt_ring/, compressed.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "hostile/hostile_run.hpp"
#include "hostile/npkt_image.hpp"
#include "support/gzip_bytes.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

const std::string kRank0 = "npkit_00000000c0ffee01_rank0.npkt";
const std::string kRank1Gz = "npkit_00000000c0ffee01_rank1.npkt.gz";

std::string golden(const std::string& name) {
  return read_bytes(
      (fs::path(NPKIT_SOURCE_DIR) / "tests/golden/cases/npkt_ring/dump" / name).string());
}

// tmp/dump holding rank 0 as it is and `rank1_gz` as rank 1's .npkt.gz; returns rank 1's path.
std::string golden_with(const TempDir& tmp, const std::string& rank1_gz) {
  tmp.write_file("dump/" + kRank0, golden(kRank0));
  return tmp.write_file("dump/" + kRank1Gz, rank1_gz);
}

std::string rank1() {
  return golden("npkit_00000000c0ffee01_rank1.npkt");
}

// The error for the bad file of the two-file directory: it names --skip-bad.
std::string dir_error_line(const std::string& message) {
  return "npkit-analyze: error: " + message +
         " (--skip-bad analyzes the other 1 file(s) of $DIR/dump)\n";
}

}  // namespace

TEST_CASE("hostile npkt.gz: compressed data cut short is an error naming where it ends",
          "[hostile]") {
  TempDir tmp;
  const std::string gz = gzip_bytes(rank1());
  const std::size_t cut = gz.size() / 2;
  golden_with(tmp, gz.substr(0, cut));
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(run.err ==
        dir_error_line("$DIR/dump/" + kRank1Gz + ": gzip data cut at compressed byte " +
                       std::to_string(cut) + " (the member that starts at byte 0 is not whole)"));

  // As the only input, and with --skip-bad in the directory: the other rank is analyzed.
  const CliRun alone = run_hostile(tmp, {"info", "$DIR/dump/" + kRank1Gz});
  CHECK(alone.exit_code == 2);
  CHECK(alone.err == "npkit-analyze: error: $DIR/dump/" + kRank1Gz +
                         ": gzip data cut at compressed byte " + std::to_string(cut) +
                         " (the member that starts at byte 0 is not whole)\n");
  const CliRun skip = run_hostile(tmp, {"info", "$DIR/dump", "--skip-bad"});
  CHECK(skip.exit_code == 0);
  CHECK(skip.err.find("unreadable file skipped (--skip-bad): $DIR/dump/" + kRank1Gz +
                      ": gzip data cut at compressed byte ") != std::string::npos);
}

TEST_CASE("hostile npkt.gz: a .gz that is not gzip, or empty, is an error saying so", "[hostile]") {
  TempDir tmp;
  golden_with(tmp, rank1());  // renamed, never compressed
  CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == dir_error_line("$DIR/dump/" + kRank1Gz +
                                  ": not a gzip file (offset 0: expected the gzip magic 1f 8b, "
                                  "found 4e 50)"));
  golden_with(tmp, "");
  run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == dir_error_line("$DIR/dump/" + kRank1Gz +
                                  ": not a gzip file (offset 0: expected the gzip magic 1f 8b, "
                                  "the data has only 0 byte(s))"));
}

TEST_CASE("hostile npkt.gz: corrupt compressed data or trailing bytes are errors", "[hostile]") {
  TempDir tmp;
  const std::string gz = gzip_bytes(rank1());
  std::string bad_crc = gz;
  bad_crc[gz.size() - 6] ^= 0x01;
  golden_with(tmp, bad_crc);
  CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Catch::StartsWith("npkit-analyze: error: $DIR/dump/" + kRank1Gz +
                                        ": corrupt gzip data at compressed byte ") &&
                          Catch::Contains(": incorrect data check (--skip-bad"));

  golden_with(tmp, gz + "tar padding is zeros, not this");
  run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == dir_error_line("$DIR/dump/" + kRank1Gz +
                                  ": expected another gzip member (1f 8b) or the end of the data "
                                  "at compressed byte " +
                                  std::to_string(gz.size()) + ", found 74 61"));

  // Zeros after the member (a tape's or tar's padding) are ignored, as gzip does.
  golden_with(tmp, gz + std::string(10240, '\0'));
  run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
}

TEST_CASE("hostile npkt.gz: a bad capture inside good gzip gets the reader's message",
          "[hostile]") {
  TempDir tmp;
  std::string bytes = rank1();
  const std::uint64_t size = bytes.size();
  golden_with(tmp, gzip_bytes(bytes.substr(0, 1000)));
  CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        dir_error_line("$DIR/dump/" + kRank1Gz + ": offset 1000: truncated: header says " +
                       std::to_string(size) + " bytes, file has 1000"));

  golden_with(tmp, gzip_bytes(std::string(600, '\xA7')));
  run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == dir_error_line("$DIR/dump/" + kRank1Gz +
                                  ": offset 0: expected the magic \"NPKTDUMP\" of an npkit dump "
                                  "(.npkt)"));
}

TEST_CASE("hostile npkt.gz: a decompression bomb stops at the size its header gives", "[hostile]") {
  TempDir tmp;
  // The capture followed by 64 MiB of zeros: ~64 KiB compressed.
  const std::string bytes = rank1();
  const std::string bomb = gzip_bytes(bytes + std::string(std::size_t{64} << 20, '\0'), 9);
  REQUIRE(bomb.size() < std::size_t{256} << 10);
  golden_with(tmp, bomb);
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == dir_error_line("$DIR/dump/" + kRank1Gz + ": decompresses past " +
                                  std::to_string(bytes.size()) +
                                  " bytes, the file_size its npkt header gives (offset 24); no "
                                  "capture is larger"));
}

}  // namespace npkit::test
