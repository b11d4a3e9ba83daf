// A job that hangs and then dies without writing its dumps — killed by the scheduler (SIGTERM,
// SIGKILL), aborted (SIGABRT, as PyTorch's NCCL watchdog does), crashed in the application
// (SIGSEGV) or ended with _exit(). Each rank is its own process, as in a real job: rank 0 runs
// AllReduce seq 0..136 and enters seq 137 (its kernel running on two channels, waiting), rank 1
// completes seq 0..136 and never calls seq 137; then both end the same way. The live files hold
// every record of both, and `npkit-analyze hang` names the collective and the ranks from them.
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include <simdjson.h>
#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/stress/child_process.hpp"
#include "support/cli_runner.hpp"

namespace npkit::test {
namespace {

constexpr uint64_t kStuckSeq = 137;
constexpr int kNoSignal = 0;  // end with _exit(0) instead

struct Rank {
  const PluginLibrary& lib;
  void* context = nullptr;
  ChildReport& report;

  void* start(abi::EventDescrV5 descr) {
    void* handle = nullptr;
    if (lib.v5->startEvent(context, &handle, &descr) != abi::kSuccess || handle == nullptr) {
      report.fail("startEvent of type " + std::to_string(descr.type) + " failed");
    }
    return handle;
  }
};

// One AllReduce on two channels, run to completion: 8 records.
void completed_allreduce(Rank& rank, int rank_id, uint64_t seq) {
  void* coll = rank.start(coll_descr(nullptr, rank_id, seq, "AllReduce", 1024, 0, "ncclFloat32", 2,
                                     8, "RING", "SIMPLE", nullptr));
  rank.lib.v5->stopEvent(coll);
  for (uint8_t channel = 0; channel < 2; ++channel) {
    void* kernel = rank.start(kernel_ch_descr(coll, channel, 10'000 * seq + channel));
    abi::StateArgs stop_time = kernel_stop_args(10'000 * seq + channel + 5'000);
    rank.lib.v5->recordEventState(kernel, static_cast<abi::EventState>(format::kStateKernelChStop),
                                  &stop_time);
    rank.lib.v5->stopEvent(kernel);
  }
}

// Runs one rank of the job in a child process that then ends by `signal` (or _exit).
ChildOutcome run_rank(const PluginLibrary& lib, uint64_t hash, int rank_id, int signal) {
  return run_in_child([&](ChildReport& report) {
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    Rank rank{lib, nullptr, report};
    int mask = 0;
    if (lib.v5->init(&rank.context, hash, &mask, "killed", 1, 2, rank_id, capture_log) !=
            abi::kSuccess ||
        rank.context == nullptr) {
      report.fail("init gave no context");
      return;
    }
    for (uint64_t seq = 0; seq < kStuckSeq; ++seq) completed_allreduce(rank, rank_id, seq);
    if (rank_id == 0) {
      void* coll = rank.start(coll_descr(nullptr, 0, kStuckSeq, "AllReduce", 1024, 0, "ncclFloat32",
                                         2, 8, "RING", "SIMPLE", nullptr));
      lib.v5->stopEvent(coll);
      rank.start(kernel_ch_descr(coll, 0, 10'000 * kStuckSeq));
      rank.start(kernel_ch_descr(coll, 1, 10'000 * kStuckSeq + 1));
    }
    report.note("rank " + std::to_string(rank_id) + " ends");
    if (signal == kNoSignal) ::_exit(0);
    std::signal(signal, SIG_DFL);  // not the test framework's handler
    if (signal == SIGSEGV) {
      volatile int* nowhere = nullptr;
      *nowhere = 1;  // the application crashes
    }
    ::kill(::getpid(), signal);
  });
}

}  // namespace

TEST_CASE("plugin stress: a hung job that dies without dumping — hang reads the live files",
          "[plugin][stress]") {
  const PluginLibrary& lib = require_plugin();
  for (const int signal : {SIGKILL, SIGTERM, SIGABRT, SIGSEGV, kNoSignal}) {
    DYNAMIC_SECTION("ended by " << (signal == kNoSignal ? "_exit" : strsignal(signal))) {
      PluginEnv env;
      const uint64_t hash = 0x4b11ed0000000000ull + static_cast<uint64_t>(signal);
      for (int rank_id = 0; rank_id < 2; ++rank_id) {
        const ChildOutcome child = run_rank(lib, hash, rank_id, signal);
        INFO(child.text());
        CHECK(child.failures().empty());
        if (signal == kNoSignal) {
          CHECK(child.exited);
        } else {
          CHECK_FALSE(child.exited);
          CHECK(child.signal == signal);
        }
      }

      // No dump was written; each rank's live file holds all of its records.
      CHECK(entries_in(env.dir.path()) ==
            std::vector<std::string>{live_file_name(hash, 0), live_file_name(hash, 1)});
      for (int rank_id = 0; rank_id < 2; ++rank_id) {
        const ingest::NpktDump dump = read_dump(env.file(live_file_name(hash, rank_id)));
        CHECK(dump.is_live());
        CHECK(dump.comm.end_reason == format::kEndLive);
        CHECK(dump.comm.rank == rank_id);
        // 8 records per completed AllReduce; rank 0 also started seq 137 (start, stop, 2 kernels).
        CHECK(dump.records.size() == kStuckSeq * 8 + (rank_id == 0 ? 4 : 0));
      }

      const CliRun run = run_cli({"hang", env.dir.path(), "--format", "json"});
      INFO(run.out << run.err);
      CHECK(run.exit_code == 1);
      simdjson::dom::parser parser;
      const simdjson::dom::element doc = parser.parse(run.out);
      const simdjson::dom::element comm = doc["communicators"].at(0);
      CHECK(comm["func"].get_string().value() == "AllReduce");
      CHECK(comm["seq"].get_uint64().value() == kStuckSeq);
      CHECK(comm["ranks_missing"].get_array().size() == 1);
      CHECK(comm["ranks_missing"].at(0).get_int64().value() == 1);
      CHECK(comm["ranks_in_flight"].get_array().size() == 1);
      CHECK(comm["ranks_in_flight"].at(0).get_int64().value() == 0);
      CHECK(comm["ranks"].at(0)["detail"].get_string().value() ==
            "kernel running on channel(s) 0, 1 (0 of 2 finished)");
      CHECK(comm["ranks"].at(1)["last_completed"].get_string().value() == "AllReduce seq 136");
    }
  }
}

}  // namespace npkit::test
