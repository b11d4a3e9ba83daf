// Hostile text: names inside an input (a hostname, a communicator name, a file name) that carry
// terminal escape sequences. No command may print them raw, on standard output or in its
// messages: text, Markdown and CSV write each control byte as "\xNN", JSON as "\u00XX". The
// capture is the committed two-rank ring (tests/golden/cases/npkt_ring/dump) with its hostname
// "node0" made ESC [ 3 1 m (red text) and its communicator name "train" made ESC ] 0 ; BEL (set
// the window title), each the same length, so nothing else in the file moves.
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "hostile/hostile_run.hpp"
#include "hostile/npkt_image.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

const std::string kRed = "\x1b[31m";
const std::string kTitle = "\x1b]0;\x07";

// The value that follows `key` in a capture's metadata, replaced by `value` of the same length.
void replace_after(std::string& bytes, const std::string& key, const std::string& old_value,
                   const std::string& value) {
  const size_t at = bytes.find(old_value, bytes.find(key));
  REQUIRE(at != std::string::npos);
  REQUIRE(old_value.size() == value.size());
  bytes.replace(at, value.size(), value);
}

std::string hostile_dump(const TempDir& tmp) {
  const std::string dump = tmp.make_dir("dump");
  for (const auto& entry :
       fs::directory_iterator(source_path("tests/golden/cases/npkt_ring/dump"))) {
    std::string bytes = read_bytes(entry.path().string());
    replace_after(bytes, "hostname", "node0", kRed);
    replace_after(bytes, "comm_name", "train", kTitle);
    write_bytes(dump + "/" + entry.path().filename().string(), bytes);
  }
  return dump;
}

bool has_control(const std::string& text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7F) return true;
  }
  return false;
}

TEST_CASE("hostile text: an escape sequence in a hostname never reaches the terminal raw",
          "[hostile]") {
  TempDir tmp;
  hostile_dump(tmp);
  const std::vector<std::vector<std::string>> text_commands = {
      {"info", "$DIR/dump"},
      {"report", "$DIR/dump"},
      {"report", "$DIR/dump", "--format", "md"},
      {"report", "$DIR/dump", "--format", "csv"},
  };
  for (const std::vector<std::string>& args : text_commands) {
    const CliRun run = run_hostile(tmp, args);
    INFO(args.front() << " " << args.back() << "\n" << run.out << run.err);
    CHECK(run.exit_code == 0);
    CHECK_FALSE(has_control(run.out));
    CHECK_FALSE(has_control(run.err));
    CHECK_THAT(run.out, Catch::Contains("\\x1b[31m"));
  }
  const CliRun info = run_hostile(tmp, {"info", "$DIR/dump"});
  CHECK_THAT(info.out, Catch::Contains("host          \\x1b[31m, pid 1000\n"));
  CHECK_THAT(info.out, Catch::Contains("(\\x1b]0;\\x07)"));

  const std::vector<std::vector<std::string>> json_commands = {
      {"info", "$DIR/dump", "--format", "json"},
      {"report", "$DIR/dump", "--format", "json"},
      {"instances", "$DIR/dump"},
  };
  for (const std::vector<std::string>& args : json_commands) {
    const CliRun run = run_hostile(tmp, args);
    INFO(args.front() << " " << args.back() << "\n" << run.out << run.err);
    CHECK(run.exit_code == 0);
    CHECK_FALSE(has_control(run.out));
    CHECK_FALSE(has_control(run.err));
    CHECK_THAT(run.out, Catch::Contains("\\u001b[31m"));
  }
}

TEST_CASE("hostile text: an escape sequence in a file name is escaped in the error naming it",
          "[hostile]") {
  TempDir tmp;
  tmp.make_dir("runs");
  tmp.write_file("runs/rank" + kRed + ".npkt", "not a capture at all, only some bytes of text");
  const CliRun run = run_hostile(tmp, {"info", "$DIR/runs"});
  INFO(run.err);
  CHECK(run.exit_code == 2);
  CHECK_FALSE(has_control(run.err));
  CHECK_THAT(run.err, Catch::Contains("rank\\x1b[31m.npkt"));
}

}  // namespace
}  // namespace npkit::test
