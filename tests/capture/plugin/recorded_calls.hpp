// recorded_calls.hpp — a recording of every call NCCL made into a profiler plugin (gzip JSON lines,
// format in tests/data/nccl-profiler-calls/README.md), read into replayable calls.
//
// Contract:
// - read_recording() throws std::runtime_error naming the file and line for anything it cannot
//   read (bad gzip, bad JSON, missing field, unknown call or event type, seq not 0, 1, 2, ...).
// - Descriptors are v5 descriptors with every recorded field set; parentObj and
//   coll/p2p.parentGroup stay NULL (they are recorded handle ids, in `parent` and
//   `parent_group`, for the replayer to map). String fields point to process-lifetime copies, one
//   per distinct text, as NCCL's own strings are static: the plugin interns them by pointer.
// - `pid` is the recording process's pid, taken from the file name (rec_<pid>.jsonl.gz).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "capture/plugin/nccl_abi_for_tests.hpp"

namespace npkit::test {

struct RecordedCall {
  enum class Kind { kInit, kStart, kState, kStop, kFinalize };
  Kind kind = Kind::kInit;
  uint64_t seq = 0;
  int64_t tid = 0;
  uint64_t ctx = 0;     // init, start, finalize: the recorded context id
  uint64_t handle = 0;  // start, state, stop: the recorded handle id
  // init
  uint64_t comm_id = 0;
  int mask = 0;
  std::string comm_name;
  int nnodes = 0;
  int nranks = 0;
  int rank = 0;
  // start
  uint64_t parent = 0;        // recorded handle id of parentObj; 0 = NULL
  uint64_t parent_group = 0;  // Coll/P2p: recorded handle id of the legacy Group; 0 = none
  abi::EventDescrV5 descr{};
  // state
  int state = 0;
  bool null_args = false;
  abi::StateArgs args{};
};

struct Recording {
  std::string path;
  int pid = 0;
  std::vector<RecordedCall> calls;  // in seq order
};

Recording read_recording(const std::string& path);

}  // namespace npkit::test
