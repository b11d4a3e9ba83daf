#include "capture/plugin/counting_profiler_log.hpp"

#include <dlfcn.h>

#include <algorithm>

#include <catch2/catch.hpp>

namespace npkit::test {
namespace {

void* open_counting(const std::string& path) {
  void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  INFO("dlopen " << path << ": " << (library == nullptr ? ::dlerror() : "ok"));
  REQUIRE(library != nullptr);
  return library;
}

}  // namespace

ChainEnv::ChainEnv(const std::string& path, uint64_t their_mask, const CountingFailures& failures)
    : chain_("NPKIT_CHAIN_PLUGIN", path),
      mask_("COUNTING_PROFILER_MASK", std::to_string(their_mask)),
      init_result_("COUNTING_PROFILER_INIT_RESULT", failures.init_result),
      null_context_("COUNTING_PROFILER_NULL_CONTEXT", failures.null_context),
      null_handles_("COUNTING_PROFILER_NULL_HANDLES", failures.null_handles),
      event_result_("COUNTING_PROFILER_EVENT_RESULT", failures.event_result) {
  if (path != kCountingProfiler && path != kCountingProfilerV4Only) return;
  auto reset = reinterpret_cast<CountingProfilerResetFunction>(
      ::dlsym(open_counting(path), "countingProfilerReset"));
  REQUIRE(reset != nullptr);
  reset();
}

std::vector<CountingProfilerCall> counting_calls(const std::string& path) {
  auto calls = reinterpret_cast<CountingProfilerCallsFunction>(
      ::dlsym(open_counting(path), "countingProfilerCalls"));
  REQUIRE(calls != nullptr);
  std::vector<CountingProfilerCall> out(static_cast<size_t>(calls(nullptr, 0)));
  const int logged = calls(out.data(), static_cast<int>(out.size()));
  out.resize(std::min(out.size(), static_cast<size_t>(logged)));
  return out;
}

std::vector<CountingProfilerCall> calls_of(const std::vector<CountingProfilerCall>& calls,
                                           int kind) {
  std::vector<CountingProfilerCall> out;
  for (const CountingProfilerCall& call : calls) {
    if (call.kind == kind) out.push_back(call);
  }
  return out;
}

}  // namespace npkit::test
