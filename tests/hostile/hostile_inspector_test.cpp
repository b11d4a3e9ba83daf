// Hostile input, NCCL Inspector logs: the cases of tests/data/inspector/hostile (README.md there
// says how each was cut from the durations-only log), run through the CLI with the exit code and
// the message a user sees. A record the reader cannot use is an error naming the file, the line,
// the byte offset where the line starts and what was expected (exit 2); a last line cut short
// while the Inspector was writing it, and a newer minor format, leave the result sound: counted
// warnings (exit 0). Offsets come from the files themselves (the bytes before the line).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "hostile_run.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

// Copies the hostile fixture `name` into tmp and returns its path there.
std::string copy_fixture(const TempDir& tmp, const std::string& name) {
  const fs::path source = fs::path(NPKIT_SOURCE_DIR) / "tests/data/inspector/hostile" / name;
  const std::string target = tmp.file(name);
  fs::copy_file(source, target);
  return target;
}

// The byte offset where line `n` (from 1) of the file starts.
std::size_t line_offset(const std::string& path, int n) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  std::size_t at = 0;
  for (int i = 1; i < n; ++i) at = text.find('\n', at) + 1;
  return at;
}

std::string error_line(const std::string& message) {
  return "npkit-analyze: error: " + message + "\n";
}

}  // namespace

TEST_CASE("hostile inspector: a line cut in the middle of the log is an error", "[hostile]") {
  TempDir tmp;
  const std::string path = copy_fixture(tmp, "truncated_line.log");
  const CliRun run = run_hostile(tmp, {"bandwidth", "$DIR/truncated_line.log"});
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  const std::string where = "npkit-analyze: error: $DIR/truncated_line.log: line 2 (offset " +
                            std::to_string(line_offset(path, 2)) + "): malformed JSON (";
  CHECK(run.err.rfind(where, 0) == 0);
  CHECK(run.err.find("): expected one JSON object per line\n") != std::string::npos);
}

TEST_CASE("hostile inspector: a last line without its newline is dropped with a warning",
          "[hostile]") {
  TempDir tmp;
  const std::string path = copy_fixture(tmp, "truncated_last.log");
  const CliRun run = run_hostile(tmp, {"info", "$DIR/truncated_last.log"});
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("2 record(s)") != std::string::npos);
  CHECK(run.err.find("1 × truncated file: $DIR/truncated_last.log: line 3 (offset " +
                     std::to_string(line_offset(path, 3)) +
                     "): the last line ends without a newline and is not a whole record (") !=
        std::string::npos);
}

TEST_CASE("hostile inspector: a value of the wrong type is an error naming the member",
          "[hostile]") {
  TempDir tmp;
  const std::string path = copy_fixture(tmp, "wrong_type.log");
  const CliRun run = run_hostile(tmp, {"report", "$DIR/wrong_type.log"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        error_line("$DIR/wrong_type.log: line 2 (offset " + std::to_string(line_offset(path, 2)) +
                   "): header.rank: expected an integer, found a string"));
}

TEST_CASE("hostile inspector: a missing member is an error saying what was expected", "[hostile]") {
  TempDir tmp;
  const std::string path = copy_fixture(tmp, "missing_key.log");
  const CliRun run = run_hostile(tmp, {"bandwidth", "$DIR/missing_key.log"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        error_line("$DIR/missing_key.log: line 2 (offset " + std::to_string(line_offset(path, 2)) +
                   "): coll_perf: missing member coll_exec_time_us (expected an integer)"));
}

TEST_CASE("hostile inspector: an unknown format major is refused", "[hostile]") {
  TempDir tmp;
  copy_fixture(tmp, "unknown_version.log");
  const CliRun run = run_hostile(tmp, {"info", "$DIR/unknown_version.log"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        error_line("$DIR/unknown_version.log: line 1 (offset 0): "
                   "metadata.inspector_output_format_version 'v5.0': format major 5 is not known; "
                   "this reader reads v4.x (the NCCL Inspector of NCCL 2.28 to 2.31)"));
}

TEST_CASE("hostile inspector: a newer minor format is read with a warning", "[hostile]") {
  TempDir tmp;
  copy_fixture(tmp, "newer_minor.log");
  const CliRun run = run_hostile(tmp, {"bandwidth", "$DIR/newer_minor.log"});
  CHECK(run.exit_code == 0);
  CHECK(run.err ==
        "npkit-analyze: 1 warning(s) in 1 categories:\n  1 × newer format: "
        "$DIR/newer_minor.log: format v4.4 is newer than v4.3, the newest this reader knows; "
        "members it does not know are ignored\n");
}

TEST_CASE("hostile inspector: a v4.3 dump cut short counts its missing records as lost",
          "[hostile]") {
  // v4_3_cut_dump.log: the dump at line 1 announces 6 coll_perf and 3 proxy_trace records; the
  // file ends after 3 coll_perf.
  TempDir tmp;
  copy_fixture(tmp, "v4_3_cut_dump.log");
  const CliRun run = run_hostile(tmp, {"bandwidth", "$DIR/v4_3_cut_dump.log"});
  CHECK(run.exit_code == 0);
  CHECK(run.err.find("1 × truncated dump: $DIR/v4_3_cut_dump.log: line 1: the dump of comm "
                     "1a2b3c4d5e6f7081 rank 0 announced 3 more coll_perf, 0 p2p_perf and 3 "
                     "proxy_trace record(s) than the log holds; counted as lost\n") !=
        std::string::npos);
  CHECK(run.err.find("6 × records lost: $DIR/v4_3_cut_dump.log: comm 1a2b3c4d5e6f7081 rank 0: "
                     "the Inspector lost 3 collective, 0 Send/Recv and 3 proxy record(s)") !=
        std::string::npos);
}

TEST_CASE("hostile inspector: a v4.3 record outside its dump's counts is an error", "[hostile]") {
  // v4_3_orphan_record.log: a v4.2 dump_stats line (which opens no header-once dump), then a
  // coll_perf record without header and metadata. v4_3_beyond_count.log: the dump announces 1
  // coll_perf record; two follow.
  struct Case {
    const char* file;
    int line;
    const char* what;
  };
  for (const Case& c :
       {Case{"v4_3_orphan_record.log", 2,
             "a coll_perf record without header and metadata: expected it inside a v4.3 dump "
             "(after a dump_stats line with header and metadata), or header and metadata on the "
             "line"},
        Case{"v4_3_beyond_count.log", 3,
             "a coll_perf record beyond the count that the dump at line 1 announced "
             "(dump_stats): expected a dump_stats line or no more coll_perf records"}}) {
    TempDir tmp;
    const std::string path = copy_fixture(tmp, c.file);
    const CliRun run = run_hostile(tmp, {"report", std::string("$DIR/") + c.file});
    CHECK(run.exit_code == 2);
    CHECK(run.err ==
          error_line("$DIR/" + std::string(c.file) + ": line " + std::to_string(c.line) +
                     " (offset " + std::to_string(line_offset(path, c.line)) + "): " + c.what));
  }
}

TEST_CASE("hostile inspector: a directory without an Inspector log is an error", "[hostile]") {
  TempDir tmp;
  tmp.write_file("logs/notes.txt", "not a log\n");
  tmp.write_file("logs/empty.log", "");
  const CliRun run = run_hostile(tmp, {"info", "$DIR/logs"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("npkit-analyze: error: $DIR/logs") == 0);
}

TEST_CASE("hostile inspector: an empty log says what an Inspector log needs", "[hostile]") {
  TempDir tmp;
  tmp.write_file("logs/node-pid1.log", "");
  tmp.write_file("logs/node-pid2.log", "");
  const std::string hint =
      "an NCCL Inspector log stays empty until the Inspector logs an "
      "operation";
  SECTION("a directory of empty logs") {
    const CliRun run = run_hostile(tmp, {"bandwidth", "$DIR/logs"});
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("npkit-analyze: error: $DIR/logs: holds only empty files (node-pid1.log, "
                       "node-pid2.log); " +
                       hint) == 0);
  }
  SECTION("one empty log") {
    const CliRun run = run_hostile(tmp, {"info", "$DIR/logs/node-pid1.log"});
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("npkit-analyze: error: $DIR/logs/node-pid1.log: an empty file; " + hint) ==
          0);
  }
  SECTION("an empty log beside a file that is not empty is not called an Inspector log") {
    tmp.write_file("logs/notes.txt", "not a log\n");
    const CliRun run = run_hostile(tmp, {"info", "$DIR/logs"});
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("empty") == std::string::npos);
  }
}

}  // namespace npkit::test
