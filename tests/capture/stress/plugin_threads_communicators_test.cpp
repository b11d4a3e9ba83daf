// Many threads calling start/state/stop on several communicators at once (NCCL profiler reference
// 3.7: NCCL serialises nothing), a communicator finalized while threads still record into it, and
// a 1 MB buffer overflowed from 8 threads. Each thread's records in a dump must be exactly its
// own calls, in its order (worker_calls.hpp).
#include <atomic>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/host_clock.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/stress/worker_calls.hpp"

namespace npkit::test {
namespace {

// Spins until every participant has arrived, so the threads really call the plugin together.
class StartLine {
 public:
  explicit StartLine(int participants) : waiting_(participants) {}
  void arrive_and_wait() {
    waiting_.fetch_sub(1);
    while (waiting_.load() > 0) std::this_thread::yield();
  }

 private:
  std::atomic<int> waiting_;
};

std::vector<void*> contexts_of(const std::vector<std::unique_ptr<CommDriver>>& comms) {
  std::vector<void*> contexts;
  for (const auto& comm : comms) contexts.push_back(comm->context());
  return contexts;
}

std::vector<std::unique_ptr<CommDriver>> open_comms(int count, uint64_t first_hash) {
  std::vector<std::unique_ptr<CommDriver>> comms;
  for (int c = 0; c < count; ++c) {
    comms.push_back(std::make_unique<CommDriver>(
        CommSetup{.comm_hash = first_hash + static_cast<uint64_t>(c), .nranks = 2}));
  }
  return comms;
}

// The workers' expectations for communicator `comm` (an empty list for a worker that made none).
std::vector<const ExpectedRecords*> expected_for(const std::vector<Worker>& workers, int comm) {
  static const ExpectedRecords kNone;
  std::vector<const ExpectedRecords*> out;
  for (const Worker& w : workers) {
    auto it = w.expected().find(comm);
    out.push_back(it == w.expected().end() ? &kNone : &it->second);
  }
  return out;
}

uint64_t total_records(const std::vector<const ExpectedRecords*>& lists) {
  uint64_t n = 0;
  for (const ExpectedRecords* list : lists) n += list->size();
  return n;
}

TEST_CASE("plugin stress: 8 threads on 4 communicators, parents within and across communicators",
          "[plugin][stress][threads]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  constexpr int kThreads = 8;
  constexpr int kComms = 4;
  constexpr int kEvents = 3000;  // start, state, stop: 9,000 callbacks a thread
  const uint64_t first_hash = 0x5e55000000000100ull;
  auto comms = open_comms(kComms, first_hash);

  std::vector<Worker> workers;
  for (int t = 0; t < kThreads; ++t) workers.emplace_back(lib, t, contexts_of(comms));
  std::vector<int32_t> tids(kThreads);
  StartLine start_line(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      tids[t] = current_tid();
      std::minstd_rand random(static_cast<unsigned>(t + 1));
      start_line.arrive_and_wait();
      for (int i = 0; i < kEvents; ++i) {
        const int comm = static_cast<int>(random() % kComms);
        const unsigned pick = random() % 10;
        const int parent = pick < 6   ? comm
                           : pick < 8 ? static_cast<int>((comm + 1 + random() % 3) % kComms)
                                      : -1;
        workers[t].event(comm, parent);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (auto& comm : comms) comm->finalize();

  for (const Worker& w : workers) {
    CHECK(w.failures() == 0);
    CHECK(w.null_handles() == 0);
  }
  uint64_t all_records = 0;
  for (int c = 0; c < kComms; ++c) {
    INFO("communicator " << c);
    const NpktDump dump = read_dump(env.file(dump_file_name(first_hash + c, 0)));
    const auto expected = expected_for(workers, c);
    const RecordComparison result = compare_worker_records(dump, tids, expected, false);
    INFO(result.problem_count << " problem(s), first: "
                              << (result.problems.empty() ? "" : result.problems.front()));
    CHECK(result.problem_count == 0);
    CHECK(result.incomplete == 0);
    CHECK(dump.comm.records_attempted == total_records(expected));
    CHECK(dump.comm.records_dropped == 0);
    CHECK(dump.records.size() == total_records(expected));
    all_records += dump.records.size();
  }
  CHECK(all_records == uint64_t{kThreads} * kEvents * 3);
}

TEST_CASE(
    "plugin stress: a communicator finalized while 8 threads record into it and into "
    "another",
    "[plugin][stress][threads]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  constexpr int kThreads = 8;
  constexpr int kBefore = 400;    // events per worker before the finalize may start
  constexpr int kDuring = 20000;  // events per worker at most while the finalize runs
  constexpr int kAfter = 400;     // events per worker after it returned
  const uint64_t first_hash = 0x5e55000000000200ull;
  auto comms = open_comms(2, first_hash);  // 0 is finalized mid-run, 1 lives on

  std::vector<Worker> workers;
  for (int t = 0; t < kThreads; ++t) workers.emplace_back(lib, t, contexts_of(comms));
  std::vector<int32_t> tids(kThreads);
  std::atomic<int> ready{0};
  std::atomic<bool> finalized{false};
  StartLine start_line(kThreads + 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      tids[t] = current_tid();
      start_line.arrive_and_wait();
      for (int i = 0; i < kBefore; ++i) workers[t].event(i % 2, i % 2);
      ready.fetch_add(1);
      // Keep recording during the finalize (at most kDuring events: a finalize slowed by a busy
      // machine must not overflow the other communicator's buffer), then kAfter more events
      // once it returned.
      int after = 0;
      for (int i = 0; after < kAfter; ++i) {
        if (finalized.load()) {
          ++after;
        } else if (i >= kDuring) {
          std::this_thread::yield();
          --i;
          continue;
        }
        workers[t].event(i % 2, i % 2);
      }
    });
  }
  start_line.arrive_and_wait();
  while (ready.load() < kThreads) std::this_thread::yield();
  comms[0]->finalize();
  finalized.store(true);
  for (std::thread& thread : threads) thread.join();
  comms[1]->finalize();

  uint64_t null_handles = 0;
  for (const Worker& w : workers) {
    CHECK(w.failures() == 0);
    null_handles += w.null_handles();
  }
  // Every start on communicator 0 after its dump returned a NULL handle and recorded nothing.
  CHECK(null_handles >= uint64_t{kThreads} * kAfter / 2);

  {
    INFO("the finalized communicator: each thread's first calls, up to the dump, intact");
    const NpktDump dump = read_dump(env.file(dump_file_name(first_hash, 0)));
    const RecordComparison result =
        compare_worker_records(dump, tids, expected_for(workers, 0), true);
    INFO(result.problem_count << " problem(s), first: "
                              << (result.problems.empty() ? "" : result.problems.front()));
    CHECK(result.problem_count == 0);
    CHECK(result.matched + result.incomplete == dump.records.size());
    CHECK(dump.comm.records_incomplete == result.incomplete);
    CHECK(dump.comm.records_attempted == dump.records.size());
    CHECK(dump.comm.records_dropped == 0);
    // At least the events finished before the finalize started are there.
    CHECK(dump.records.size() >= uint64_t{kThreads} * kBefore / 2 * 3);
  }
  {
    INFO("the other communicator: exactly its own calls, none of the closed one's");
    const NpktDump dump = read_dump(env.file(dump_file_name(first_hash + 1, 0)));
    const auto expected = expected_for(workers, 1);
    const RecordComparison result = compare_worker_records(dump, tids, expected, false);
    INFO(result.problem_count << " problem(s), first: "
                              << (result.problems.empty() ? "" : result.problems.front()));
    CHECK(result.problem_count == 0);
    CHECK(dump.records.size() == total_records(expected));
  }
}

TEST_CASE(
    "plugin stress: 8 threads overflow a 1 MB buffer: drops counted exactly, kept records "
    "intact",
    "[plugin][stress][threads]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env(std::nullopt, "1");
  constexpr int kThreads = 8;
  constexpr int kEvents = 1500;                     // 4,500 records a thread
  constexpr uint64_t kCapacity = 1024 * 1024 / 64;  // 16,384 records
  constexpr uint64_t kAttempted = uint64_t{kThreads} * kEvents * 3;
  const uint64_t hash = 0x5e55000000000300ull;
  auto comms = open_comms(1, hash);

  std::vector<Worker> workers;
  for (int t = 0; t < kThreads; ++t) workers.emplace_back(lib, t, contexts_of(comms));
  std::vector<int32_t> tids(kThreads);
  StartLine start_line(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      tids[t] = current_tid();
      start_line.arrive_and_wait();
      for (int i = 0; i < kEvents; ++i) workers[t].event(0, i % 3 == 0 ? -1 : 0);
    });
  }
  for (std::thread& thread : threads) thread.join();
  comms[0]->finalize();

  // A start past the capacity is dropped but still hands out a handle.
  for (const Worker& w : workers) {
    CHECK(w.failures() == 0);
    CHECK(w.null_handles() == 0);
  }
  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 0)));
  CHECK(dump.comm.records_capacity == kCapacity);
  CHECK(dump.comm.records_attempted == kAttempted);
  // Each thread writes segments of 256 records (1/64 of the buffer) of its own: a thread that
  // stopped writing leaves the rest of its last one unused.
  constexpr uint64_t kSegment = kCapacity / 64;
  CHECK(dump.records.size() <= kCapacity);
  CHECK(dump.records.size() >= kCapacity - kThreads * (kSegment - 1));
  CHECK(dump.comm.records_dropped == kAttempted - dump.records.size());
  const RecordComparison result =
      compare_worker_records(dump, tids, expected_for(workers, 0), true);
  INFO(result.problem_count << " problem(s), first: "
                            << (result.problems.empty() ? "" : result.problems.front()));
  CHECK(result.problem_count == 0);
  CHECK(result.matched + result.incomplete == dump.records.size());
}

}  // namespace
}  // namespace npkit::test
