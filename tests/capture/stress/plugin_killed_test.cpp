// A job that hangs and then dies without writing its dumps — killed by the scheduler (SIGTERM,
// SIGKILL), aborted (SIGABRT, as PyTorch's NCCL watchdog does), crashed in the application
// (SIGSEGV) or ended with _exit(). Each rank is its own process, as in a real job: rank 0 runs
// AllReduce seq 0..136 and enters seq 137 (its kernel running on two channels, waiting), rank 1
// completes seq 0..136 and never calls seq 137; then both end the same way. The live files hold
// every record of both, and `npkit-analyze hang` names the collective and the ranks from them.
// Other shapes, each ended one way: rank 0 stuck in a proxy step (SIGKILL), the two ranks in
// different collectives at the same seq (SIGABRT), and nothing stuck (SIGTERM). The live files,
// gzip-compressed as users move them off a cluster, read as they are.
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
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
#include "support/gzip_bytes.hpp"

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

enum class Shape {
  kHang,       // rank 0 in AllReduce seq 137 on two channels, rank 1 never calls it
  kProxyStep,  // rank 0 in seq 137 waits in its third of four send steps to rank 1
  kMismatch,   // rank 0 in AllReduce seq 137, rank 1 in AllGather seq 137
  kNothingStuck,
};

// What rank `rank_id` does after seq 0..136, before it ends.
void run_last(Rank& rank, int rank_id, Shape shape) {
  if (shape == Shape::kNothingStuck || (rank_id == 1 && shape != Shape::kMismatch)) return;
  const char* func = rank_id == 1 ? "AllGather" : "AllReduce";
  void* coll = rank.start(coll_descr(nullptr, rank_id, kStuckSeq, func, 1024, 0, "ncclFloat32", 2,
                                     8, "RING", "SIMPLE", nullptr));
  rank.lib.v5->stopEvent(coll);
  rank.start(kernel_ch_descr(coll, 0, 10'000 * kStuckSeq));
  if (shape != Shape::kProxyStep) {
    rank.start(kernel_ch_descr(coll, 1, 10'000 * kStuckSeq + 1));
    return;
  }
  void* op = rank.start(proxy_op_descr(coll, 0, ::getpid(), 0, 1, 4, 65536, 1));
  for (int step = 0; step < 3; ++step) {
    void* handle = rank.start(proxy_step_descr(op, 0, step));
    abi::StateArgs size = trans_size_args(65536);
    rank.lib.v5->recordEventState(
        handle, static_cast<abi::EventState>(format::kStateProxyStepSendWait), &size);
    if (step < 2) rank.lib.v5->stopEvent(handle);
  }
}

// Runs one rank of the job in a child process that then ends by `signal` (or _exit).
ChildOutcome run_rank(const PluginLibrary& lib, uint64_t hash, int rank_id, Shape shape,
                      int signal) {
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
    run_last(rank, rank_id, shape);
    report.note("rank " + std::to_string(rank_id) + " ends");
    if (signal == kNoSignal) ::_exit(0);
    // The default action, not the test framework's (or a sanitizer's) handler: SIGSEGV ends the
    // process as the application's crash would.
    std::signal(signal, SIG_DFL);
    ::kill(::getpid(), signal);
  });
}

// Both ranks of a job of `shape` ended by `signal`; `npkit-analyze hang --format json` on their
// live files (its exit code in *exit_code).
simdjson::dom::element run_job(const PluginEnv& env, uint64_t hash, Shape shape, int signal,
                               simdjson::dom::parser& parser, int* exit_code) {
  const PluginLibrary& lib = require_plugin();
  for (int rank_id = 0; rank_id < 2; ++rank_id) {
    const ChildOutcome child = run_rank(lib, hash, rank_id, shape, signal);
    INFO(child.text());
    CHECK(child.failures().empty());
    if (signal == kNoSignal) {
      CHECK(child.exited);
    } else {
      CHECK_FALSE(child.exited);
      CHECK(child.signal == signal);
    }
  }
  CHECK(entries_in(env.dir.path()) ==
        std::vector<std::string>{live_file_name(hash, 0), live_file_name(hash, 1)});
  const CliRun run = run_cli({"hang", env.dir.path(), "--format", "json"});
  INFO(run.out << run.err);
  *exit_code = run.exit_code;
  return parser.parse(run.out);
}

}  // namespace

TEST_CASE("plugin stress: a hung job that dies without dumping — hang reads the live files",
          "[plugin][stress]") {
  for (const int signal : {SIGKILL, SIGTERM, SIGABRT, SIGSEGV, kNoSignal}) {
    DYNAMIC_SECTION("ended by " << (signal == kNoSignal ? "_exit" : strsignal(signal))) {
      PluginEnv env;
      const uint64_t hash = 0x4b11ed0000000000ull + static_cast<uint64_t>(signal);
      simdjson::dom::parser parser;
      int exit_code = 0;
      const simdjson::dom::element doc =
          run_job(env, hash, Shape::kHang, signal, parser, &exit_code);
      // No dump was written; each rank's live file holds all of its records: 8 per completed
      // AllReduce, and rank 0's start of seq 137 (Coll start and stop, two KernelCh starts).
      for (int rank_id = 0; rank_id < 2; ++rank_id) {
        const NpktDump dump = read_dump(env.file(live_file_name(hash, rank_id)));
        CHECK(dump.is_live());
        CHECK(dump.comm.end_reason == format::kEndLive);
        CHECK(dump.comm.rank == rank_id);
        CHECK(dump.records.size() == kStuckSeq * 8 + (rank_id == 0 ? 4 : 0));
      }
      CHECK(exit_code == 1);
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

TEST_CASE("plugin stress: killed jobs of other shapes — a proxy step, a mismatch, nothing stuck",
          "[plugin][stress]") {
  simdjson::dom::parser parser;
  int exit_code = 0;
  SECTION("rank 0 waits in a send step to rank 1, SIGKILL") {
    PluginEnv env;
    const simdjson::dom::element doc =
        run_job(env, 0x4b11ed0000001001ull, Shape::kProxyStep, SIGKILL, parser, &exit_code);
    CHECK(exit_code == 1);
    const simdjson::dom::element comm = doc["communicators"].at(0);
    CHECK(comm["func"].get_string().value() == "AllReduce");
    CHECK(comm["seq"].get_uint64().value() == kStuckSeq);
    CHECK(comm["ranks_missing"].at(0).get_int64().value() == 1);
    // Steps 0 and 1 done, step 2 (the third of four) waiting.
    CHECK_THAT(std::string(comm["ranks"].at(0)["detail"].get_string().value()),
               Catch::Contains("proxy step 3 of 4 on channel 0 sending to rank 1"));
  }
  SECTION("rank 0 in AllReduce seq 137, rank 1 in AllGather seq 137, SIGABRT") {
    PluginEnv env;
    const simdjson::dom::element doc =
        run_job(env, 0x4b11ed0000001002ull, Shape::kMismatch, SIGABRT, parser, &exit_code);
    CHECK(exit_code == 1);
    const simdjson::dom::element comm = doc["communicators"].at(0);
    CHECK(comm["seq"].get_uint64().value() == kStuckSeq);
    CHECK_THAT(std::string(comm["verdict"].get_string().value()), Catch::Contains("a mismatch"));
  }
  SECTION("every rank completed its last collective, SIGTERM") {
    PluginEnv env;
    run_job(env, 0x4b11ed0000001003ull, Shape::kNothingStuck, SIGTERM, parser, &exit_code);
    CHECK(exit_code == 0);
  }
}

TEST_CASE("plugin stress: the live files of a killed job, gzip-compressed, read as they are",
          "[plugin][stress][gzip]") {
  namespace fs = std::filesystem;
  PluginEnv env;
  const uint64_t hash = 0x4b11ed0000002001ull;
  simdjson::dom::parser parser;
  int exit_code = 0;
  run_job(env, hash, Shape::kHang, SIGKILL, parser, &exit_code);
  REQUIRE(exit_code == 1);
  const std::string dir = env.dir.path();
  const std::vector<std::vector<std::string>> commands = {{"info", dir, "--format", "json"},
                                                          {"report", dir},
                                                          {"hang", dir},
                                                          {"hang", dir, "--format", "json"},
                                                          {"instances", dir}};
  std::vector<CliRun> plain;
  for (const auto& args : commands) plain.push_back(run_cli(args));
  for (int rank_id = 0; rank_id < 2; ++rank_id) {
    const std::string live = env.file(live_file_name(hash, rank_id));
    const std::string gz = gzip_file(live, live + ".gz");
    // A live file reserves its string and thread tables whole, nearly all zeros: gzip shrinks it
    // by far more than this.
    CHECK(fs::file_size(gz) * 20 < fs::file_size(live));
    fs::remove(live);
  }
  // The file names in info, in the reader's warnings and in hang's JSON end in ".gz" now; the
  // rest is the same, byte for byte.
  auto without_gz = [](std::string text) {
    for (auto at = text.find(".live.npkt.gz"); at != std::string::npos;
         at = text.find(".live.npkt.gz", at)) {
      text.erase(at + 10, 3);
    }
    return text;
  };
  for (std::size_t i = 0; i < commands.size(); ++i) {
    INFO(commands[i][0] << (commands[i].size() > 2 ? " --format json" : ""));
    const CliRun compressed = run_cli(commands[i]);
    CHECK(compressed.exit_code == plain[i].exit_code);
    CHECK(without_gz(compressed.err) == plain[i].err);
    CHECK(without_gz(compressed.out) == plain[i].out);
    if (commands[i][0] == "report" || commands[i][0] == "instances") {
      CHECK(compressed.out == plain[i].out);  // no file names
    }
  }
}

}  // namespace npkit::test
