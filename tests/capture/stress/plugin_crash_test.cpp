// A process that dies: what it had already dumped stays a valid file, a dump cut short by the
// death never appears under its final name (the reader and the analyzer then see only complete
// files), and the communicators it had not dumped leave their live files. Both run in a forked
// child that is killed.
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/stress/child_process.hpp"
#include "import/npkt/npkt_directory.hpp"
#include "support/cli_runner.hpp"

namespace npkit::test {
namespace {

// Initializes a communicator and records `events` KernelCh start/stop pairs (gpu_start_ns =
// first_key + i); returns its context (NULL after a report.fail).
void* capture_live(const PluginLibrary& lib, uint64_t hash, int events, uint64_t first_key,
                   ChildReport& report) {
  void* context = nullptr;
  int mask = 0;
  if (lib.v5->init(&context, hash, &mask, "crash", 1, 1, 0, capture_log) != abi::kSuccess ||
      context == nullptr) {
    report.fail("init gave no context");
    return nullptr;
  }
  for (int i = 0; i < events; ++i) {
    abi::EventDescrV5 d = kernel_ch_descr(nullptr, 0, first_key + i);
    void* handle = nullptr;
    if (lib.v5->startEvent(context, &handle, &d) != abi::kSuccess || handle == nullptr ||
        lib.v5->stopEvent(handle) != abi::kSuccess) {
      report.fail("event " + std::to_string(i) + " failed");
      return nullptr;
    }
  }
  return context;
}

// From here on the process is killed (SIGSYS) at its first write() of `bytes` bytes or more
// (seccomp): the dump writer's first full buffer (1 MiB), so it dies in the middle of writing a
// dump. False when the filter cannot be installed.
bool die_at_write_of_at_least(uint32_t bytes) {
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[2])),  // low half, LE
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, bytes, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof(filter) / sizeof(filter[0])), filter};
  return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

// The flushed file: every start/stop pair the child recorded, ended by the flush.
void check_flushed(const std::string& path, int events, uint64_t first_key) {
  const NpktDump dump = read_dump(path);
  CHECK(dump.comm.end_reason == format::kEndProcessExit);
  CHECK(dump.comm.records_attempted == uint64_t(2 * events));
  REQUIRE(dump.records.size() == size_t(2 * events));
  size_t bad = 0;
  for (int i = 0; i < events; ++i) {
    const format::ProfilerRecord& start = dump.records[2 * i];
    const format::ProfilerRecord& stop = dump.records[2 * i + 1];
    format::KernelChPayload kernel;
    std::memcpy(&kernel, start.payload, sizeof(kernel));
    if (start.kind != format::kRecordStart || kernel.gpu_start_ns != first_key + i ||
        stop.kind != format::kRecordStop || stop.event_id != start.event_id) {
      ++bad;
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("plugin stress: a process killed after npkitProfilerFlush keeps the flushed dump valid",
          "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const uint64_t flushed_hash = 0xc4a5000000000001ull;
  const uint64_t lost_hash = 0xc4a5000000000002ull;
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    if (capture_live(lib, flushed_hash, 1000, 5000, report) == nullptr) return;
    const int written = lib.flush();
    if (written != 1) report.fail("npkitProfilerFlush wrote " + std::to_string(written));
    if (capture_live(lib, lost_hash, 100, 9000, report) == nullptr) return;
    report.note("killing myself");
    ::kill(::getpid(), SIGKILL);
  });
  INFO(child.text());
  CHECK(child.failures().empty());
  CHECK_FALSE(child.exited);
  CHECK(child.signal == SIGKILL);

  // The flushed dump, and the live file of the communicator the kill cut short: its 100 pairs.
  REQUIRE(entries_in(env.dir.path()) ==
          std::vector<std::string>{dump_file_name(flushed_hash, 0), live_file_name(lost_hash, 0)});
  check_flushed(env.file(dump_file_name(flushed_hash, 0)), 1000, 5000);
  const NpktDump lost = read_dump(env.file(live_file_name(lost_hash, 0)));
  CHECK(lost.comm.end_reason == format::kEndLive);
  CHECK(lost.records.size() == 200);
  const CliRun info = run_cli({"info", env.dir.path()});
  INFO(info.err);
  CHECK(info.exit_code == 0);
}

TEST_CASE(
    "plugin stress: a process killed while writing a dump leaves no file under the final "
    "name",
    "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const uint64_t flushed_hash = 0xc4a5000000000011ull;
  const uint64_t cut_hash = 0xc4a5000000000012ull;
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    if (capture_live(lib, flushed_hash, 100, 100, report) == nullptr) return;
    if (lib.flush() != 1) report.fail("npkitProfilerFlush did not write one file");
    // 20,000 records (1.3 MB): the dump writer's first full buffer is a write the process dies
    // at.
    void* context = capture_live(lib, cut_hash, 10000, 100000, report);
    if (context == nullptr) return;
    if (!die_at_write_of_at_least(uint32_t{1} << 19))
      report.fail("cannot install the seccomp filter");
    report.note("pid " + std::to_string(::getpid()) + " finalizing");
    lib.v5->finalize(context);
    report.fail("the finalize returned: the process was not killed while writing");
  });
  INFO(child.text());
  CHECK(child.failures().empty());
  CHECK_FALSE(child.exited);
  CHECK(child.signal == SIGSYS);

  // The cut dump only under its hidden temporary name, the flushed file, and the cut
  // communicator's live file (which holds its records).
  const std::string flushed = dump_file_name(flushed_hash, 0);
  const std::vector<std::string> files = entries_in(env.dir.path());
  REQUIRE(files.size() == 3);
  const std::string cut = files[0];
  CHECK(cut.rfind("." + dump_file_name(cut_hash, 0) + ".", 0) == 0);
  CHECK(cut.size() == 1 + dump_file_name(cut_hash, 0).size() + 1 + 16 + 4);
  CHECK(cut.compare(cut.size() - 4, 4, ".tmp") == 0);
  CHECK(files[1] == flushed);
  CHECK(files[2] == live_file_name(cut_hash, 0));
  check_flushed(env.file(flushed), 100, 100);

  // Readers see the complete file and the live one; the partial one, read on purpose, is an
  // error.
  const auto listed = find_npkt_files(env.dir.path());
  REQUIRE(listed.ok());
  CHECK(listed->paths ==
        std::vector<std::string>{env.file(flushed), env.file(live_file_name(cut_hash, 0))});
  CHECK(read_dump(env.file(live_file_name(cut_hash, 0))).records.size() == 20000);
  const auto partial = read_npkt_file(env.file(cut));
  REQUIRE_FALSE(partial.ok());
  const CliRun info = run_cli({"info", env.dir.path()});
  INFO(info.err);
  CHECK(info.exit_code == 0);
}

}  // namespace
}  // namespace npkit::test
