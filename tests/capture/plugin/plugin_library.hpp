// plugin_library.hpp — the built NCCL profiler plugin (NPKIT_PLUGIN_PATH), opened the way NCCL
// opens it: dlopen(RTLD_NOW | RTLD_LOCAL), then dlsym of the data symbols.
//
// Contract:
// - plugin_library() opens the library once per process and never closes it (the plugin keeps
//   process-wide state, like inside NCCL between communicator generations); on failure the
//   pointers are null and `error` says why (dlerror text).
// - open_plugin_copy() copies the library into `dir` and opens the copy: a second, independent
//   instance with fresh process-wide state (its own context registry and detached context), as a
//   new process would have. It is never closed either.
// - The test logger capture_log (captured_log.hpp) is what the tests pass as NCCL's logfn.
#pragma once

#include <string>

#include "capture/plugin/nccl_abi_for_tests.hpp"

namespace npkit::test {

struct PluginLibrary {
  void* handle = nullptr;
  const abi::ProfilerV7* v7 = nullptr;  // dlsym "ncclProfiler_v7"
  const abi::ProfilerV6* v6 = nullptr;  // dlsym "ncclProfiler_v6"
  const abi::ProfilerV5* v5 = nullptr;  // dlsym "ncclProfiler_v5"
  const abi::ProfilerV4* v4 = nullptr;  // dlsym "ncclProfiler_v4"
  abi::FlushFunction flush = nullptr;   // dlsym "npkitProfilerFlush"
  std::string error;                    // empty when everything resolved
};

const PluginLibrary& plugin_library();

PluginLibrary open_plugin_copy(const std::string& dir);

// plugin_library(), with Catch2 REQUIREs that every symbol resolved.
const PluginLibrary& require_plugin();

}  // namespace npkit::test
