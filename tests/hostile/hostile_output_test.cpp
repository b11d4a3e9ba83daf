// Hostile output: an -o FILE that cannot be written, or a name planted to make the analyzer
// write elsewhere. Every command that writes a file writes a temporary with an unpredictable name
// beside it (O_CREAT | O_EXCL | O_NOFOLLOW) and renames it over FILE only when it is whole, so it
// either leaves the previous file as it was or replaces it whole, never writes through a link,
// and says which path failed and the system's reason: a missing directory, a directory, FIFO or
// device at FILE (refused before anything is opened: a FIFO never blocks), a file size limit.
// Traces cover their three writers: legacy dumps, .npkt captures and JSON traces.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "hostile/hostile_run.hpp"
#include "support/dump_bytes_reader.hpp"
#include "support/legacy_dump_writer.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;
// Two ranks of one 4096-byte ALL_REDUCE_RING span each, with clocks (hostile_legacy_test.cpp).
const std::string kDump =
    "rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n"
    "rank 1 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000\n"
    "rank 0 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=4096 ts=5000 | "
    "0x02 size=4096 ts=6000\n"
    "rank 1 gpu 0: 0x34 ts=1000000 | 0x33 ts=5000 | 0x01 size=4096 ts=5200 | "
    "0x02 size=4096 ts=6400\n";

const std::string kError = "npkit-analyze: error: ";

// The trace inputs: a legacy dump made here, then two committed fixtures.
std::vector<std::string> trace_inputs(const TempDir& tmp) {
  write_legacy_dump(tmp, kDump);
  return {"$DIR/dump", source_path("tests/golden/cases/npkt_ring/dump"),
          source_path("tests/golden/cases/json_generator_report/npkit_event_trace.json")};
}

// The names in `directory` that start with `prefix`: what a run left behind.
std::vector<std::string> entries_starting(const std::string& directory, const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0) names.push_back(name);
  }
  return names;
}

TEST_CASE("hostile output: -o in a missing directory names the directory and the reason",
          "[hostile]") {
  TempDir tmp;
  for (const std::string& input : trace_inputs(tmp)) {
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "$DIR/missing/trace.json"});
    CHECK(trace.exit_code == 2);
    CHECK(trace.err == kError +
                           "cannot write $DIR/missing/trace.json: $DIR/missing: No such file or "
                           "directory\n");
  }
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump", "-o", "$DIR/missing/r.txt"});
  CHECK(report.exit_code == 2);
  CHECK(report.err ==
        kError + "cannot write $DIR/missing/r.txt: $DIR/missing: No such file or directory\n");
  CHECK_FALSE(fs::exists(tmp.file("missing")));
}

TEST_CASE("hostile output: a directory at -o is refused and stays as it was", "[hostile]") {
  TempDir tmp;
  const std::string target = tmp.make_dir("taken");
  tmp.write_file("taken/keep", "x");
  const std::string refused =
      kError +
      "cannot write $DIR/taken: it is a directory, not a regular file (-o - writes to "
      "standard output)\n";
  for (const std::string& input : trace_inputs(tmp)) {
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "$DIR/taken"});
    CHECK(trace.exit_code == 2);
    CHECK(trace.err == refused);
    CHECK(fs::is_directory(target));
    CHECK(fs::exists(tmp.file("taken/keep")));
  }
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump", "-o", "$DIR/taken"});
  CHECK(report.exit_code == 2);
  CHECK(report.err == refused);
  CHECK(entries_starting(tmp.path(), ".taken").empty());
}

TEST_CASE("hostile output: a device at -o is refused, standard output and /dev/null are not",
          "[hostile]") {
  if (!fs::exists("/dev/full")) {
    WARN("no /dev/full on this machine: the device case is not run");
    return;
  }
  TempDir tmp;
  const std::string refused = kError +
                              "cannot write /dev/full: it is a device file, not a regular file "
                              "(-o - writes to standard output)\n";
  for (const std::string& input : trace_inputs(tmp)) {
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "/dev/full"});
    CHECK(trace.exit_code == 2);
    CHECK(trace.err == refused);
  }
  const CliRun report = run_hostile(tmp, {"report", "$DIR/dump", "-o", "/dev/full"});
  CHECK(report.exit_code == 2);
  CHECK(report.err == refused);
  const CliRun to_null = run_hostile(tmp, {"report", "$DIR/dump", "-o", "/dev/null"});
  CHECK(to_null.exit_code == 0);
  CHECK(to_null.out.empty());
  // /dev/stderr is a link to /proc/self/fd/2: refused whatever standard error is, the link kept.
  const CliRun to_stderr = run_hostile(tmp, {"report", "$DIR/dump", "-o", "/dev/stderr"});
  CHECK(to_stderr.exit_code == 2);
  CHECK(to_stderr.err == kError +
                             "cannot write /dev/stderr: it is a symbolic link to /proc/self/fd/2, "
                             "which is not a regular file to replace (-o - writes to standard "
                             "output)\n");
  CHECK(fs::is_symlink("/dev/stderr"));
  const CliRun to_stdout = run_hostile(tmp, {"report", "$DIR/dump", "-o", "/dev/stdout"});
  CHECK(to_stdout.exit_code == 0);
  CHECK(to_stdout.out == run_hostile(tmp, {"report", "$DIR/dump"}).out);
}

// A FIFO at -o would block the run until someone reads it: it is refused without being opened.
// Should the command block anyway, the test opens the FIFO's other end after 20 s to let it go.
TEST_CASE("hostile output: a FIFO at -o is refused without blocking", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kDump);
  const std::string fifo = tmp.file("out.fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  struct sigaction ignore_pipe {};
  struct sigaction old_pipe {};
  ignore_pipe.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore_pipe, &old_pipe);
  for (const std::string command : {"report", "trace"}) {
    auto run = std::async(std::launch::async, [&] {
      return run_hostile(tmp, {command, "$DIR/dump", "-o", "$DIR/out.fifo"});
    });
    const bool blocked = run.wait_for(std::chrono::seconds(20)) == std::future_status::timeout;
    CHECK_FALSE(blocked);
    if (blocked) close(open(fifo.c_str(), O_RDONLY | O_NONBLOCK));
    const CliRun result = run.get();
    CHECK(result.exit_code == 2);
    CHECK(result.err == kError +
                            "cannot write $DIR/out.fifo: it is a FIFO, not a regular file (-o - "
                            "writes to standard output)\n");
  }
  fs::create_symlink(fifo, tmp.file("out.link"));
  auto through_link = std::async(std::launch::async, [&] {
    return run_hostile(tmp, {"report", "$DIR/dump", "-o", "$DIR/out.link"});
  });
  const bool blocked =
      through_link.wait_for(std::chrono::seconds(20)) == std::future_status::timeout;
  CHECK_FALSE(blocked);
  if (blocked) close(open(fifo.c_str(), O_RDONLY | O_NONBLOCK));
  const CliRun linked = through_link.get();
  CHECK(linked.exit_code == 2);
  CHECK(linked.err ==
        kError +
            "cannot write $DIR/out.link: it is a symbolic link to $DIR/out.fifo, "
            "which is not a regular file to replace (-o - writes to standard output)\n");
  sigaction(SIGPIPE, &old_pipe, nullptr);
  struct stat info;
  REQUIRE(lstat(fifo.c_str(), &info) == 0);
  CHECK(S_ISFIFO(info.st_mode));
}

// A link planted at the name the analyzer once used for its temporary (FILE.tmp) must not be
// written through: the file it points to keeps its bytes, the link stays a link.
TEST_CASE("hostile output: a link planted at FILE.tmp leaves its target untouched", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kDump);
  const std::string victim = tmp.write_file("victim", "precious");
  const std::vector<std::vector<std::string>> commands = {
      {"report", "$DIR/dump", "-o", "$DIR/report.txt"},
      {"report", "$DIR/dump", "--format", "html", "-o", "$DIR/report.html"},
      {"trace", "$DIR/dump", "-o", "$DIR/trace.json"},
      {"summarize", "$DIR/dump", "-o", "$DIR/summary.json"},
      {"info", "$DIR/dump", "-o", "$DIR/info.txt"},
  };
  for (const std::vector<std::string>& args : commands) {
    const std::string output = args.back().substr(std::string("$DIR/").size());
    INFO(args.front() << " -o " << output);
    fs::create_symlink(victim, tmp.file(output + ".tmp"));
    const CliRun run = run_hostile(tmp, args);
    CHECK(run.exit_code == 0);
    CHECK(read_whole_file(victim) == "precious");
    CHECK(fs::is_symlink(tmp.file(output + ".tmp")));
    CHECK(fs::read_symlink(tmp.file(output + ".tmp")) == victim);
    CHECK(fs::is_regular_file(fs::symlink_status(tmp.file(output))));
    CHECK(fs::file_size(tmp.file(output)) > 100);
    CHECK(entries_starting(tmp.path(), "." + output).empty());
  }
}

// -o naming a link replaces the link itself with the new file; what it pointed to is not opened.
TEST_CASE("hostile output: -o naming a link replaces the link, not its target", "[hostile]") {
  TempDir tmp;
  write_legacy_dump(tmp, kDump);
  const std::string victim = tmp.write_file("victim", "precious");
  fs::create_symlink(victim, tmp.file("report.txt"));
  const CliRun run = run_hostile(tmp, {"report", "$DIR/dump", "-o", "$DIR/report.txt"});
  CHECK(run.exit_code == 0);
  CHECK(read_whole_file(victim) == "precious");
  CHECK(fs::is_regular_file(fs::symlink_status(tmp.file("report.txt"))));
  CHECK(replace_all(read_whole_file(tmp.file("report.txt")), tmp.path(), "$DIR") ==
        run_hostile(tmp, {"report", "$DIR/dump"}).out);
}

// A write that fails midway (here: the file size limit, 1 KiB) names the reason, leaves the old
// file as it was and no temporary behind.
TEST_CASE("hostile output: a write that fails names the reason and keeps the old file",
          "[hostile]") {
  TempDir tmp;
  struct sigaction ignore_xfsz {};
  struct sigaction old_xfsz {};
  ignore_xfsz.sa_handler = SIG_IGN;
  sigaction(SIGXFSZ, &ignore_xfsz, &old_xfsz);
  rlimit old_limit{};
  getrlimit(RLIMIT_FSIZE, &old_limit);
  for (const std::string& input : trace_inputs(tmp)) {
    tmp.write_file("trace.json", "an older file");
    rlimit limit = old_limit;
    limit.rlim_cur = 1024;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &limit) == 0);
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "$DIR/trace.json"});
    setrlimit(RLIMIT_FSIZE, &old_limit);
    CHECK(trace.exit_code == 2);
    CHECK(trace.err == kError + "cannot write $DIR/trace.json: File too large\n");
    CHECK(read_whole_file(tmp.file("trace.json")) == "an older file");
    CHECK(entries_starting(tmp.path(), ".trace.json").empty());
  }
  sigaction(SIGXFSZ, &old_xfsz, nullptr);
}

TEST_CASE("hostile output: a trace that can be written replaces the old file whole", "[hostile]") {
  TempDir tmp;
  for (const std::string& input : trace_inputs(tmp)) {
    tmp.write_file("trace.json", "an older file");
    const CliRun trace = run_hostile(tmp, {"trace", input, "-o", "$DIR/trace.json"});
    CHECK(trace.exit_code == 0);
    CHECK_THAT(trace.err, Catch::StartsWith("wrote "));
    CHECK_THAT(trace.err, Catch::Contains(" events to $DIR/trace.json\n"));
    CHECK(fs::file_size(tmp.file("trace.json")) > 100);
    CHECK(entries_starting(tmp.path(), ".trace.json").empty());
    CHECK_FALSE(fs::exists(tmp.file("trace.json.tmp")));
  }
}

}  // namespace
}  // namespace npkit::test
