// worker_calls.hpp — plugin calls made from many threads at once, and what each thread's calls
// must look like in a dump.
//
// Contract:
// - A Worker belongs to one thread. It drives the plugin through the raw ABI (no Catch2 call, so
//   it is safe on any thread) with KernelCh events only: start (gpu_start_ns = a key unique to
//   the worker, communicator and iteration), state 22 (value = key | 1), stop. For every event
//   whose start returned a handle it appends, per communicator, what the dump must hold (start,
//   state, stop); calls returning an error code are counted as failures, starts returning a NULL
//   handle (capture closed for that communicator) as null handles, with no state or stop made.
// - A start's parent is the worker's previous KernelCh on the communicator it names (parent_id
//   of that start), or NULL (kStartParentNull), or a handle of another communicator
//   (kStartParentOtherComm).
// - compare_worker_records() checks one communicator's dump against the workers' expectations:
//   the records of the thread with OS id tids[w] must be exactly expected[w] in order, or, with
//   `prefix`, its first n (n may be 0: the file was written while the workers still ran). Records
//   of kind 0 (counted in records_incomplete) are skipped; records of any other thread are a
//   problem. Returns the problems (the first few spelled out, then a count).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "capture/plugin/nccl_abi_for_tests.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "import/npkt/npkt_dump.hpp"

namespace npkit::test {

struct ExpectedRecord {
  uint8_t kind = 0;         // format::kRecordStart, kRecordState or kRecordStop
  uint64_t key = 0;         // start: gpu_start_ns; state: the state value; stop: its start's key
  uint64_t parent_key = 0;  // start: key of the parent start (same communicator), 0 for none
  uint32_t flags = 0;       // start: the expected ProfilerRecord::word
};

using ExpectedRecords = std::vector<ExpectedRecord>;

// Key of a start: unique per (worker, communicator, iteration), never 0, low bit clear.
uint64_t start_key(int worker, int comm, uint64_t iteration);

class Worker {
 public:
  // `contexts`: the communicators' plugin contexts, index = communicator number.
  Worker(const PluginLibrary& lib, int index, std::vector<void*> contexts);

  // One KernelCh event (start, state 22, stop) on communicator `comm`; `parent_comm` names the
  // communicator whose latest handle of this worker is the parent (-1: NULL parent).
  void event(int comm, int parent_comm);

  int failures() const { return failures_; }
  uint64_t null_handles() const { return null_handles_; }
  uint64_t iterations() const { return iteration_; }
  // Expected records per communicator (missing: none).
  const std::map<int, ExpectedRecords>& expected() const { return expected_; }

 private:
  const PluginLibrary& lib_;
  int index_;
  std::vector<void*> contexts_;
  std::vector<void*> last_handle_;
  std::vector<uint64_t> last_key_;
  std::map<int, ExpectedRecords> expected_;
  uint64_t iteration_ = 0;
  int failures_ = 0;
  uint64_t null_handles_ = 0;
};

struct RecordComparison {
  std::vector<std::string> problems;  // at most a few, spelled out
  uint64_t problem_count = 0;
  uint64_t matched = 0;     // records that matched an expectation
  uint64_t incomplete = 0;  // kind-0 records skipped
};

RecordComparison compare_worker_records(const NpktDump& dump, const std::vector<int32_t>& tids,
                                        const std::vector<const ExpectedRecords*>& expected,
                                        bool prefix);

}  // namespace npkit::test
