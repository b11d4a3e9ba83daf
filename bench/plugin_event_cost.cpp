// plugin_event_cost.cpp — what one NCCL profiler callback costs in the built capture plugin.
// Contract: `plugin_event_cost PATH/libnccl-profiler-npkit.so [iterations]` dlopens the plugin,
// initialises communicators through ncclProfiler_v5 (dumps go to a temporary directory that is
// removed at the end), and from 1, 2 and 4 threads drives a representative mix of callbacks:
//   KernelCh-like:  start (parent = a Coll), state 22 with pTimer, stop           (3 callbacks)
//   ProxyStep-like: start (parent = a ProxyOp), states 8, 20, 9 with transSize, stop  (5 callbacks)
// `iterations` rounds of both per thread (default 25000: 200,000 callbacks per thread, all
// recorded in the default 64 MiB buffer). Cost per callback = the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID: not inflated when threads outnumber cores) / its callbacks, averaged
// over threads; each configuration runs 5 times on a fresh communicator and the table gives the
// median (min, max) plus the wall-clock throughput of all threads together. The "drop" rows
// repeat the mix on a communicator whose 1 MiB buffer is already full (every record dropped).
// Exit status 0 when everything ran, 1 when the plugin could not be loaded or initialised.
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "nccl_plugin/nccl_profiler_abi.hpp"

namespace {

using namespace npkit::nccl_abi;

constexpr int kRuns = 5;
constexpr int kCallbacksPerIteration = 8;

void quiet_logger(ncclDebugLogLevel, unsigned long, const char*, int, const char*, ...) {}

int64_t thread_cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int64_t wall_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

struct Run {
  double ns_per_callback = 0;  // mean over threads of thread CPU time / callbacks
  double callbacks_per_s = 0;  // all threads, wall clock
};

// One thread's share: `iterations` KernelCh-like and ProxyStep-like events.
void drive(ncclProfiler_v5_t* profiler, void* context, void* coll, void* proxy_op, int iterations) {
  ncclProfilerEventDescr_v5_t kernel{};
  kernel.type = 64;  // KernelCh
  kernel.parentObj = coll;
  ncclProfilerEventDescr_v5_t step{};
  step.type = 16;  // ProxyStep
  step.parentObj = proxy_op;
  ncclProfilerEventStateArgs_v5_t args{};
  for (int i = 0; i < iterations; ++i) {
    void* handle = nullptr;
    kernel.kernelCh.channelId = static_cast<uint8_t>(i & 31);
    kernel.kernelCh.pTimer = 1000000u + static_cast<uint64_t>(i);
    profiler->startEvent(context, &handle, &kernel);
    args.kernelCh.pTimer = 2000000u + static_cast<uint64_t>(i);
    profiler->recordEventState(handle, 22, &args);
    profiler->stopEvent(handle);

    step.proxyStep.step = i;
    profiler->startEvent(context, &handle, &step);
    args.proxyStep.transSize = 1u << 20;
    profiler->recordEventState(handle, 8, &args);
    profiler->recordEventState(handle, 20, &args);
    profiler->recordEventState(handle, 9, &args);
    profiler->stopEvent(handle);
  }
}

struct Communicator {
  void* context = nullptr;
  void* coll = nullptr;
  void* proxy_op = nullptr;
};

bool open_communicator(ncclProfiler_v5_t* profiler, uint64_t comm_id, Communicator* out) {
  int mask = 0;
  profiler->init(&out->context, comm_id, &mask, "bench", 1, 1, 0, quiet_logger);
  if (out->context == nullptr) return false;
  ncclProfilerEventDescr_v5_t coll{};
  coll.type = 2;  // Coll
  coll.coll.func = "AllReduce";
  coll.coll.datatype = "ncclFloat32";
  coll.coll.algo = "RING";
  coll.coll.proto = "SIMPLE";
  profiler->startEvent(out->context, &out->coll, &coll);
  ncclProfilerEventDescr_v5_t op{};
  op.type = 8;  // ProxyOp
  op.parentObj = out->coll;
  op.proxyOp.pid = getpid();
  profiler->startEvent(out->context, &out->proxy_op, &op);
  return true;
}

Run measure(ncclProfiler_v5_t* profiler, const Communicator& comm, int threads, int iterations) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<int64_t> cpu(threads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      const int64_t start = thread_cpu_ns();
      drive(profiler, comm.context, comm.coll, comm.proxy_op, iterations);
      cpu[t] = thread_cpu_ns() - start;
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const int64_t wall_start = wall_ns();
  go.store(true);
  for (auto& worker : workers) worker.join();
  const int64_t wall = wall_ns() - wall_start;

  const double callbacks = static_cast<double>(iterations) * kCallbacksPerIteration;
  Run run;
  for (int64_t ns : cpu) run.ns_per_callback += static_cast<double>(ns) / callbacks / threads;
  run.callbacks_per_s = callbacks * threads / (static_cast<double>(wall) / 1e9);
  return run;
}

void print_row(const char* scenario, int threads, std::vector<Run> runs) {
  std::sort(runs.begin(), runs.end(),
            [](const Run& a, const Run& b) { return a.ns_per_callback < b.ns_per_callback; });
  std::vector<double> rates;
  for (const Run& run : runs) rates.push_back(run.callbacks_per_s);
  std::sort(rates.begin(), rates.end());
  std::printf("| %-8s | %7d | %12.1f | %6.1f | %6.1f | %17.1f |\n", scenario, threads,
              runs[runs.size() / 2].ns_per_callback, runs.front().ns_per_callback,
              runs.back().ns_per_callback, rates[rates.size() / 2] / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PATH/libnccl-profiler-npkit.so [iterations]\n", argv[0]);
    return 1;
  }
  const int iterations = argc > 2 ? std::max(1, std::atoi(argv[2])) : 25000;
  char dir_template[] = "/tmp/npkit-bench-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  const std::string dump_dir = dir_template;
  setenv("NPKIT_DUMP_DIR", dump_dir.c_str(), 1);
  setenv("NPKIT_EVENTS", "all", 1);

  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  auto* profiler =
      library ? static_cast<ncclProfiler_v5_t*>(dlsym(library, "ncclProfiler_v5")) : nullptr;
  if (profiler == nullptr) {
    std::fprintf(stderr, "cannot load ncclProfiler_v5 from %s: %s\n", argv[1], dlerror());
    return 1;
  }

  std::printf("plugin_event_cost: %s, %u hardware threads\n", argv[1],
              std::thread::hardware_concurrency());
  std::printf("%d iterations x %d callbacks per thread, median (min, max) of %d runs\n\n",
              iterations, kCallbacksPerIteration, kRuns);
  std::printf("| path     | threads | ns/callback  |  min   |  max   | Mcallbacks/s (all) |\n");
  std::printf("|----------|---------|--------------|--------|--------|--------------------|\n");
  uint64_t comm_id = 0xbe9c000000000000ull;
  for (const char* scenario : {"record", "drop"}) {
    const bool drop = scenario[0] == 'd';
    setenv("NPKIT_BUFFER_SIZE_MB", drop ? "1" : "64", 1);
    for (int threads : {1, 2, 4}) {
      std::vector<Run> runs;
      for (int run = 0; run < kRuns; ++run) {
        Communicator comm;
        if (!open_communicator(profiler, ++comm_id, &comm)) {
          std::fprintf(stderr, "init failed (dump directory %s)\n", dump_dir.c_str());
          return 1;
        }
        if (drop) drive(profiler, comm.context, comm.coll, comm.proxy_op, 16384 / 8 + 1);
        runs.push_back(measure(profiler, comm, threads, iterations));
        profiler->finalize(comm.context);
        std::filesystem::remove_all(dump_dir);
        std::filesystem::create_directories(dump_dir);
      }
      print_row(scenario, threads, runs);
    }
  }
  std::filesystem::remove_all(dump_dir);
  return 0;
}
