// captured_log.hpp — a stand-in for NCCL's logger (ncclDebugLogger_t) that keeps every message,
// so tests can count the warnings the plugin reports.
//
// Contract:
// - capture_log formats its printf-style arguments and appends {level, text}; it is thread-safe
//   (communicators may be initialized from several threads at once).
// - LogCapture clears the kept messages when constructed; its queries read a snapshot.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "capture/plugin/nccl_abi_for_tests.hpp"

namespace npkit::test {

void capture_log(abi::LogLevel level, unsigned long subsys_flags, const char* file, int line,
                 const char* fmt, ...);

struct LoggedLine {
  int level = 0;
  std::string text;
};

class LogCapture {
 public:
  LogCapture();
  std::vector<LoggedLine> lines() const;
  // Messages at `level` whose text contains `needle` ("" matches every message of that level).
  size_t count(abi::LogLevel level, std::string_view needle = "") const;
  // Every message, one per line, for failure reports.
  std::string dump() const;
};

}  // namespace npkit::test
