// Golden CLI tests: each folder under tests/golden/cases/ is one run of npkit-analyze, and one
// test case ("golden: <folder>"), so ctest runs and reports each case on its own.
//   input          optional: the name of a dump spec in tests/golden/specs/ (the test-only writer's
//                  text format); the dump is written to a temp dir and $DUMP names it
//   layout         optional: lines `SOURCE DEST`, each a file (path from the repository root,
//                  $SAMPLES for "samples") copied to DEST under the temp dir before the run, so
//                  that a case can lay real files out as a directory no sample has (files of two
//                  runs in one directory)
//   cmd            the arguments, whitespace-separated; $DUMP and $TMP are replaced by the temp
//                  dir, "$SOURCE/" (the repository root) by nothing and $SAMPLES by "samples":
//                  the command runs in the repository root, so printed paths (and the widths of
//                  table columns that hold them) do not depend on where the checkout lives
//   expected.out   standard output, with the temp dir shown as $DUMP / $TMP
//   expected.err   standard error; when absent, standard error must be empty
//   expected.exit  the exit code (optional; 0 when absent)
//   covered_by     required for a case run on a real capture (its cmd uses $SAMPLES): lines
//                  `<test file>: "<test case>"` naming the tests that check its numbers against
//                  the run's own timing or a second computation (the file must hold that test
//                  case), each followed by indented lines saying what it checks
// Expected files are reviewed by a person against the spec's hand-computed numbers (see the
// comments in each spec). NPKIT_UPDATE_GOLDEN=1 rewrites them from the actual output, for review;
// under CI (the CI variable set) it is refused: CI checks, it never rewrites.
// kCaseCount is the number of case folders: a folder that disappears (or appears without being
// counted) fails "golden: every case folder is counted".
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "support/cli_runner.hpp"
#include "support/legacy_dump_writer.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using npkit::test::source_path;

namespace {

const std::string kSourceDir = NPKIT_SOURCE_DIR;
constexpr std::size_t kCaseCount = 172;

// CI is set to anything but "", 0, false, no or off (cmake/NpkitTestLabels.cmake reads it alike).
bool ci_run() {
  const char* ci = std::getenv("CI");
  if (ci == nullptr) return false;
  std::string v(ci);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  return !(v.empty() || v == "0" || v == "false" || v == "no" || v == "off");
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) {
    s.replace(pos, from.size(), to);
  }
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

void check_or_update(const fs::path& file, const std::string& actual, bool update) {
  if (update) {
    std::ofstream(file, std::ios::binary) << actual;
    return;
  }
  REQUIRE(fs::exists(file));
  CHECK(actual == read_file(file));
}

// Makes the repository root the working directory for one case, and restores the old one.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const fs::path& dir) : previous_(fs::current_path()) {
    fs::current_path(dir);
  }
  ~WorkingDirectory() { fs::current_path(previous_); }
  WorkingDirectory(const WorkingDirectory&) = delete;
  WorkingDirectory& operator=(const WorkingDirectory&) = delete;

 private:
  fs::path previous_;
};

// A real capture's numbers are bounded by other tests: covered_by names them, and they exist.
void check_covered_by(const fs::path& dir) {
  INFO("a case on a real capture needs covered_by naming the tests that check its numbers");
  REQUIRE(fs::exists(dir / "covered_by"));
  std::istringstream lines(read_file(dir / "covered_by"));
  int tests = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == ' ') continue;
    INFO("covered_by line: " << line);
    const auto colon = line.find(": \"");
    REQUIRE(colon != std::string::npos);
    REQUIRE(line.back() == '"');
    const std::string file = line.substr(0, colon);
    const std::string test = line.substr(colon + 2);  // with its quotes
    REQUIRE(fs::exists(source_path(file)));
    CHECK(read_file(source_path(file)).find(test) != std::string::npos);
    ++tests;
  }
  CHECK(tests > 0);
}

// Copies each `SOURCE DEST` line's file to DEST under `tmp` (the layout file above).
void lay_out(const std::string& layout, const std::string& tmp) {
  std::istringstream lines(layout);
  for (std::string source, dest; lines >> source >> dest;) {
    replace_all(source, "$SAMPLES", "samples");
    const fs::path to = fs::path(tmp) / dest;
    fs::create_directories(to.parent_path());
    fs::copy_file(source_path(source), to);
  }
}

void run_case(const fs::path& dir) {
  const bool real = read_file(dir / "cmd").find("$SAMPLES") != std::string::npos ||
                    (fs::exists(dir / "layout") &&
                     read_file(dir / "layout").find("$SAMPLES") != std::string::npos);
  if (real) check_covered_by(dir);
  npkit::test::TempDir tmp;
  std::string dump = tmp.file("dump");
  if (fs::exists(dir / "input")) {
    const std::string spec = trim(read_file(dir / "input"));
    dump = npkit::test::write_legacy_dump(
        tmp, read_file(fs::path(source_path("tests/golden/specs")) / (spec + ".spec")));
  }
  if (fs::exists(dir / "layout")) lay_out(read_file(dir / "layout"), tmp.path());
  std::istringstream cmd(read_file(dir / "cmd"));
  std::vector<std::string> args;
  for (std::string a; cmd >> a;) {
    replace_all(a, "$DUMP", dump);
    replace_all(a, "$TMP", tmp.path());
    replace_all(a, "$SAMPLES", "samples");
    replace_all(a, "$SOURCE/", "");
    args.push_back(a);
  }
  npkit::test::CliRun run;
  {
    const WorkingDirectory in_source_root(kSourceDir);
    run = npkit::test::run_cli(args);
  }
  // Cases run in the repository root with relative paths, so the checkout's own path never
  // shows; it is not replaced either (captured data may hold the same text, e.g. a capture
  // machine's /work/main/... plugin path).
  for (std::string* s : {&run.out, &run.err}) {
    replace_all(*s, dump, "$DUMP");
    replace_all(*s, tmp.path(), "$TMP");
  }
  const bool update = std::getenv("NPKIT_UPDATE_GOLDEN") != nullptr;
  if (update) {
    INFO(
        "NPKIT_UPDATE_GOLDEN is set under CI: updates are refused there (CI checks the "
        "reviewed files, it never rewrites them)");
    REQUIRE_FALSE(ci_run());
  }
  INFO("golden case " << dir.filename().string() << "\nstderr:\n" << run.err);
  check_or_update(dir / "expected.out", run.out, update);
  if (fs::exists(dir / "expected.err") || (update && !run.err.empty())) {
    check_or_update(dir / "expected.err", run.err, update);
  } else {
    INFO("no expected.err: standard error must be empty");
    CHECK(run.err.empty());
  }
  const int expected_exit =
      fs::exists(dir / "expected.exit") ? std::stoi(read_file(dir / "expected.exit")) : 0;
  if (update && run.exit_code != 0) {
    std::ofstream(dir / "expected.exit") << run.exit_code << "\n";
  } else {
    CHECK(run.exit_code == expected_exit);
  }
}

std::vector<fs::path> case_folders() {
  std::vector<fs::path> cases;
  std::error_code error;
  for (fs::directory_iterator it(source_path("tests/golden/cases"), error), end;
       !error && it != end; it.increment(error)) {
    if (it->is_directory()) cases.push_back(it->path());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

// One Catch2 test case per folder, registered before main() runs.
class GoldenCase : public Catch::ITestInvoker {
 public:
  explicit GoldenCase(fs::path dir) : dir_(std::move(dir)) {}
  void invoke() const override { run_case(dir_); }

 private:
  fs::path dir_;
};

const bool registered = [] {
  for (const fs::path& dir : case_folders()) {
    const std::string name = "golden: " + dir.filename().string();
    Catch::AutoReg(new GoldenCase(dir), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags(name, "[golden]"));
  }
  return true;
}();

}  // namespace

TEST_CASE("golden: every case folder is counted", "[golden]") {
  REQUIRE(registered);
  INFO(
      "tests/golden/cases holds a different number of case folders than kCaseCount in "
      "golden_test.cpp: a case was lost, or a new one needs counting");
  CHECK(case_folders().size() == kCaseCount);
}
