// Hostile input, memory bombs: a small or sparse file that asks for gigabytes. Each case runs the
// CLI in a child process whose address space is limited to what it maps plus 100 MB
// (memory_limit.hpp), so a reader that sized anything by what the file claims, or read a sparse
// file whole, runs out of memory there instead of answering. The answer is an error naming the
// file and what it claims, or, for a file whose claim is consistent but too large for the limit,
// "out of memory reading <file>". Under AddressSanitizer/ThreadSanitizer no limit can be set
// (their shadow memory): there the cases check the message and the exit code only, and the one
// that needs the limit to run out of memory is not run.
//
// Sizes: a sparse file is made with resize_file (ftruncate) to 3 GiB = 3,221,225,472 bytes; it
// takes a few KB on disk.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "hostile/memory_limit.hpp"
#include "hostile/npkt_image.hpp"
#include "support/gzip_bytes.hpp"
#include "support/npkt_spec.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kThreeGiB = uint64_t{3} << 30;
const std::string kFile = "dump/npkit_000000000000bad1_rank0.npkt";

std::string comm_line(const std::string& nranks) {
  return "comm hash=0xbad1 rank=0 nranks=" + nranks +
         " start_ns=1700000000000000000 end_ns=1700000000001000000 clock_method=1 "
         "event_mask=4095\n";
}

// One AllReduce with one KernelCh (as hostile_npkt_test.cpp's record-level base).
const std::string kRecords =
    "names standard\n"
    "clock init before=1700000000000000000 after=1700000000000000000 gpu=1700000000000100000\n"
    "clock end before=1700000000000900000 after=1700000000000900000 gpu=1700000000001000000\n"
    "start 1 Coll host=1700000000000010000 seq=0 count=1024 func=AllReduce "
    "datatype=ncclFloat32 algo=RING proto=SIMPLE channels=1 warps=8\n"
    "stop 1 Coll host=1700000000000011000\n"
    "start 2 KernelCh host=1700000000000030000 parent=1 gpu_start=1700000000000120000 "
    "channel=0\n"
    "state 2 KernelCh host=1700000000000040000 state=22 value=1700000000000130000\n"
    "stop 2 KernelCh host=1700000000000040100\n";

std::string error_line(const std::string& message) {
  return "npkit-analyze: error: " + message + "\n";
}

TEST_CASE("hostile limits: nranks = 2^25 in a 1 KB .npkt is refused, naming the field",
          "[hostile]") {
  TempDir tmp;
  write_npkt_spec(tmp, comm_line("33554432") + kRecords);
  const std::string bytes = read_bytes(tmp.file(kFile));
  CHECK(bytes.size() < 2048);
  // CommunicatorInfo: comm_hash (8 bytes), rank (4), then nranks at byte 12 of the payload.
  const size_t nranks_at = section_header_offset(bytes, 1) + 16 + 12;
  const CliRun run = run_hostile_limited(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == error_line("$DIR/" + kFile + ": offset " + std::to_string(nranks_at) +
                              ": Communicator section: nranks 33554432: expected 0 to 1048576 "
                              "(the largest communicator npkit-analyze reads)"));
}

TEST_CASE("hostile limits: a rank beyond nranks is refused", "[hostile]") {
  TempDir tmp;
  write_npkt_spec(tmp, "comm hash=0xbad1 rank=5 nranks=2 start_ns=1700000000000000000\n" + kRecords,
                  "dump");
  const std::string path = "dump/npkit_000000000000bad1_rank5.npkt";
  const std::string bytes = read_bytes(tmp.file(path));
  const size_t rank_at = section_header_offset(bytes, 1) + 16 + 8;
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == error_line("$DIR/" + path + ": offset " + std::to_string(rank_at) +
                              ": Communicator section: rank 5: expected -1 (unknown) or 0 to 1"));
}

TEST_CASE("hostile limits: a .npkt made sparse up to 3 GiB is refused before it is read",
          "[hostile]") {
  TempDir tmp;
  write_npkt_spec(tmp, comm_line("1") + kRecords);
  const uint64_t size = fs::file_size(tmp.file(kFile));
  fs::resize_file(tmp.file(kFile), kThreeGiB);
  const CliRun run = run_hostile_limited(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == error_line("$DIR/" + kFile + ": offset " + std::to_string(size) +
                              ": expected the end of the file (header says " +
                              std::to_string(size) + " bytes), the file has 3221225472"));
}

TEST_CASE("hostile limits: a capture too large for the memory given is 'out of memory reading'",
          "[hostile]") {
  // Needs the address-space limit to run out of memory (see the file's comment).
  if (!kAddressSpaceLimited) {
    SUCCEED("not run under a sanitizer: no address-space limit can be set");
    return;
  }
  TempDir tmp;
  write_npkt_spec(tmp, comm_line("1") + kRecords);
  // A header that claims the 3 GiB the sparse file has: consistent, so it is read, and reading
  // 3 GiB does not fit in 100 MB.
  std::string bytes = read_bytes(tmp.file(kFile));
  patch_le(bytes, 24, kThreeGiB, 8);
  write_bytes(tmp.file(kFile), bytes);
  fs::resize_file(tmp.file(kFile), kThreeGiB);
  const CliRun run = run_hostile_limited(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == error_line("out of memory reading $DIR/" + kFile));
}

TEST_CASE("hostile limits: a --merge trace too large for the memory given is named", "[hostile]") {
  if (!kAddressSpaceLimited) {  // needs the limit to run out of memory
    SUCCEED("not run under a sanitizer: no address-space limit can be set");
    return;
  }
  TempDir tmp;
  write_npkt_spec(tmp, comm_line("1") + kRecords);
  tmp.write_file("torch.json", "{");
  fs::resize_file(tmp.file("torch.json"), uint64_t{2} << 30);
  const CliRun run = run_hostile_limited(
      tmp, {"trace", "$DIR/dump", "--merge", "$DIR/torch.json", "-o", "$DIR/out.json"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == error_line("out of memory reading --merge $DIR/torch.json"));
}

TEST_CASE("hostile limits: 65,537 empty metadata entries in a .npkt.gz are refused", "[hostile]") {
  TempDir tmp;
  std::string spec = comm_line("1");
  for (int i = 0; i <= 65536; ++i) spec += "meta k\n";
  write_npkt_spec(tmp, spec + kRecords);
  const std::string bytes = read_bytes(tmp.file(kFile));
  // Each entry: an 8-byte MetadataEntry {key_size, value_size} and the key "k": 9 bytes.
  const size_t entry_65537 = section_header_offset(bytes, 2) + 16 + 9 * 65536;
  write_bytes(tmp.file(kFile + ".gz"), gzip_bytes(bytes));
  fs::remove(tmp.file(kFile));
  const CliRun run = run_hostile_limited(tmp, {"report", "$DIR/dump"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == error_line("$DIR/" + kFile + ".gz: offset " + std::to_string(entry_65537) +
                              ": Metadata section: more than 65536 entries; expected at most "
                              "that many (a capture writes a few dozen)"));
}

TEST_CASE("hostile limits: an NCCL example-plugin trace with Rank 2000000000 is refused",
          "[hostile]") {
  TempDir tmp;
  std::string trace = read_bytes(std::string(NPKIT_SOURCE_DIR) +
                                 "/tests/fuzz/corpus/chrome_json/seed_nccl_example");
  REQUIRE(trace.size() < 2048);
  const size_t first = trace.find("\"Rank\": 1,");
  REQUIRE(first != std::string::npos);
  for (size_t at = first; at != std::string::npos; at = trace.find("\"Rank\": 1,", at)) {
    trace.replace(at, 10, "\"Rank\": 2000000000,");
  }
  const size_t event = trace.rfind("\n{", first) + 1;  // the event's line
  write_bytes(tmp.file("trace.json"), trace);
  const CliRun run = run_hostile_limited(tmp, {"report", "$DIR/trace.json"});
  CHECK(run.exit_code == 2);
  CHECK(run.err == error_line("$DIR/trace.json: offset " + std::to_string(event) +
                              ": \"Rank\": 2000000000: expected 0 to 1048575 (the largest "
                              "communicator npkit-analyze reads has 1048576 ranks)"));
}

TEST_CASE("hostile limits: a sparse 3 GiB ENV.txt is refused (--env) or ignored (found)",
          "[hostile]") {
  TempDir tmp;
  write_npkt_spec(tmp, comm_line("1") + kRecords);
  tmp.write_file("ENV.txt", "NCCL_ALGO=Ring\n");
  fs::resize_file(tmp.file("ENV.txt"), kThreeGiB);
  const CliRun named = run_hostile_limited(tmp, {"info", "$DIR/dump", "--env", "$DIR/ENV.txt"});
  CHECK(named.exit_code == 2);
  CHECK(named.err == error_line("$DIR/ENV.txt: 3221225472 bytes, expected a short text file (at "
                                "most 1048576 bytes)"));
  // Found beside the dump's directory rather than named: passed over with a note.
  const CliRun found = run_hostile_limited(tmp, {"info", "$DIR/dump"});
  CHECK(found.exit_code == 0);
  CHECK_THAT(found.err, Catch::Contains("environment file ignored: $DIR/ENV.txt: not read: "
                                        "3221225472 bytes, more than an environment file's "
                                        "1048576 (--env FILE reads a file you trust)"));
  CHECK(found.out.find("ENV.txt") == std::string::npos);
}

TEST_CASE("hostile limits: sparse 3 GiB nccl-tests and summary JSON are refused by size",
          "[hostile]") {
  TempDir tmp;
  tmp.write_file("results.json", "{\"version\": 1, \"start_time\": \"x\"");
  fs::resize_file(tmp.file("results.json"), kThreeGiB);
  const CliRun results = run_hostile_limited(tmp, {"report", "$DIR/results.json"});
  CHECK(results.exit_code == 2);
  CHECK_THAT(results.err, Catch::Contains("$DIR/results.json: 3221225472 bytes; an nccl-tests "
                                          "results file is at most 67108864 bytes"));
  tmp.write_file("summary.json", "{\"schema\": \"npkit-summary\"");
  fs::resize_file(tmp.file("summary.json"), kThreeGiB);
  const CliRun summary =
      run_hostile_limited(tmp, {"diff", "$DIR/summary.json", "$DIR/summary.json"});
  CHECK(summary.exit_code == 2);
  CHECK_THAT(summary.err, Catch::Contains("$DIR/summary.json: 3221225472 bytes; an npkit "
                                          "summary is at most 1073741824 bytes"));
}

}  // namespace
}  // namespace npkit::test
