// Many threads on one communicator, and communicators created and destroyed from several threads
// at once (NCCL profiler reference 3.7: NCCL serialises nothing). Every record must be in the dump
// exactly once, attributed to the thread that made the call.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/host_clock.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {
namespace {

template <typename Payload>
Payload payload_of(const format::ProfilerRecord& record) {
  Payload p;
  std::memcpy(&p, record.payload, sizeof(p));
  return p;
}

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

uint64_t state_key(uint64_t thread, uint64_t i) {
  return (thread << 40) | (i << 1);
}

TEST_CASE("plugin: 8 threads x 10,000 callbacks on one communicator, parents across threads",
          "[plugin][threads]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  constexpr int kThreads = 8;
  constexpr int kIterations = 2500;  // start, state 8, state 9, stop: 10,000 callbacks a thread
  const uint64_t hash = 0x7e57000000000601ull;
  CommDriver comm({.comm_hash = hash, .nranks = 2});

  // The parents: one ProxyOp per channel, started on this thread; thread t's steps belong to the
  // op of channel (t + 1) % 8.
  std::vector<void*> ops;
  for (int t = 0; t < kThreads; ++t) {
    ops.push_back(comm.start(
        proxy_op_descr(nullptr, 0, ::getpid(), static_cast<uint8_t>(t), 1, kIterations, 4096, 1)));
  }

  std::vector<int32_t> tids(kThreads);
  std::vector<std::vector<void*>> handles(kThreads);
  std::atomic<int> failed_calls{0};
  StartLine start_line(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      tids[t] = current_tid();
      handles[t].reserve(kIterations);
      start_line.arrive_and_wait();
      for (int i = 0; i < kIterations; ++i) {
        abi::EventDescrV5 d = proxy_step_descr(ops[(t + 1) % kThreads], 0, i);
        void* h = nullptr;
        if (lib.v5->startEvent(comm.context(), &h, &d) != abi::kSuccess || h == nullptr) {
          failed_calls.fetch_add(1);
          continue;
        }
        handles[t].push_back(h);
        abi::StateArgs first = trans_size_args(state_key(t, i));
        abi::StateArgs second = trans_size_args(state_key(t, i) | 1);
        if (lib.v5->recordEventState(h, static_cast<abi::EventState>(8), &first) ||
            lib.v5->recordEventState(h, static_cast<abi::EventState>(9), &second) ||
            lib.v5->stopEvent(h)) {
          failed_calls.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (void* op : ops) comm.stop(op);
  comm.finalize();

  CHECK(failed_calls.load() == 0);
  std::set<void*> distinct;
  for (const auto& list : handles) distinct.insert(list.begin(), list.end());
  CHECK(distinct.size() == size_t{kThreads} * kIterations);

  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 0)));
  const uint64_t expected_records = 2 * kThreads + uint64_t{kThreads} * kIterations * 4;
  CHECK(dump.comm.records_attempted == expected_records);
  CHECK(dump.comm.records_dropped == 0);
  CHECK(dump.comm.records_incomplete == 0);
  REQUIRE(dump.records.size() == expected_records);

  std::map<uint32_t, int> thread_of_slot;  // Threads slot -> worker index
  for (const format::ThreadEntry& entry : dump.threads) {
    for (int t = 0; t < kThreads; ++t) {
      if (entry.os_tid == tids[t]) thread_of_slot[entry.slot] = t;
    }
  }
  // The ProxyOps are the first 8 records (started before any worker ran), channel = index.
  std::map<int, uint64_t> op_id_of_channel;
  for (int t = 0; t < kThreads; ++t) {
    const format::ProfilerRecord& rec = dump.records[t];
    REQUIRE(rec.kind == format::kRecordStart);
    op_id_of_channel[payload_of<format::ProxyOpPayload>(rec).channel] = rec.event_id;
  }

  // (worker, iteration) of each step start by event id; every call found exactly once.
  std::map<uint64_t, std::pair<int, int>> step_of_id;
  std::map<std::tuple<int, int, int>, int> seen;  // (worker, iteration, kind*100+state) -> count
  std::map<int, std::vector<const format::ProfilerRecord*>> per_worker;
  size_t bad = 0;
  for (const format::ProfilerRecord& rec : dump.records) {
    auto worker = thread_of_slot.find(rec.thread);
    if (worker == thread_of_slot.end()) continue;  // this thread's ProxyOp records
    const int t = worker->second;
    per_worker[t].push_back(&rec);
    if (rec.kind == format::kRecordStart) {
      const int i = payload_of<format::ProxyStepPayload>(rec).step;
      if (rec.type != format::kTypeProxyStep ||
          rec.parent_id != op_id_of_channel[(t + 1) % kThreads] ||
          !step_of_id.emplace(rec.event_id, std::make_pair(t, i)).second) {
        ++bad;
      }
      ++seen[{t, i, 100}];
      continue;
    }
    auto step = step_of_id.find(rec.event_id);
    if (step == step_of_id.end() || step->second.first != t) {
      ++bad;  // a stop or state before its start, or on another thread than its start
      continue;
    }
    const auto [st, si] = step->second;
    if (rec.kind == format::kRecordState) {
      const uint64_t value = payload_of<format::StatePayload>(rec).value;
      if (value != (state_key(st, si) | (rec.word == 9 ? 1 : 0))) ++bad;
      ++seen[{st, si, 300 + static_cast<int>(rec.word)}];
    } else {
      ++seen[{st, si, 200}];
    }
  }
  CHECK(bad == 0);
  CHECK(thread_of_slot.size() == size_t{kThreads});
  CHECK(seen.size() == size_t{kThreads} * kIterations * 4);
  size_t not_once = 0;
  for (const auto& [key, count] : seen) not_once += count != 1;
  CHECK(not_once == 0);
  // Per thread, the dump keeps the order of that thread's calls and its clock never goes back.
  for (const auto& [t, records] : per_worker) {
    INFO("worker " << t);
    REQUIRE(records.size() == size_t{kIterations} * 4);
    size_t out_of_order = 0;
    for (size_t k = 0; k < records.size(); ++k) {
      const uint8_t kinds[4] = {format::kRecordStart, format::kRecordState, format::kRecordState,
                                format::kRecordStop};
      if (records[k]->kind != kinds[k % 4]) ++out_of_order;
      if (k > 0 && records[k]->host_ns < records[k - 1]->host_ns) ++out_of_order;
    }
    CHECK(out_of_order == 0);
  }
}

TEST_CASE("plugin: communicators initialized and finalized from 6 threads at once",
          "[plugin][threads]") {
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;
  constexpr int kThreads = 6;
  constexpr int kRounds = 3;
  constexpr int kEvents = 500;  // start + stop each
  auto hash_of = [](int t, int round) { return 0x7e57000000000700ull + t * 16 + round; };

  int shared_mask = 0;  // NCCL passes one process-wide mask to every init
  std::vector<int32_t> tids(kThreads);
  std::atomic<int> failed_calls{0};
  StartLine start_line(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      tids[t] = current_tid();
      start_line.arrive_and_wait();
      for (int round = 0; round < kRounds; ++round) {
        void* context = nullptr;
        if (lib.v5->init(&context, hash_of(t, round), &shared_mask, "concurrent", 1, kThreads, t,
                         capture_log) != abi::kSuccess ||
            context == nullptr) {
          failed_calls.fetch_add(1);
          continue;
        }
        for (int i = 0; i < kEvents; ++i) {
          abi::EventDescrV5 d =
              kernel_ch_descr(nullptr, static_cast<uint8_t>(t), hash_of(t, round) * 1000 + i);
          void* h = nullptr;
          if (lib.v5->startEvent(context, &h, &d) != abi::kSuccess || h == nullptr ||
              lib.v5->stopEvent(h) != abi::kSuccess) {
            failed_calls.fetch_add(1);
          }
        }
        if (lib.v5->finalize(context) != abi::kSuccess) failed_calls.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(failed_calls.load() == 0);
  CHECK(shared_mask == static_cast<int>(abi::kAllV5Events));

  std::vector<std::string> expected_files;
  for (int t = 0; t < kThreads; ++t) {
    for (int round = 0; round < kRounds; ++round) {
      expected_files.push_back(dump_file_name(hash_of(t, round), t));
    }
  }
  std::sort(expected_files.begin(), expected_files.end());
  REQUIRE(entries_in(env.dir.path()) == expected_files);

  for (int t = 0; t < kThreads; ++t) {
    for (int round = 0; round < kRounds; ++round) {
      INFO("thread " << t << " round " << round);
      const NpktDump dump = read_dump(env.file(dump_file_name(hash_of(t, round), t)));
      CHECK(dump.comm.comm_hash == hash_of(t, round));
      CHECK(dump.comm.rank == t);
      CHECK(dump.comm.nranks == kThreads);
      CHECK(dump.comm.end_reason == format::kEndFinalize);
      CHECK(dump.comm.records_attempted == 2 * kEvents);
      CHECK(dump.meta("comm_name") == "concurrent");
      REQUIRE(dump.records.size() == 2 * kEvents);
      std::map<uint32_t, int32_t> tid_of_slot;
      for (const auto& entry : dump.threads) tid_of_slot[entry.slot] = entry.os_tid;
      std::set<uint64_t> starts;
      size_t bad = 0;
      for (size_t k = 0; k < dump.records.size(); ++k) {
        const format::ProfilerRecord& rec = dump.records[k];
        if (tid_of_slot[rec.thread] != tids[t]) ++bad;
        if (k % 2 == 0) {
          const auto kernel = payload_of<format::KernelChPayload>(rec);
          if (rec.kind != format::kRecordStart ||
              kernel.gpu_start_ns != hash_of(t, round) * 1000 + k / 2 ||
              !starts.insert(rec.event_id).second) {
            ++bad;
          }
        } else if (rec.kind != format::kRecordStop ||
                   rec.event_id != dump.records[k - 1].event_id) {
          ++bad;
        }
      }
      CHECK(bad == 0);
    }
  }
}

}  // namespace
}  // namespace npkit::test
