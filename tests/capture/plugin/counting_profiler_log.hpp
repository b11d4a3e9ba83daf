// counting_profiler_log.hpp — the chaining tests' view of the counting test profiler
// (tests/chained_plugin/counting_profiler.hpp): the environment that makes the capture plugin
// chain it, and the calls it logged.
//
// Contract:
// - ChainEnv sets NPKIT_CHAIN_PLUGIN to `path` and every COUNTING_PROFILER_* variable (mask
//   given, the failure switches as given or unset), restores them all when it goes away, and
//   clears the profiler's log when constructed.
// - counting_calls(path) opens the library (the same instance the capture plugin opened, or a
//   first one) and returns its log; REQUIREs (Catch2) that it loads.
// - calls_of(calls, kind): the calls of one kind, in call order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "capture/plugin/scoped_env.hpp"
#include "chained_plugin/counting_profiler.hpp"

namespace npkit::test {

inline constexpr const char* kCountingProfiler = NPKIT_COUNTING_PROFILER_PATH;
inline constexpr const char* kCountingProfilerV4Only = NPKIT_COUNTING_PROFILER_V4ONLY_PATH;
inline constexpr const char* kCountingProfilerNoV6 = NPKIT_COUNTING_PROFILER_NO_V6_PATH;

struct CountingFailures {
  std::optional<std::string> init_result = std::nullopt;
  std::optional<std::string> null_context = std::nullopt;
  std::optional<std::string> null_handles = std::nullopt;
  std::optional<std::string> event_result = std::nullopt;
};

class ChainEnv {
 public:
  ChainEnv(const std::string& path, uint64_t their_mask, const CountingFailures& failures = {});

 private:
  ScopedEnv chain_;
  ScopedEnv mask_;
  ScopedEnv init_result_;
  ScopedEnv null_context_;
  ScopedEnv null_handles_;
  ScopedEnv event_result_;
};

std::vector<CountingProfilerCall> counting_calls(const std::string& path);

std::vector<CountingProfilerCall> calls_of(const std::vector<CountingProfilerCall>& calls,
                                           int kind);

}  // namespace npkit::test
