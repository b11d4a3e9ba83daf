// rank_run.hpp — one rank's NCCL state, and the calls every mode (sweep, loop, launch cost) makes
// through it.
//
// Contract:
// - setup(): with --one-gpu the rank uses device 0 (NCCL_HOSTID is set by run_rank before any CUDA
//   or NCCL call), else device `rank`; it joins the communicator (rank 0 creates the unique id and
//   publishes it in the control page), creates a non-blocking stream, allocates send and receive
//   buffers of `buffer_bytes` (the send buffer filled with rank + 1), starts the watchdog when
//   --watchdog-s is given, meets the other ranks at a barrier, and rank 0 prints the preamble.
// - call(): one NCCL operation call (a sendrecv group counts as one), numbered in call order. It
//   applies the rank's --fault at that number (exit: FaultExit is thrown before the call; skip: the
//   rank sleeps until killed; mismatch: ncclAllGather of count / nranks instead; kill: SIGKILL
//   right after the call returned), writes the call's row to the calls log when it returns, with
//   CUDA events recorded around the launch when --calls-log is given, and arms the watchdog.
//   Returns the call-to-return time in microseconds (steady clock, just around the NCCL call).
// - synchronize(): cudaStreamSynchronize, then the pending calls' completion rows with their GPU
//   time, then disarms the watchdog. Returns the steady time right after the synchronize returned.
// - checked_call(): the check of one size (check_pattern.hpp): zeroes the receive buffer, one call,
//   a synchronize, and the wrong elements of this rank.
// - event(): a line in events_rank<R>.txt (nothing without --calls-log); print() and csv() write
//   rank 0's table and CSV, flushed per line.
// - teardown(): stops the watchdog, frees the buffers and the stream and, unless --no-destroy,
//   calls ncclCommDestroy, with events around it. The destructor only stops the watchdog, so a
//   rank leaving by FaultExit keeps its communicator (the exit fault: no ncclCommDestroy).
// - Failures throw DriverError.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "call_log.hpp"
#include "coll_shape.hpp"
#include "control_page.hpp"
#include "options.hpp"
#include "watchdog.hpp"

namespace npkit::driver {

// Thrown by RankRun::call() for the exit fault; run_rank returns 0 for it.
struct FaultExit {};

class RankRun {
 public:
  RankRun(int rank, int nranks, const Options& options, ControlPage* page);
  ~RankRun();
  RankRun(const RankRun&) = delete;
  RankRun& operator=(const RankRun&) = delete;

  int rank() const { return rank_; }
  int nranks() const { return nranks_; }
  const Options& options() const { return options_; }
  RankSlot& slot() const { return page_->ranks[rank_]; }
  const RankSlot& slot_of(int rank) const { return page_->ranks[rank]; }

  // Opens the calls and events logs (--calls-log) and rank 0's CSV with `csv_header`.
  void open_logs(const std::string& csv_header);
  void setup(std::size_t buffer_bytes);
  double call(CollKind kind, const CollShape& shape, CallPhase phase);
  std::chrono::steady_clock::time_point synchronize();
  std::int64_t checked_call(CollKind kind, const CollShape& shape);
  // The control page barrier; throws DriverError when the run was aborted meanwhile.
  void barrier() const;
  void teardown();

  void event(const std::string& text) const;
  void print(const std::string& text) const;
  void csv(const std::string& text) const;

 private:
  struct PendingCall {
    CallRow row;
    std::pair<cudaEvent_t, cudaEvent_t> events{nullptr, nullptr};
  };

  void join_communicator();
  void fill_send_buffer(std::size_t bytes);
  void record_device(int device);
  void print_preamble() const;
  void launch(CollKind kind, const CollShape& shape);
  void apply_fault_before(long long call, CollKind* kind, CollShape* shape);
  std::pair<cudaEvent_t, cudaEvent_t> take_events();

  const int rank_;
  const int nranks_;
  const Options& options_;
  ControlPage* const page_;
  const bool faulty_;  // this rank has the --fault
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  void* send_ = nullptr;
  void* recv_ = nullptr;
  long long next_call_ = 0;
  LogFile calls_log_;
  LogFile events_log_;
  std::FILE* csv_ = nullptr;  // rank 0 with --csv only
  std::vector<PendingCall> pending_;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> free_events_;
  std::unique_ptr<Watchdog> watchdog_;
};

}  // namespace npkit::driver
