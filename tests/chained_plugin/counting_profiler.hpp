// chained_plugin/counting_profiler.hpp — a test NCCL profiler plugin that the capture plugin
// chains (NPKIT_CHAIN_PLUGIN) in tests: it logs every call it gets, and the tests read the log.
//
// Behaviour, read from the environment at every init:
//   COUNTING_PROFILER_MASK         activation mask it writes (decimal; default 0)
//   COUNTING_PROFILER_INIT_RESULT  what init returns (default 0)
//   COUNTING_PROFILER_NULL_CONTEXT 1: init leaves *context NULL
//   COUNTING_PROFILER_NULL_HANDLES 1: startEvent leaves *eHandle NULL
//   COUNTING_PROFILER_EVENT_RESULT what start/stop/state/finalize return (default 0)
// Contexts and handles are distinct made-up addresses (never dereferenced by anyone).
// Built three times: with ncclProfiler_v6, _v5 and _v4; (COUNTING_PROFILER_NO_V6) with _v5 and
// _v4; and (COUNTING_PROFILER_V4_ONLY) with ncclProfiler_v4 only; named "counting" (both first
// two) and "counting-v4" in their `name`.
//
// Exported for the tests (C linkage): countingProfilerCalls(out, max) copies up to `max` calls in
// call order and returns how many were logged; countingProfilerReset() forgets them.
#pragma once

#include <cstdint>

struct CountingProfilerCall {
  enum Kind : int { kInit, kStart, kStop, kState, kFinalize };
  int kind = kInit;
  int api = 0;                   // 6, 5 or 4: which table was called
  uint64_t type = 0;             // start: descriptor type
  void* context = nullptr;       // init: the context returned; start/finalize: the one received
  void* handle = nullptr;        // start: the handle returned; stop/state: the handle received
  void* parent = nullptr;        // start: parentObj
  void* parent_group = nullptr;  // start of a v5/v6 Coll/P2p: parentGroup
  int state = 0;                 // state: the state number
  uint64_t comm_hash = 0;        // init
  int rank = -1;                 // init
};

using CountingProfilerCallsFunction = int (*)(CountingProfilerCall* out, int max);
using CountingProfilerResetFunction = void (*)();
