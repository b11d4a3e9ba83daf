// The shipped H200 captures gzip-compressed, as users move them off a cluster, read exactly as
// they are: report, hang and instances print the same bytes for a directory of *.npkt.gz files
// as for the *.npkt files it was made from (same directory path), and info too but for the ".gz"
// of the file names it lists (and, in its text table, the padding of the file column); so do a
// directory mixing both forms and one compressed file (whose path names the run everywhere).
// A directory holding a capture in both forms reads it once and says so.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "real/npkt_h200_driver.hpp"
#include "support/cli_runner.hpp"
#include "support/gzip_bytes.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::vector<std::string>> kCommands = {
    {"info"}, {"info", "--format", "json"}, {"report"},    {"report", "--format", "json"},
    {"hang"}, {"hang", "--format", "json"}, {"instances"},
};

struct Outputs {
  std::vector<CliRun> runs;  // one per kCommands entry
};

Outputs run_all(const std::string& input) {
  Outputs o;
  for (std::vector<std::string> args : kCommands) {
    args.insert(args.begin() + 1, input);
    o.runs.push_back(run_cli(args));
  }
  return o;
}

std::string without_gz(std::string text) {
  const std::string from = ".npkt.gz";
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.erase(at + 5, 3);
  }
  return text;
}

// `text` with each run of spaces made one: info's table pads its file column to the longest name.
std::string squeezed(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c != ' ' || out.empty() || out.back() != ' ') out += c;
  }
  return out;
}

// `a` and `b` (the same command, b on compressed files) printed the same but for ".gz" in file
// names: exactly, or for info's text table, but for the padding of its file column too.
void check_out(const std::vector<std::string>& command, const std::string& a,
               const std::string& b) {
  if (command[0] != "info") {
    CHECK(a == b);
    return;
  }
  CHECK(a != b);  // the file names say which file was read
  if (command.size() > 1) {
    CHECK(a == without_gz(b));
  } else {
    CHECK(squeezed(a) == squeezed(without_gz(b)));
  }
}

// `plain` and `compressed` printed the same, but for ".gz" in info's file names.
void check_same(const Outputs& plain, const Outputs& compressed) {
  for (std::size_t i = 0; i < kCommands.size(); ++i) {
    const std::string command = kCommands[i][0];
    INFO(command << (kCommands[i].size() > 1 ? " --format json" : ""));
    const CliRun& a = plain.runs[i];
    const CliRun& b = compressed.runs[i];
    CHECK(a.exit_code == b.exit_code);
    CHECK(a.err == b.err);
    CHECK_FALSE(a.out.empty());
    check_out(kCommands[i], a.out, b.out);
  }
}

std::vector<std::string> dump_files(const std::string& sample) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(require_path(sample_dir(sample) + "/dump"))) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("gzip: compressed H200 captures read exactly as the files they were made from",
          "[npkt][real][gzip]") {
  for (const char* sample : {"agree", "exit"}) {
    INFO(sample);
    const std::string source = sample_dir(sample) + "/dump/";
    const std::vector<std::string> names = dump_files(sample);
    REQUIRE(names.size() == 2);
    TempDir tmp;
    const std::string dir = tmp.make_dir("dump");
    for (const std::string& name : names) fs::copy_file(source + name, dir + "/" + name);
    const Outputs plain = run_all(dir);
    const Outputs one_plain = run_all(dir + "/" + names[1]);

    // One file compressed beside one as it is.
    gzip_file(source + names[0], dir + "/" + names[0] + ".gz");
    fs::remove(dir + "/" + names[0]);
    check_same(plain, run_all(dir));

    // Every file compressed (at another level: the bytes differ, the capture does not).
    gzip_file(source + names[1], dir + "/" + names[1] + ".gz", 9);
    fs::remove(dir + "/" + names[1]);
    check_same(plain, run_all(dir));

    // One compressed file as the input: its path is the run's name, so compare without ".gz".
    const Outputs one = run_all(dir + "/" + names[1] + ".gz");
    for (std::size_t i = 0; i < kCommands.size(); ++i) {
      INFO(kCommands[i][0]);
      CHECK(one.runs[i].exit_code == one_plain.runs[i].exit_code);
      CHECK(squeezed(without_gz(one.runs[i].out)) == squeezed(one_plain.runs[i].out));
      CHECK(without_gz(one.runs[i].err) == one_plain.runs[i].err);
    }
  }
}

TEST_CASE("gzip: a capture both compressed and not is read once, from the uncompressed file",
          "[npkt][real][gzip]") {
  const std::string source = sample_dir("agree") + "/dump/";
  const std::vector<std::string> names = dump_files("agree");
  TempDir tmp;
  const std::string dir = tmp.make_dir("dump");
  for (const std::string& name : names) fs::copy_file(source + name, dir + "/" + name);
  const CliRun plain = run_cli({"report", dir});
  REQUIRE(plain.exit_code == 0);
  REQUIRE(plain.err.empty());
  // `gzip -k` of every file: both forms beside each other.
  for (const std::string& name : names) gzip_file(source + name, dir + "/" + name + ".gz");
  const CliRun both = run_cli({"report", dir});
  CHECK(both.exit_code == 0);
  CHECK(both.out == plain.out);
  auto skipped = [&](const std::string& name) {
    return dir + "/" + name + ".gz: skipped, the uncompressed " + name + " beside it is read\n";
  };
  CHECK(both.err ==
        "npkit-analyze: 2 warning(s) in 1 categories:\n  2 × compressed copy skipped: " +
            skipped(names[0]) + "      " + skipped(names[1]));
}

}  // namespace npkit::test
