// npkit_device_selftest: the device recorder on a real GPU (device 0). Prints one PASS or FAIL
// line per check and exits 1 if any failed (2 for bad usage or no GPU).
//
//   npkit_device_selftest [--dump-dir DIR]     (the dump check writes there; default a temp dir)
//
// Checks, for events through the handle and through block and warp cursors: event counts per
// block and warp buffer match the kernel's loops; timestamps never go back within a buffer and lie
// between the recorder's clock samples; a tiny buffer keeps its first records and counts the rest;
// blocks and warps without a buffer are counted. Cursors only: a kernel that returns early keeps
// its counts, across launches. Then: reset() empties the buffers; the measured clock64 rate
// converts a clock64 span to the time cudaEvents measured; a buffer written with both clocks is
// refused; a dump file is written and starts right; and the cost of one event, back to back, in
// each form (a cursor event must cost less than a handle event).
#include <cuda_runtime.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "npkit/host.hpp"
#include "selftest_kernels.cuh"

namespace selftest {
namespace {

namespace fmt = npkit::format;

constexpr int kThreads = 128;  // 4 warps
constexpr int kWarps = kThreads / 32;
constexpr long long kSpinCycles = 4000;

template <class BlockRecorder, class WarpRecorder>
__device__ __forceinline__ void loop_rounds(BlockRecorder& block, WarpRecorder& warp,
                                            int iterations, long long spin_cycles) {
  for (int i = 0; i < iterations; ++i) {
    NPKIT_EVENT_ENTRY(block, SELFTEST_LOOP, (i + 1) * 16ull, i);
    const long long start = clock64();
    while (clock64() - start < spin_cycles) {
    }
    NPKIT_WARP_EVENT_INSTANT(warp, SELFTEST_WARP_TICK, 0, i);
    __syncthreads();
    NPKIT_EVENT_EXIT(block, SELFTEST_LOOP, (i + 1) * 16ull, i);
  }
}

__global__ void loop_kernel(npkit::DeviceRecorder rec, int iterations, long long spin_cycles) {
  loop_rounds(rec, rec, iterations, spin_cycles);
}

__global__ void cursor_loop_kernel(npkit::DeviceRecorder rec, int iterations,
                                   long long spin_cycles) {
  NPKIT_BLOCK_RECORDER(block, rec);
  NPKIT_WARP_RECORDER(warp, rec);
  loop_rounds(block, warp, iterations, spin_cycles);
}

__global__ void early_return_kernel(npkit::DeviceRecorder rec, int iterations) {
  NPKIT_BLOCK_RECORDER(block, rec);
  NPKIT_WARP_RECORDER(warp, rec);
  for (int i = 0; i < iterations; ++i) {
    NPKIT_EVENT_ENTRY(block, SELFTEST_LOOP, 0, i);
    NPKIT_WARP_EVENT_INSTANT(warp, SELFTEST_WARP_TICK, 0, i);
    if (static_cast<unsigned>(i) == blockIdx.x) return;
    __syncthreads();
    NPKIT_EVENT_EXIT(block, SELFTEST_LOOP, 0, i);
  }
}

__global__ void nothing_cost_kernel(int events, bool acquire, const unsigned long long* word,
                                    long long* cost) {
  time_back_to_back(events, acquire, word, cost, [](int) -> unsigned long long { return 0; });
}

__global__ void handle_cost_kernel(npkit::DeviceRecorder rec, int events, bool acquire,
                                   const unsigned long long* word, long long* cost) {
  time_back_to_back(events, acquire, word, cost, [&](int i) -> unsigned long long {
    NPKIT_EVENT_INSTANT(rec, SELFTEST_COST, 0, i);
    return 0;
  });
}

__global__ void cursor_cost_kernel(npkit::DeviceRecorder rec, int events, bool acquire,
                                   const unsigned long long* word, long long* cost) {
  NPKIT_BLOCK_RECORDER(cursor, rec);
  time_back_to_back(events, acquire, word, cost, [&](int i) -> unsigned long long {
    NPKIT_EVENT_INSTANT(cursor, SELFTEST_COST, 0, i);
    return 0;
  });
}

std::string cuda_problem(const char* what, cudaError_t status) {
  return status == cudaSuccess ? "" : std::string(what) + ": " + cudaGetErrorString(status);
}

std::unique_ptr<npkit::DeviceEventRecorder> make_recorder(uint32_t blocks, uint32_t warps,
                                                          uint64_t records, std::string* problem) {
  npkit::DeviceEventRecorder::Options options;
  options.cuda_device = 0;
  options.blocks = blocks;
  options.warps_per_block = warps;
  options.records_per_buffer = records;
  options.name = "selftest";
  return npkit::DeviceEventRecorder::create(options, problem);
}

std::string run_loops(const npkit::DeviceEventRecorder& recorder, EventForm form, int blocks,
                      int iterations, int launches) {
  for (int launch = 0; launch < launches; ++launch) {
    if (std::string p =
            cuda_problem("loop kernel", launch_loop_kernel(form, recorder.handle(), blocks,
                                                           kThreads, iterations, kSpinCycles, 0));
        !p.empty()) {
      return p;
    }
  }
  return cuda_problem("cudaDeviceSynchronize", cudaDeviceSynchronize());
}

// The expected block stream: `launches` x `iterations` ENTRY/EXIT pairs.
std::string check_block_stream(const npkit::CapturedStream& s, int iterations, int launches) {
  const uint64_t expected = 2ull * iterations * launches;
  if (s.info.records_written != expected || s.info.records_dropped != 0) {
    return "block " + std::to_string(s.info.block) + ": " + std::to_string(s.info.records_written) +
           " written, " + std::to_string(s.info.records_dropped) + " dropped; expected " +
           std::to_string(expected) + ", 0";
  }
  for (uint64_t k = 0; k < s.records.size(); ++k) {
    const fmt::EventRecord& r = s.records[k];
    const uint32_t i = static_cast<uint32_t>((k / 2) % iterations);
    const uint16_t id =
        k % 2 == 0 ? NPKIT_EVENT_SELFTEST_LOOP_ENTRY : NPKIT_EVENT_SELFTEST_LOOP_EXIT;
    if (r.id != id || r.user != i || r.size != (i + 1) * 16ull) {
      return "block " + std::to_string(s.info.block) + " record " + std::to_string(k) + ": id " +
             std::to_string(r.id) + " user " + std::to_string(r.user) + " size " +
             std::to_string(r.size) + "; expected id " + std::to_string(id) + " user " +
             std::to_string(i) + " size " + std::to_string((i + 1) * 16ull);
    }
    if (k > 0 && r.timestamp < s.records[k - 1].timestamp) {
      return "block " + std::to_string(s.info.block) + " record " + std::to_string(k) +
             ": timestamp goes back";
    }
    if (k % 2 == 1 && r.timestamp <= s.records[k - 1].timestamp) {
      return "block " + std::to_string(s.info.block) + " pair " + std::to_string(k / 2) +
             ": EXIT not after ENTRY";
    }
  }
  return "";
}

std::string check_warp_stream(const npkit::CapturedStream& s, int iterations, int launches) {
  const uint64_t expected = 1ull * iterations * launches;
  if (s.info.records_written != expected || s.info.records_dropped != 0) {
    return "block " + std::to_string(s.info.block) + " warp " + std::to_string(s.info.warp) + ": " +
           std::to_string(s.info.records_written) + " written; expected " +
           std::to_string(expected);
  }
  for (uint64_t k = 0; k < s.records.size(); ++k) {
    const fmt::EventRecord& r = s.records[k];
    if (r.id != NPKIT_EVENT_SELFTEST_WARP_TICK || r.user != k % iterations) {
      return "warp record " + std::to_string(k) + ": id " + std::to_string(r.id) + " user " +
             std::to_string(r.user);
    }
    if (k > 0 && r.timestamp < s.records[k - 1].timestamp) {
      return "warp record " + std::to_string(k) + ": timestamp goes back";
    }
  }
  return "";
}

std::string counts_and_order(EventForm form) {
  const int blocks = 4, iterations = 10, launches = 2;
  std::string problem;
  auto recorder = make_recorder(blocks, kWarps, 0, &problem);
  if (recorder == nullptr) return problem;
  if (problem = run_loops(*recorder, form, blocks, iterations, launches); !problem.empty())
    return problem;
  npkit::GpuCapture capture;
  if (!recorder->capture(&capture, &problem)) return problem;
  if (capture.streams.size() != static_cast<size_t>(blocks + blocks * kWarps)) {
    return std::to_string(capture.streams.size()) + " streams, expected " +
           std::to_string(blocks + blocks * kWarps);
  }
  if (capture.events_without_buffer != 0) return "events without a buffer";
  uint64_t first_gpu_ns = ~0ull, last_gpu_ns = 0;
  for (const npkit::CapturedStream& s : capture.streams) {
    if (s.info.clock != fmt::kStreamClockGlobalTimer) return "a stream not on %globaltimer";
    problem = s.info.source == fmt::kStreamGpuBlock ? check_block_stream(s, iterations, launches)
                                                    : check_warp_stream(s, iterations, launches);
    if (!problem.empty()) return problem;
    first_gpu_ns = std::min<uint64_t>(first_gpu_ns, s.records.front().timestamp);
    last_gpu_ns = std::max<uint64_t>(last_gpu_ns, s.records.back().timestamp);
  }
  if (capture.clock_samples.size() != 2) {
    return "expected 2 clock samples, got " + std::to_string(capture.clock_samples.size());
  }
  const uint64_t init_ns = capture.clock_samples[0].gpu_ns;
  const uint64_t end_ns = capture.clock_samples[1].gpu_ns;
  if (first_gpu_ns < init_ns || last_gpu_ns > end_ns) {
    return "event timestamps [" + std::to_string(first_gpu_ns) + ", " +
           std::to_string(last_gpu_ns) + "] outside the clock samples [" + std::to_string(init_ns) +
           ", " + std::to_string(end_ns) + "]";
  }
  std::printf("  %zu streams, events span %.3f ms of %%globaltimer\n", capture.streams.size(),
              (last_gpu_ns - first_gpu_ns) / 1e6);
  return "";
}

std::string overflow_counted(EventForm form) {
  const int blocks = 2, iterations = 10;
  std::string problem;
  auto recorder = make_recorder(blocks, kWarps, 5, &problem);
  if (recorder == nullptr) return problem;
  if (problem = run_loops(*recorder, form, blocks, iterations, 1); !problem.empty()) return problem;
  npkit::GpuCapture capture;
  if (!recorder->capture(&capture, &problem)) return problem;
  for (const npkit::CapturedStream& s : capture.streams) {
    const bool block = s.info.source == fmt::kStreamGpuBlock;
    const uint64_t dropped = block ? 2 * iterations - 5 : iterations - 5;
    if (s.info.records_written != 5 || s.info.records_dropped != dropped || s.records.size() != 5) {
      return std::string(block ? "block" : "warp") +
             " stream: " + std::to_string(s.info.records_written) + " written, " +
             std::to_string(s.info.records_dropped) + " dropped; expected 5, " +
             std::to_string(dropped);
    }
    const uint32_t first_users[5] = {0, 0, 1, 1, 2};
    for (int k = 0; k < 5; ++k) {
      const uint32_t user = block ? first_users[k] : static_cast<uint32_t>(k);
      if (s.records[k].user != user) return "the kept records are not the first ones";
    }
  }
  return capture.streams.size() == static_cast<size_t>(blocks + blocks * kWarps)
             ? ""
             : "unexpected stream count";
}

std::string unbuffered_counted(EventForm form) {
  const int buffered_blocks = 2, launched_blocks = 4, iterations = 3;
  std::string problem;
  auto recorder = make_recorder(buffered_blocks, 0, 0, &problem);
  if (recorder == nullptr) return problem;
  if (problem = run_loops(*recorder, form, launched_blocks, iterations, 1); !problem.empty()) {
    return problem;
  }
  npkit::GpuCapture capture;
  if (!recorder->capture(&capture, &problem)) return problem;
  // Blocks 2, 3 lose their 2 * iterations block events; every warp loses its iterations ticks.
  const uint64_t expected = (launched_blocks - buffered_blocks) * 2ull * iterations +
                            launched_blocks * kWarps * 1ull * iterations;
  if (capture.events_without_buffer != expected) {
    return std::to_string(capture.events_without_buffer) + " events without a buffer, expected " +
           std::to_string(expected);
  }
  if (capture.streams.size() != static_cast<size_t>(buffered_blocks)) return "unexpected streams";
  return "";
}

// Block b of the early-return kernel: per launch ENTRY 0, EXIT 0, ..., ENTRY b (2b + 1 records),
// and b + 1 warp ticks; launches append.
std::string early_return_keeps_counts() {
  const int blocks = 4, iterations = 6, launches = 2;
  std::string problem;
  auto recorder = make_recorder(blocks, kWarps, 0, &problem);
  if (recorder == nullptr) return problem;
  for (int launch = 0; launch < launches; ++launch) {
    problem = cuda_problem(
        "early-return kernel",
        launch_early_return_kernel(recorder->handle(), blocks, kThreads, iterations, 0));
    if (!problem.empty()) return problem;
  }
  npkit::GpuCapture capture;
  if (!recorder->capture(&capture, &problem)) return problem;
  if (capture.streams.size() != static_cast<size_t>(blocks + blocks * kWarps)) {
    return std::to_string(capture.streams.size()) + " streams, expected " +
           std::to_string(blocks + blocks * kWarps);
  }
  for (const npkit::CapturedStream& s : capture.streams) {
    const bool block = s.info.source == fmt::kStreamGpuBlock;
    const uint64_t b = s.info.block;
    const uint64_t per_launch = block ? 2 * b + 1 : b + 1;
    const std::string where =
        "block " + std::to_string(b) + (block ? "" : " warp " + std::to_string(s.info.warp));
    if (s.info.records_written != per_launch * launches || s.info.records_dropped != 0) {
      return where + ": " + std::to_string(s.info.records_written) + " written, " +
             std::to_string(s.info.records_dropped) + " dropped; expected " +
             std::to_string(per_launch * launches) + ", 0";
    }
    for (uint64_t k = 0; k < s.records.size(); ++k) {
      const uint64_t in_launch = k % per_launch;
      const uint16_t id = !block               ? NPKIT_EVENT_SELFTEST_WARP_TICK
                          : in_launch % 2 == 0 ? NPKIT_EVENT_SELFTEST_LOOP_ENTRY
                                               : NPKIT_EVENT_SELFTEST_LOOP_EXIT;
      const uint32_t user = static_cast<uint32_t>(block ? in_launch / 2 : in_launch);
      if (s.records[k].id != id || s.records[k].user != user) {
        return where + " record " + std::to_string(k) + ": id " + std::to_string(s.records[k].id) +
               " user " + std::to_string(s.records[k].user) + "; expected id " +
               std::to_string(id) + " user " + std::to_string(user);
      }
      if (k > 0 && s.records[k].timestamp < s.records[k - 1].timestamp) {
        return where + " record " + std::to_string(k) + ": timestamp goes back";
      }
    }
  }
  return "";
}

std::string reset_empties() {
  const int blocks = 2, iterations = 4;
  std::string problem;
  auto recorder = make_recorder(blocks, 0, 0, &problem);
  if (recorder == nullptr) return problem;
  if (problem = run_loops(*recorder, EventForm::kCursor, blocks, iterations, 1); !problem.empty())
    return problem;
  if (!recorder->reset(&problem)) return problem;
  npkit::GpuCapture capture;
  if (!recorder->capture(&capture, &problem)) return problem;
  if (!capture.streams.empty()) return "streams left after reset()";
  if (problem = run_loops(*recorder, EventForm::kCursor, blocks, iterations, 1); !problem.empty())
    return problem;
  if (!recorder->capture(&capture, &problem)) return problem;
  for (const npkit::CapturedStream& s : capture.streams) {
    if (s.info.records_written != 2ull * iterations) return "wrong count after reset()";
  }
  return capture.streams.size() == static_cast<size_t>(blocks) ? "" : "unexpected streams";
}

std::string cycle_rate_converts() {
  const long long spin = 20'000'000;  // about 10 ms at 2 GHz
  std::string problem;
  auto recorder = make_recorder(1, 0, 0, &problem);
  if (recorder == nullptr) return problem;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  problem = cuda_problem("cycles kernel", launch_cycles_kernel(recorder->handle(), spin, 0));
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float event_ms = 0;
  cudaEventElapsedTime(&event_ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (!problem.empty()) return problem;
  npkit::GpuCapture capture;
  if (!recorder->capture(&capture, &problem)) return problem;
  if (capture.streams.size() != 1 || capture.streams[0].records.size() != 2) {
    return "expected one stream of 2 records";
  }
  const npkit::CapturedStream& s = capture.streams[0];
  if (s.info.clock != fmt::kStreamClockCycles) return "the stream is not on clock64";
  const double rate = static_cast<double>(s.info.cycles_per_second);
  for (const auto& [key, value] : capture.facts) {
    if (key.rfind("clock.", 0) == 0) std::printf("  %s = %s\n", key.c_str(), value.c_str());
  }
  if (rate < 3e8 || rate > 4e9) {
    return "measured clock64 rate " + std::to_string(rate) + " Hz is not plausible";
  }
  const double span_ms = (s.records[1].timestamp - s.records[0].timestamp) / rate * 1e3;
  std::printf("  clock64 span %.3f ms at the measured rate, cudaEvent %.3f ms\n", span_ms,
              event_ms);
  if (span_ms > event_ms * 1.05 || span_ms < event_ms * 0.9) {
    return "clock64 span converted with the measured rate (" + std::to_string(span_ms) +
           " ms) disagrees with cudaEvent (" + std::to_string(event_ms) + " ms)";
  }
  return "";
}

std::string mixed_clocks_refused() {
  std::string problem;
  auto recorder = make_recorder(1, 0, 0, &problem);
  if (recorder == nullptr) return problem;
  if (problem = run_loops(*recorder, EventForm::kHandle, 1, 1, 1); !problem.empty()) return problem;
  if (problem = cuda_problem("cycles kernel", launch_cycles_kernel(recorder->handle(), 1000, 0));
      !problem.empty()) {
    return problem;
  }
  npkit::GpuCapture capture;
  if (recorder->capture(&capture, &problem)) return "capture() accepted a buffer with both clocks";
  return problem.find("both") != std::string::npos ? "" : "unexpected refusal: " + problem;
}

std::string dump_written(const std::string& dir) {
  std::string problem;
  auto recorder = make_recorder(2, kWarps, 0, &problem);
  if (recorder == nullptr) return problem;
  auto host = npkit::HostRecorder::create({}, &problem);
  if (host == nullptr) return problem;
  npkit::EventNameTable names;
  if (!NPKIT_NAME_EVENT_PAIR(names, SELFTEST_LOOP, "compute", &problem) ||
      !NPKIT_NAME_EVENT_INSTANT(names, SELFTEST_WARP_TICK, "", &problem) ||
      !NPKIT_NAME_EVENT_PAIR(names, SELFTEST_SPIN, "compute", &problem)) {
    return problem;
  }
  host->record(NPKIT_EVENT_SELFTEST_SPIN_ENTRY, 0, 0);
  if (problem = run_loops(*recorder, EventForm::kCursor, 2, 5, 1); !problem.empty()) return problem;
  host->record(NPKIT_EVENT_SELFTEST_SPIN_EXIT, 0, 0);
  npkit::RankEvents events;
  events.identity = {0x5e1f7e5700000001ull, 0, 1, 1, "npkit_device_selftest"};
  events.names = &names;
  events.gpus.emplace_back();
  if (!recorder->capture(&events.gpus.back(), &problem)) return problem;
  events.hosts.push_back(host->capture());
  std::string path;
  if (!npkit::write_event_dump(dir, events, &path, &problem)) return problem;
  std::ifstream file(path, std::ios::binary);
  fmt::FileHeader header{};
  file.read(reinterpret_cast<char*>(&header), sizeof(header));
  file.seekg(0, std::ios::end);
  const uint64_t size = static_cast<uint64_t>(file.tellg());
  if (std::memcmp(header.magic, fmt::kMagic, 8) != 0 || header.major != 1 ||
      header.minor != fmt::kMinorVersion ||
      (header.feature_bits & fmt::kFeatureEventRecords) == 0 || header.file_size != size) {
    return path + ": the file header is not what write_event_dump should write";
  }
  std::printf("  %s (%llu bytes)\n", path.c_str(), static_cast<unsigned long long>(size));
  return "";
}

// Cost of one event with `events` back to back on thread 0, net of the loop's own cost, in each
// form; with `acquire`, every event follows an ld.acquire.gpu (as after a peer wait, L1 is no
// help to the handle's load).
std::string event_cost() {
  const int events = 4096;
  std::string problem;
  auto recorder = make_recorder(1, 0, events, &problem);
  if (recorder == nullptr) return problem;
  unsigned long long* word = nullptr;
  long long* cost = nullptr;
  if (problem = cuda_problem("cudaMalloc", cudaMalloc(&word, sizeof(*word))); !problem.empty())
    return problem;
  std::unique_ptr<unsigned long long, cudaError_t (*)(void*)> word_owner(word, cudaFree);
  if (problem = cuda_problem("cudaMalloc", cudaMalloc(&cost, sizeof(*cost))); !problem.empty())
    return problem;
  std::unique_ptr<long long, cudaError_t (*)(void*)> cost_owner(cost, cudaFree);
  if (problem = cuda_problem("cudaMemset", cudaMemset(word, 0, sizeof(*word))); !problem.empty())
    return problem;
  const npkit::DeviceRecorder rec = recorder->handle();
  int peak_khz = 0;
  if (problem = cuda_problem("cudaDeviceGetAttribute",
                             cudaDeviceGetAttribute(&peak_khz, cudaDevAttrClockRate, 0));
      !problem.empty())
    return problem;

  // Cycles per loop iteration of one kernel (the second of two runs; the first warms up).
  auto measure = [&](const char* name, bool records, const std::function<cudaError_t()>& launch,
                     double* per_event) -> std::string {
    long long measured = 0;
    for (int run = 0; run < 2; ++run) {
      std::string p;
      if (!recorder->reset(&p)) return p;
      if (p = cuda_problem(name, launch()); !p.empty()) return p;
      if (p = cuda_problem("cudaMemcpy",
                           cudaMemcpy(&measured, cost, sizeof(measured), cudaMemcpyDeviceToHost));
          !p.empty())
        return p;
    }
    if (records) {
      npkit::GpuCapture capture;
      std::string p;
      if (!recorder->capture(&capture, &p)) return p;
      if (capture.streams.size() != 1 ||
          capture.streams[0].info.records_written != static_cast<uint64_t>(events)) {
        return std::string(name) + ": the loop did not record " + std::to_string(events) +
               " events";
      }
    }
    *per_event = static_cast<double>(measured) / events;
    return "";
  };

  double handle_ns[2] = {0, 0}, cursor_ns[2] = {0, 0};
  for (int acquire = 0; acquire < 2; ++acquire) {
    auto kernel = [&](EventCost what) {
      return
          [&, what] { return launch_event_cost_kernel(what, acquire, rec, events, word, cost, 0); };
    };
    double loop = 0;
    if (problem = measure("loop", false, kernel(EventCost::kNothing), &loop); !problem.empty())
      return problem;
    std::printf(
        "  one event, %d back to back%s: cycles, ns at the peak %d MHz (net of the loop alone: "
        "%.1f cycles)\n",
        events, acquire ? ", each after an ld.acquire.gpu" : "", peak_khz / 1000, loop);
    struct Row {
      const char* name;
      bool records;
      std::function<cudaError_t()> launch;
      double* ns;  // where the net ns go, or null
    };
    const Row rows[] = {
        {"handle event", true, kernel(EventCost::kHandle), &handle_ns[acquire]},
        {"cursor event", true, kernel(EventCost::kCursor), &cursor_ns[acquire]},
        {"cursor event, NPKIT_CLOCK_CYCLES", true,
         [&] { return launch_cycles_event_cost_kernel(acquire, rec, events, word, cost, 0); },
         nullptr}};
    for (const Row& row : rows) {
      double per_event = 0;
      if (problem = measure(row.name, row.records, row.launch, &per_event); !problem.empty())
        return problem;
      const double cycles = per_event - loop, ns = cycles * 1e6 / peak_khz;
      std::printf("    %-34s %8.1f %8.1f\n", row.name, cycles, ns);
      if (row.ns != nullptr) *row.ns = ns;
    }
  }
  for (int acquire = 0; acquire < 2; ++acquire) {
    if (!(cursor_ns[acquire] < handle_ns[acquire])) {
      return std::string("a cursor event costs no less than a handle event") +
             (acquire ? " after an acquire" : "") + ": " + std::to_string(cursor_ns[acquire]) +
             " ns vs " + std::to_string(handle_ns[acquire]) + " ns";
    }
  }
  return "";
}

}  // namespace
}  // namespace selftest

int main(int argc, char** argv) {
  std::string dir;
  if (argc == 3 && std::strcmp(argv[1], "--dump-dir") == 0) {
    dir = argv[2];
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--dump-dir DIR]\n", argv[0]);
    return 2;
  } else {
    char pattern[] = "/tmp/npkit-selftest-XXXXXX";
    if (mkdtemp(pattern) == nullptr) return 2;
    dir = pattern;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 ||
      cudaSetDevice(0) != cudaSuccess) {
    std::fprintf(stderr, "npkit_device_selftest: no usable CUDA device\n");
    return 2;
  }
  const std::pair<const char*, std::function<std::string()>> checks[] = {
      {"handle: event counts and order per block and warp buffer",
       [] { return selftest::counts_and_order(selftest::EventForm::kHandle); }},
      {"cursor: event counts and order per block and warp buffer",
       [] { return selftest::counts_and_order(selftest::EventForm::kCursor); }},
      {"handle: a full buffer keeps its first records and counts drops",
       [] { return selftest::overflow_counted(selftest::EventForm::kHandle); }},
      {"cursor: a full buffer keeps its first records and counts drops",
       [] { return selftest::overflow_counted(selftest::EventForm::kCursor); }},
      {"handle: events of blocks and warps without a buffer are counted",
       [] { return selftest::unbuffered_counted(selftest::EventForm::kHandle); }},
      {"cursor: events of blocks and warps without a buffer are counted",
       [] { return selftest::unbuffered_counted(selftest::EventForm::kCursor); }},
      {"cursor: a kernel that returns early keeps its counts", selftest::early_return_keeps_counts},
      {"reset() empties every buffer", selftest::reset_empties},
      {"the measured clock64 rate matches cudaEvent time", selftest::cycle_rate_converts},
      {"a buffer with both clocks is refused", selftest::mixed_clocks_refused},
      {"a dump file is written", [&] { return selftest::dump_written(dir); }},
      {"a cursor event costs less than a handle event", selftest::event_cost},
  };
  int failures = 0;
  for (const auto& [name, check] : checks) {
    const std::string problem = check();
    if (problem.empty()) {
      std::printf("PASS %s\n", name);
    } else {
      std::printf("FAIL %s: %s\n", name, problem.c_str());
      ++failures;
    }
    std::fflush(stdout);
  }
  std::printf("%s: %d of %zu checks failed\n", failures == 0 ? "PASS" : "FAIL", failures,
              std::size(checks));
  return failures == 0 ? 0 : 1;
}

namespace selftest {

cudaError_t launch_loop_kernel(EventForm form, const npkit::DeviceRecorder& rec, int blocks,
                               int threads, int iterations, long long spin_cycles,
                               cudaStream_t stream) {
  if (form == EventForm::kHandle) {
    loop_kernel<<<blocks, threads, 0, stream>>>(rec, iterations, spin_cycles);
  } else {
    cursor_loop_kernel<<<blocks, threads, 0, stream>>>(rec, iterations, spin_cycles);
  }
  return cudaGetLastError();
}

cudaError_t launch_early_return_kernel(const npkit::DeviceRecorder& rec, int blocks, int threads,
                                       int iterations, cudaStream_t stream) {
  early_return_kernel<<<blocks, threads, 0, stream>>>(rec, iterations);
  return cudaGetLastError();
}

cudaError_t launch_event_cost_kernel(EventCost what, bool acquire, const npkit::DeviceRecorder& rec,
                                     int events, const unsigned long long* word, long long* cost,
                                     cudaStream_t stream) {
  switch (what) {
    case EventCost::kNothing:
      nothing_cost_kernel<<<1, 32, 0, stream>>>(events, acquire, word, cost);
      break;
    case EventCost::kHandle:
      handle_cost_kernel<<<1, 32, 0, stream>>>(rec, events, acquire, word, cost);
      break;
    case EventCost::kCursor:
      cursor_cost_kernel<<<1, 32, 0, stream>>>(rec, events, acquire, word, cost);
      break;
  }
  return cudaGetLastError();
}

}  // namespace selftest
