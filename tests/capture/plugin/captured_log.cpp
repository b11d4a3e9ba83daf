#include "capture/plugin/captured_log.hpp"

#include <cstdarg>
#include <cstdio>
#include <mutex>

namespace npkit::test {
namespace {

std::mutex& log_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<LoggedLine>& log_lines() {
  static std::vector<LoggedLine> lines;
  return lines;
}

}  // namespace

void capture_log(abi::LogLevel level, unsigned long /*subsys_flags*/, const char* /*file*/,
                 int /*line*/, const char* fmt, ...) {
  char text[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof(text), fmt, args);
  va_end(args);
  std::lock_guard<std::mutex> lock(log_mutex());
  log_lines().push_back(LoggedLine{static_cast<int>(level), text});
}

LogCapture::LogCapture() {
  std::lock_guard<std::mutex> lock(log_mutex());
  log_lines().clear();
}

std::vector<LoggedLine> LogCapture::lines() const {
  std::lock_guard<std::mutex> lock(log_mutex());
  return log_lines();
}

size_t LogCapture::count(abi::LogLevel level, std::string_view needle) const {
  size_t n = 0;
  for (const LoggedLine& line : lines()) {
    if (line.level == level && line.text.find(needle) != std::string::npos) ++n;
  }
  return n;
}

std::string LogCapture::dump() const {
  std::string out;
  for (const LoggedLine& line : lines()) {
    out += "[" + std::to_string(line.level) + "] " + line.text + "\n";
  }
  return out;
}

}  // namespace npkit::test
