// `npkit-analyze hang` on the live files of a job that is still hung, read while it waits — the
// moment users need it most. Rank 0 is this test process itself: it completes AllReduce seq 0..4
// and enters seq 5 (kernel running on two channels), then waits; rank 1 is a child process that
// completes seq 0..4 and ends without calling seq 5 and without a dump. While rank 0's process
// runs, `hang` must say how long it has waited so far (from its own records to the moment of
// reading, bracketed here by this process's clock), that its process still runs, and that rank
// 1's capture ends at its last record (a live file of a process that is gone: "at least").
#include <time.h>
#include <unistd.h>

#include <simdjson.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/stress/child_process.hpp"
#include "support/cli_runner.hpp"

namespace npkit::test {
namespace {

constexpr uint64_t kStuckSeq = 5;

std::int64_t wall_now_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

void* start(const PluginLibrary& lib, void* context, abi::EventDescrV5 descr) {
  void* handle = nullptr;
  lib.v5->startEvent(context, &handle, &descr);
  return handle;
}

// AllReduce `seq` on two channels, run to completion, or left with both channels running.
void allreduce(const PluginLibrary& lib, void* context, int rank, uint64_t seq, bool complete) {
  void* coll = start(lib, context,
                     coll_descr(nullptr, rank, seq, "AllReduce", 1024, 0, "ncclFloat32", 2, 8,
                                "RING", "SIMPLE", nullptr));
  lib.v5->stopEvent(coll);
  for (uint8_t channel = 0; channel < 2; ++channel) {
    void* kernel = start(lib, context, kernel_ch_descr(coll, channel, 10'000 * seq + channel));
    if (!complete) continue;
    abi::StateArgs stop = kernel_stop_args(10'000 * seq + channel + 5'000);
    lib.v5->recordEventState(kernel, static_cast<abi::EventState>(format::kStateKernelChStop),
                             &stop);
    lib.v5->stopEvent(kernel);
  }
}

}  // namespace

TEST_CASE("plugin stress: hang on the live files of a job still hung, read while it waits",
          "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  const uint64_t hash = 0x571117000000000aull;

  const ChildOutcome rank1 = run_in_child([&](ChildReport& report) {
    void* context = nullptr;
    int mask = 0;
    if (lib.v5->init(&context, hash, &mask, "still-hung", 1, 2, 1, capture_log) != abi::kSuccess ||
        context == nullptr) {
      report.fail("init gave no context");
      return;
    }
    for (uint64_t seq = 0; seq < kStuckSeq; ++seq) allreduce(lib, context, 1, seq, true);
    ::_exit(0);  // no finalize, no dump: only the live file stays
  });
  INFO(rank1.text());
  REQUIRE(rank1.failures().empty());

  void* context = nullptr;
  int mask = 0;
  REQUIRE(lib.v5->init(&context, hash, &mask, "still-hung", 1, 2, 0, capture_log) == abi::kSuccess);
  REQUIRE(context != nullptr);
  for (uint64_t seq = 0; seq < kStuckSeq; ++seq) allreduce(lib, context, 0, seq, true);
  const std::int64_t before_call = wall_now_ns();
  allreduce(lib, context, 0, kStuckSeq, false);
  const std::int64_t after_call = wall_now_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  const std::int64_t before_read = wall_now_ns();
  const CliRun run = run_cli({"hang", env.dir.path(), "--format", "json"});
  const std::int64_t after_read = wall_now_ns();
  const CliRun text = run_cli({"hang", env.dir.path()});
  INFO(run.out << run.err << text.out);
  CHECK(run.exit_code == 1);
  simdjson::dom::parser parser;
  const simdjson::dom::element comm = parser.parse(run.out)["communicators"].at(0);
  CHECK(comm["seq"].get_uint64().value() == kStuckSeq);
  CHECK(comm["ranks_missing"].at(0).get_int64().value() == 1);
  const simdjson::dom::element waiting = comm["ranks"].at(0);
  CHECK(waiting["rank"].get_int64().value() == 0);
  // The wait so far runs from rank 0's call to the moment the files were read.
  const std::int64_t so_far = waiting["waited_so_far_ns"].get_int64().value();
  CHECK(so_far >= before_read - after_call);
  CHECK(so_far <= after_read - before_call);
  CHECK(so_far >= 300'000'000);
  // Rank 1's process is gone: its capture ended at its last record or later.
  const simdjson::dom::element gone = comm["ranks"].at(1);
  CHECK(gone["before_end_at_least"].get_bool().value());
  CHECK(gone["waited_so_far_ns"].error() == simdjson::NO_SUCH_FIELD);
  const std::string verdict(comm["verdict"].get_string().value());
  CHECK_THAT(verdict, Catch::StartsWith("rank 1 never called AllReduce seq 5; rank 0 has waited "
                                        "in it for "));
  CHECK_THAT(verdict, Catch::Contains(" so far (its process still runs)"));
  CHECK_THAT(text.out, Catch::Contains(" so far "));

  lib.v5->finalize(context);  // the dump replaces rank 0's live file
  CHECK(entries_in(env.dir.path()) ==
        std::vector<std::string>{dump_file_name(hash, 0), live_file_name(hash, 1)});
}

}  // namespace npkit::test
