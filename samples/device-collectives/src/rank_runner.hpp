// rank_runner.hpp — one rank of npkit-device-collectives: a host thread driving one GPU.
//
// Contract: run_rank(rank, shared) makes GPU `rank` current, enables peer access to every other
// rank's GPU, allocates its buffers for the largest planned size, publishes their addresses in
// shared->pointers and meets the other ranks at shared->barrier. For each planned measurement it
// fills the inputs, runs options.warmup then options.iters launches (timed with cudaEvents),
// checks the results on the GPU and stores time and wrong-element count in shared->time_us /
// shared->wrong [rank][measurement]. In an instrumented build it records device events (one block
// buffer per block) and host events (timed loops, checks) and, with options.dump_dir, writes the
// rank's event dump at the end (path in shared->dump_paths). Any failure (a CUDA error, a peer
// wait that timed out, more blocks than can be resident at once) goes to shared->errors[rank] and
// aborts the barrier, which ends every rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "measurement_plan.hpp"
#include "npkit/host.hpp"
#include "options.hpp"
#include "thread_barrier.hpp"

namespace device_collectives {

struct RankPointers {
  float* in = nullptr;
  float* out = nullptr;
  float* send = nullptr;
  float* recv = nullptr;
  uint64_t* progress = nullptr;  // all-reduce: one per block
  uint64_t* flags = nullptr;     // all-to-all: blocks * 2 * nranks
};

struct RunShared {
  RunShared(const Options& run_options, int ranks, uint64_t hash)
      : options(run_options),
        nranks(ranks),
        group_hash(hash),
        barrier(ranks),
        plan(plan_measurements(run_options, ranks)),
        pointers(ranks),
        time_us(ranks, std::vector<double>(plan.size(), 0)),
        wrong(ranks, std::vector<uint64_t>(plan.size(), 0)),
        errors(ranks),
        dump_paths(ranks),
        recorder_notes(ranks) {}

  const Options& options;
  const int nranks;
  const uint64_t group_hash;  // RankIdentity::group_hash of every rank's dump
  ThreadBarrier barrier;
  npkit::EventNameTable names;
  const std::vector<PlannedMeasurement> plan;
  std::vector<RankPointers> pointers;
  std::vector<std::vector<double>> time_us;
  std::vector<std::vector<uint64_t>> wrong;
  std::vector<std::string> errors;
  std::vector<std::string> dump_paths;
  std::vector<std::string> recorder_notes;  // records written/dropped, for the summary
};

void run_rank(int rank, RunShared* shared);

}  // namespace device_collectives
