// Golden CLI tests: each folder under tests/golden/cases/ is one run of npkit-analyze.
//   input          optional: the name of a dump spec in tests/golden/specs/ (the test-only writer's
//                  text format); the dump is written to a temp dir and $DUMP names it
//   cmd            the arguments, whitespace-separated; $DUMP and $TMP are replaced by the temp
//                  dir, "$SOURCE/" (the repository root) by nothing and $SAMPLES by "samples":
//                  the command runs in the repository root, so printed paths (and the widths of
//                  table columns that hold them) do not depend on where the checkout lives
//   expected.out   standard output, with the temp dir shown as $DUMP / $TMP
//   expected.err   standard error (optional; checked when present)
//   expected.exit  the exit code (optional; 0 when absent)
// Expected files are reviewed by a person against the spec's hand-computed numbers (see the
// comments in each spec). NPKIT_UPDATE_GOLDEN=1 rewrites them from the actual output, for review.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/cli_runner.hpp"
#include "support/legacy_dump_writer.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using npkit::test::source_path;

namespace {

const std::string kSourceDir = NPKIT_SOURCE_DIR;

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

void run_case(const fs::path& dir) {
  npkit::test::TempDir tmp;
  std::string dump = tmp.file("dump");
  if (fs::exists(dir / "input")) {
    const std::string spec = trim(read_file(dir / "input"));
    dump = npkit::test::write_legacy_dump(
        tmp, read_file(fs::path(source_path("tests/golden/specs")) / (spec + ".spec")));
  }
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
  INFO("golden case " << dir.filename().string() << "\nstderr:\n" << run.err);
  check_or_update(dir / "expected.out", run.out, update);
  if (fs::exists(dir / "expected.err") || (update && !run.err.empty())) {
    check_or_update(dir / "expected.err", run.err, update);
  }
  const int expected_exit =
      fs::exists(dir / "expected.exit") ? std::stoi(read_file(dir / "expected.exit")) : 0;
  if (update && run.exit_code != 0) {
    std::ofstream(dir / "expected.exit") << run.exit_code << "\n";
  } else {
    CHECK(run.exit_code == expected_exit);
  }
}

}  // namespace

TEST_CASE("golden CLI cases", "[golden]") {
  const fs::path root = source_path("tests/golden/cases");
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(root)) {
    if (e.is_directory()) cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 10);
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.filename().string()) {
      run_case(c);
    }
  }
}
