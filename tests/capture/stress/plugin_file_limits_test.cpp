// Limits the job may run under, met by the real plugin in a forked child: a file-size limit
// (RLIMIT_FSIZE) with SIGXFSZ left at its default action (ending the process), a full file system
// (a small tmpfs), no descriptor left (RLIMIT_NOFILE). Each ends in one warning naming the reason,
// the process lives on (exit status 0, not signal 25) and no temporary file stays behind.
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/plugin/scoped_env.hpp"
#include "capture/stress/child_capture.hpp"
#include "capture/stress/child_process.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

void set_file_size_limit(rlim_t bytes, ChildReport& report) {
  rlimit limit{};
  ::getrlimit(RLIMIT_FSIZE, &limit);
  limit.rlim_cur = bytes;
  if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) report.fail("setrlimit(RLIMIT_FSIZE) failed");
}

// The one WARN expected, or a report.fail listing them all.
std::string only_warning(const LogCapture& log, ChildReport& report) {
  std::vector<std::string> warnings;
  for (const LoggedLine& line : log.lines()) {
    if (line.level == abi::kLogWarn) warnings.push_back(line.text);
  }
  if (warnings.size() != 1) {
    report.fail(std::to_string(warnings.size()) + " WARN(s), expected 1:\n" + log.dump());
    return "";
  }
  return warnings[0];
}

void expect_contains(const std::string& text, const std::string& part, ChildReport& report) {
  if (text.find(part) == std::string::npos) report.fail("'" + part + "' not in: " + text);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE(
    "plugin stress: a dump past RLIMIT_FSIZE draws one warning naming the limit, and SIGXFSZ does "
    "not end the process",
    "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const ScopedEnv no_live("NPKIT_LIVE_FILE", "0");
  const uint64_t hash = 0xf512e00000000001ull;  // 10,000 records: 640 KB, over 64 KiB
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    set_file_size_limit(64 * 1024, report);
    LogCapture log;
    void* context = open_communicator(lib, hash, "limits", report);
    if (context == nullptr || !record_pairs(lib, context, 5000, report)) return;
    if (lib.v5->finalize(context) != abi::kSuccess) report.fail("finalize did not succeed");
    const std::string warning = only_warning(log, report);
    expect_contains(
        warning, "could not write dump: " + env.file(dump_file_name(hash, 0)) + ": its ", report);
    expect_contains(warning, "bytes would exceed the file size limit (RLIMIT_FSIZE, 65536 bytes)",
                    report);
    expect_contains(warning, "its 10000 records are lost (no live file)", report);
    report.note("child done");
  });
  INFO(child.text());
  CHECK(child.signal == 0);
  CHECK(child.exited);
  CHECK(child.exit_code == 0);
  CHECK(child.failures().empty());
  CHECK(entries_in(env.dir.path()).empty());  // no dump, no temporary
}

TEST_CASE(
    "plugin stress: at exit, a dump past RLIMIT_FSIZE draws one warning on stderr and the "
    "process exits 0",
    "[plugin][stress][exit-in-fork]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const ScopedEnv no_live("NPKIT_LIVE_FILE", "0");
  TempDir elsewhere;
  const std::string stderr_file = elsewhere.file("stderr.txt");
  const uint64_t hash = 0xf512e00000000002ull;
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    const int err = ::open(stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (err < 0 || ::dup2(err, 2) < 0) report.fail("cannot redirect stderr");
    void* context = open_communicator(lib, hash, "limits", report);
    if (context == nullptr || !record_pairs(lib, context, 5000, report)) return;
    set_file_size_limit(64 * 1024, report);
    report.note("exiting without finalize");
    // exit(), not the child's _exit: the plugin's library destructor dumps the communicator.
    std::exit(report.failed() ? 1 : 0);
  });
  INFO(child.text());
  CHECK(child.signal == 0);
  CHECK(child.exited);
  CHECK(child.exit_code == 0);
  CHECK(child.failures().empty());
  CHECK(entries_in(env.dir.path()).empty());
  const std::string errors = read_text(stderr_file);
  INFO(errors);
  size_t warnings = 0;
  for (size_t at = errors.find("NPKIT WARN"); at != std::string::npos;
       at = errors.find("NPKIT WARN", at + 1)) {
    ++warnings;
  }
  CHECK(warnings == 1);
  CHECK_THAT(errors, Catch::Contains("NPKIT WARN could not write dump: " +
                                     env.file(dump_file_name(hash, 0))) &&
                         Catch::Contains("(RLIMIT_FSIZE, 65536 bytes)"));
}

TEST_CASE(
    "plugin stress: a live file that stops growing is warned about when it happens, and a failed "
    "dump says how many records are in it",
    "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const uint64_t hash = 0xf512e00000000003ull;
  const int pairs = 34'000;  // 68,000 records: past the live file's first two chunks of 32,768
  const std::string live = env.file(live_file_name(hash, 0));
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    LogCapture log;
    void* context = open_communicator(lib, hash, "limits", report);
    if (context == nullptr) return;
    // Room for 1.9 MiB more than the live file has now: it cannot take another 2 MiB chunk.
    struct stat st {};
    if (::stat(live.c_str(), &st) != 0) report.fail("no live file " + live);
    set_file_size_limit(static_cast<rlim_t>(st.st_size) + (19u << 20) / 10, report);
    if (!record_pairs(lib, context, pairs, report)) return;
    set_file_size_limit(1 << 20, report);  // and the dump (4.4 MB) cannot be written
    if (lib.v5->finalize(context) != abi::kSuccess) report.fail("finalize did not succeed");
    const std::vector<LoggedLine> lines = log.lines();
    std::vector<std::string> warnings;
    for (const LoggedLine& line : lines) {
      if (line.level == abi::kLogWarn) warnings.push_back(line.text);
    }
    if (warnings.size() != 2) {
      report.fail(std::to_string(warnings.size()) + " WARN(s), expected 2:\n" + log.dump());
      return;
    }
    const std::regex stopped("the live file stopped at record (32768|65536): " + live +
                             ": .*; later records are kept in memory until the dump is "
                             "written, and are lost if the process dies first");
    std::smatch at;
    if (!std::regex_search(warnings[0], at, stopped)) {
      report.fail("first WARN: " + warnings[0]);
      return;
    }
    const std::string kept = at[1].str();
    expect_contains(warnings[1], "(RLIMIT_FSIZE, ", report);
    expect_contains(warnings[1],
                    "; " + kept + " of 68000 records are in " + live +
                        "; the rest are lost: the live file stopped at record " + kept + ": ",
                    report);
    report.note("kept " + kept);
  });
  INFO(child.text());
  CHECK(child.signal == 0);
  CHECK(child.exit_code == 0);
  REQUIRE(child.failures().empty());
  // The live file stays with the records the warning counts.
  REQUIRE(entries_in(env.dir.path()) == std::vector<std::string>{live_file_name(hash, 0)});
  const auto in_live = read_npkt_file(live);
  REQUIRE(in_live.ok());
  const std::string kept = std::to_string(in_live->records.size());
  CHECK_THAT(child.text(), Catch::Contains("kept " + kept + "\n"));
}

TEST_CASE(
    "plugin stress: a full file system warns at init that there is no live file, then the dump "
    "fails with ENOSPC and leaves no temporary",
    "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const std::string small = env.dir.make_dir("small");
  if (::mount("tmpfs", small.c_str(), "tmpfs", 0, "size=1m") != 0) {
    WARN("cannot mount a 1 MiB tmpfs (needs root): not tested here");
    return;
  }
  const ScopedEnv dump_dir("NPKIT_DUMP_DIR", small);
  const uint64_t hash = 0xf512e00000000004ull;  // 40,000 records: 2.5 MB
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    LogCapture log;
    void* context = open_communicator(lib, hash, "limits", report);
    if (context == nullptr || !record_pairs(lib, context, 20'000, report)) return;
    if (lib.v5->finalize(context) != abi::kSuccess) report.fail("finalize did not succeed");
    std::vector<std::string> warnings;
    for (const LoggedLine& line : log.lines()) {
      if (line.level == abi::kLogWarn) warnings.push_back(line.text);
    }
    if (warnings.size() != 2) {
      report.fail(std::to_string(warnings.size()) + " WARN(s), expected 2:\n" + log.dump());
      return;
    }
    expect_contains(warnings[0], "no live file for " + dump_file_name(hash, 0) + " (", report);
    expect_contains(warnings[0], "No space left on device", report);
    expect_contains(warnings[1], "could not write dump: " + small + "/." + dump_file_name(hash, 0),
                    report);
    expect_contains(warnings[1], ": No space left on device; its 40000 records are lost", report);
  });
  const std::vector<std::string> left = entries_in(small);
  ::umount2(small.c_str(), MNT_DETACH);
  INFO(child.text());
  CHECK(child.signal == 0);
  CHECK(child.exit_code == 0);
  CHECK(child.failures().empty());
  CHECK(left.empty());
}

TEST_CASE(
    "plugin stress: out of file descriptors at dump time, the warning keeps EMFILE's reason and "
    "no temporary stays",
    "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const ScopedEnv no_live("NPKIT_LIVE_FILE", "0");
  const uint64_t hash = 0xf512e00000000005ull;
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    LogCapture log;
    void* context = open_communicator(lib, hash, "limits", report);
    if (context == nullptr || !record_pairs(lib, context, 10, report)) return;
    // Every descriptor below `last` in use and `last` the only one free: the dump can create its
    // temporary file, and nothing more.
    std::vector<int> held;
    int last = -1;
    while ((last = ::open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0 && last < 64) {
      held.push_back(last);
    }
    if (last < 0) {
      report.fail("could not fill the descriptor table");
      return;
    }
    ::close(last);
    rlimit limit{};
    ::getrlimit(RLIMIT_NOFILE, &limit);
    const rlimit original = limit;
    limit.rlim_cur = static_cast<rlim_t>(last) + 1;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) report.fail("setrlimit(RLIMIT_NOFILE) failed");
    lib.v5->finalize(context);
    ::setrlimit(RLIMIT_NOFILE, &original);
    for (const int fd : held) ::close(fd);
    const std::string warning = only_warning(log, report);
    expect_contains(warning, "could not write dump: " + env.dir.path() + "/.", report);
    expect_contains(warning, ": Too many open files; its 20 records are lost", report);
  });
  INFO(child.text());
  CHECK(child.signal == 0);
  CHECK(child.exit_code == 0);
  CHECK(child.failures().empty());
  CHECK(entries_in(env.dir.path()).empty());
}

TEST_CASE("plugin stress: control characters from a planted link target are escaped in the log",
          "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const uint64_t hash = 0xf512e00000000006ull;
  // A link planted at the live file's name, its target forging a line of NCCL's log.
  const std::string target = "/nowhere\nhost:1:1 [0] NCCL INFO forged\x1b[2J";
  REQUIRE(::symlink(target.c_str(), env.file(live_file_name(hash, 0)).c_str()) == 0);
  LogCapture log;
  void* context = nullptr;
  int mask = 0;
  REQUIRE(lib.v5->init(&context, hash, &mask, "escape", 1, 1, 0, capture_log) == abi::kSuccess);
  REQUIRE(context != nullptr);
  REQUIRE(lib.v5->finalize(context) == abi::kSuccess);
  INFO(log.dump());
  for (const LoggedLine& line : log.lines()) {
    const std::string text = line.text.substr(0, line.text.find_last_not_of('\n') + 1);
    CHECK(text.find('\n') == std::string::npos);
    CHECK(text.find('\x1b') == std::string::npos);
  }
  CHECK(log.count(abi::kLogWarn, "/nowhere\\x0ahost:1:1 [0] NCCL INFO forged\\x1b[2J") == 1);
}

}  // namespace
}  // namespace npkit::test
