// The counting test profiler (counting_profiler.hpp).
#include "chained_plugin/counting_profiler.hpp"

#include <cstdlib>
#include <mutex>
#include <type_traits>
#include <vector>

#include "capture/plugin/nccl_abi_for_tests.hpp"

namespace {

using namespace npkit::test::abi;

struct Behaviour {
  int mask = 0;
  int init_result = 0;
  bool null_context = false;
  bool null_handles = false;
  int event_result = 0;
};

std::mutex g_mutex;
Behaviour g_behaviour;                    // guarded by g_mutex
std::vector<CountingProfilerCall> g_log;  // guarded by g_mutex
uintptr_t g_next_context = 0x7000000;     // guarded by g_mutex
uintptr_t g_next_handle = 0x9000000;      // guarded by g_mutex

int env_int(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoi(value) : 0;
}

Result as_result(int value) {
  return static_cast<Result>(value);
}

Result init_any(int api, void** context, int* mask, uint64_t comm_hash, int rank) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_behaviour.mask = env_int("COUNTING_PROFILER_MASK");
  g_behaviour.init_result = env_int("COUNTING_PROFILER_INIT_RESULT");
  g_behaviour.null_context = env_int("COUNTING_PROFILER_NULL_CONTEXT") == 1;
  g_behaviour.null_handles = env_int("COUNTING_PROFILER_NULL_HANDLES") == 1;
  g_behaviour.event_result = env_int("COUNTING_PROFILER_EVENT_RESULT");
  *context = g_behaviour.null_context ? nullptr : reinterpret_cast<void*>(g_next_context += 16);
  *mask = g_behaviour.mask;
  CountingProfilerCall call;
  call.kind = CountingProfilerCall::kInit;
  call.api = api;
  call.context = *context;
  call.comm_hash = comm_hash;
  call.rank = rank;
  g_log.push_back(call);
  return as_result(g_behaviour.init_result);
}

template <typename Descr>
Result start_any(int api, void* context, void** handle, const Descr* descr) {
  std::lock_guard<std::mutex> lock(g_mutex);
  CountingProfilerCall call;
  call.kind = CountingProfilerCall::kStart;
  call.api = api;
  call.type = descr->type;
  call.context = context;
  call.parent = descr->parentObj;
  if constexpr (!std::is_same_v<Descr, EventDescrV4>) {
    if (descr->type == kColl) call.parent_group = descr->coll.parentGroup;
    if (descr->type == kP2p) call.parent_group = descr->p2p.parentGroup;
  }
  if (!g_behaviour.null_handles) *handle = reinterpret_cast<void*>(g_next_handle += 16);
  call.handle = *handle;
  g_log.push_back(call);
  return as_result(g_behaviour.event_result);
}

Result log_handle_call(int kind, void* handle, int state) {
  std::lock_guard<std::mutex> lock(g_mutex);
  CountingProfilerCall call;
  call.kind = kind;
  call.handle = handle;
  call.state = state;
  g_log.push_back(call);
  return as_result(g_behaviour.event_result);
}

Result stop(void* handle) {
  return log_handle_call(CountingProfilerCall::kStop, handle, 0);
}

Result record_state(void* handle, EventState state, StateArgs*) {
  return log_handle_call(CountingProfilerCall::kState, handle, state);
}

Result finalize(void* context) {
  std::lock_guard<std::mutex> lock(g_mutex);
  CountingProfilerCall call;
  call.kind = CountingProfilerCall::kFinalize;
  call.context = context;
  g_log.push_back(call);
  return as_result(g_behaviour.event_result);
}

#if !defined(COUNTING_PROFILER_V4_ONLY) && !defined(COUNTING_PROFILER_NO_V6)
Result init_v6(void** context, uint64_t comm_id, int* mask, const char*, int, int, int rank,
               DebugLogger) {
  return init_any(6, context, mask, comm_id, rank);
}

Result start_v6(void* context, void** handle, EventDescrV6* descr) {
  return start_any(6, context, handle, descr);
}
#endif

#ifndef COUNTING_PROFILER_V4_ONLY
Result init_v5(void** context, uint64_t comm_id, int* mask, const char*, int, int, int rank,
               DebugLogger) {
  return init_any(5, context, mask, comm_id, rank);
}

Result start_v5(void* context, void** handle, EventDescrV5* descr) {
  return start_any(5, context, handle, descr);
}
#endif

Result init_v4(void** context, int* mask, const char*, uint64_t comm_hash, int, int, int rank,
               DebugLogger) {
  return init_any(4, context, mask, comm_hash, rank);
}

Result start_v4(void* context, void** handle, EventDescrV4* descr) {
  return start_any(4, context, handle, descr);
}

}  // namespace

extern "C" {

#if !defined(COUNTING_PROFILER_V4_ONLY) && !defined(COUNTING_PROFILER_NO_V6)
__attribute__((visibility("default"))) ProfilerV6 ncclProfiler_v6 = {
    "counting", init_v6, start_v6, stop, record_state, finalize,
};
#endif
#ifndef COUNTING_PROFILER_V4_ONLY
__attribute__((visibility("default"))) ProfilerV5 ncclProfiler_v5 = {
    "counting", init_v5, start_v5, stop, record_state, finalize,
};
__attribute__((visibility("default"))) ProfilerV4 ncclProfiler_v4 = {
    "counting", init_v4, start_v4, stop, record_state, finalize,
};
#else
__attribute__((visibility("default"))) ProfilerV4 ncclProfiler_v4 = {
    "counting-v4", init_v4, start_v4, stop, record_state, finalize,
};
#endif

__attribute__((visibility("default"))) int countingProfilerCalls(CountingProfilerCall* out,
                                                                 int max) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const int count = static_cast<int>(g_log.size());
  for (int i = 0; i < count && i < max; ++i) out[i] = g_log[static_cast<size_t>(i)];
  return count;
}

__attribute__((visibility("default"))) void countingProfilerReset() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_log.clear();
}

}  // extern "C"
