#include "util/process_probe.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

namespace npkit {
namespace {

constexpr std::int64_t kRoundingNs = 2'000'000'000;

std::optional<std::int64_t> boot_time_s() {
  std::ifstream stat("/proc/stat");
  std::string key;
  while (stat >> key) {
    if (key == "btime") {
      std::int64_t seconds = 0;
      if (stat >> seconds) return seconds;
      return std::nullopt;
    }
    stat.ignore(1 << 20, '\n');
  }
  return std::nullopt;
}

// Field 22 of /proc/<pid>/stat (starttime, clock ticks since boot); the command name (field 2)
// may hold spaces and parentheses, so fields are counted after its last ')'.
std::optional<std::int64_t> start_ticks(const std::string& stat_line) {
  const auto close = stat_line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(stat_line.substr(close + 1));
  std::string field;
  for (int index = 3; fields >> field; ++index) {
    if (index == 22) {
      try {
        return std::stoll(field);
      } catch (...) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string this_host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "";
  return name;
}

std::optional<bool> process_running_since(std::int32_t pid, std::int64_t started_by_ns) {
  if (pid <= 0) return std::nullopt;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) {
    if (access("/proc/self/stat", R_OK) != 0) return std::nullopt;  // no /proc to ask
    return false;
  }
  std::string line;
  std::getline(stat, line);
  const std::optional<std::int64_t> ticks = start_ticks(line);
  const std::optional<std::int64_t> boot = boot_time_s();
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  if (!ticks || !boot || ticks_per_second <= 0) return std::nullopt;
  const std::int64_t started_ns =
      *boot * 1'000'000'000 + *ticks * (1'000'000'000 / ticks_per_second);
  return started_ns <= started_by_ns + kRoundingNs;
}

std::int64_t realtime_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace npkit
