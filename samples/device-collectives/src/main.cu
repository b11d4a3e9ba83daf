// npkit-device-collectives: a ring all-reduce (reduce-scatter + all-gather) and an all-to-all
// written as CUDA kernels over peer pointers, one host thread per GPU, instrumented with
// npkit/device.cuh. Built three times: instrumented (NPKIT_ENABLE, groups ALL_REDUCE and
// ALL_TO_ALL, events through a block cursor), plain (events compiled out) and handle (instrumented,
// events through the handle: DEVICE_COLLECTIVES_HANDLE_EVENTS), so the builds measure the
// recorder's cost and what the cursor saves.
//
// Exit status: 0 when every result was right, 1 on a wrong result or a failed rank, 2 for bad
// usage or fewer than 2 GPUs.
#include <cuda_runtime.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "collective_events.hpp"
#include "options.hpp"
#include "rank_runner.hpp"
#include "report.hpp"

namespace {

using device_collectives::Options;

// The build's name in the output and the CSV's `build` column.
#if defined(DEVICE_COLLECTIVES_HANDLE_EVENTS)
constexpr const char* kBuild = "handle";
#else
constexpr const char* kBuild = npkit::kEventsCompiledIn ? "instrumented" : "plain";
#endif

// The same for every rank of this run, different for every run: FNV-1a of the pid and the time.
uint64_t run_hash() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  const uint64_t words[] = {static_cast<uint64_t>(getpid()), static_cast<uint64_t>(now.tv_sec),
                            static_cast<uint64_t>(now.tv_nsec)};
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint64_t word : words) {
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= (word >> (8 * byte)) & 0xff;
      hash *= 0x100000001b3ull;
    }
  }
  return hash;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::string error;
  if (!device_collectives::parse_options(argc, argv, &options, &error)) {
    std::fprintf(stderr, "%s\n%s", error.c_str(), device_collectives::usage_text(argv[0]).c_str());
    return 2;
  }
  if (options.help) {
    std::printf("%s", device_collectives::usage_text(argv[0]).c_str());
    return 0;
  }
  const std::string build = kBuild;
  if (!options.dump_dir.empty() && !npkit::kEventsCompiledIn) {
    std::fprintf(stderr, "note: the plain build records no events; --dump-dir is ignored\n");
  }
  int devices = 0;
  if (cudaError_t status = cudaGetDeviceCount(&devices); status != cudaSuccess) {
    std::fprintf(stderr, "cudaGetDeviceCount: %s\n", cudaGetErrorString(status));
    return 2;
  }
  const int nranks = options.gpus != 0 ? options.gpus : devices;
  if (nranks < 2 || nranks > devices) {
    std::fprintf(stderr, "need 2 or more GPUs (asked for %d, %d visible)\n", nranks, devices);
    return 2;
  }

  device_collectives::RunShared shared(options, nranks, run_hash());
  if (!device_collectives::name_collective_events(&shared.names, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  std::printf(
      "# npkit-device-collectives (%s): %d ranks, %d blocks x %d threads, %d warm-up + %d "
      "timed launches per size\n",
      build.c_str(), nranks, options.blocks, options.threads, options.warmup, options.iters);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < nranks; ++rank) {
    threads.emplace_back(device_collectives::run_rank, rank, &shared);
  }
  for (std::thread& thread : threads) thread.join();

  bool failed = false;
  for (const std::string& rank_error : shared.errors) {
    if (rank_error.empty()) continue;
    std::fprintf(stderr, "%s\n", rank_error.c_str());
    failed = true;
  }
  std::vector<device_collectives::Row> rows;
  for (size_t index = 0; index < shared.plan.size() && !failed; ++index) {
    const device_collectives::PlannedMeasurement& planned = shared.plan[index];
    device_collectives::Measurement measurement{
        planned.coll, planned.size_bytes, planned.count, options.iters, {}, 0};
    for (int rank = 0; rank < nranks; ++rank) {
      measurement.rank_time_us.push_back(shared.time_us[rank][index]);
      measurement.wrong += shared.wrong[rank][index];
    }
    rows.push_back(device_collectives::summarize(measurement, nranks));
    failed |= measurement.wrong != 0;
  }
  device_collectives::print_table(stdout, rows, build);
  for (const std::string& note : shared.recorder_notes) {
    if (!note.empty()) std::printf("# recorder %s\n", note.c_str());
  }
  for (const std::string& path : shared.dump_paths) {
    if (!path.empty()) std::printf("# dump %s\n", path.c_str());
  }
  if (!options.csv.empty() && !device_collectives::write_csv(options.csv, rows, build, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    failed = true;
  }
  if (failed) std::fprintf(stderr, "FAILED: a rank failed or a result was wrong\n");
  return failed ? 1 : 0;
}
