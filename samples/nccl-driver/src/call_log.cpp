#include "call_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace npkit::driver {

std::string_view phase_name(CallPhase phase) {
  switch (phase) {
    case CallPhase::kWarmup:
      return "warmup";
    case CallPhase::kTimed:
      return "timed";
    case CallPhase::kCheck:
      return "check";
    case CallPhase::kLoop:
      return "loop";
    case CallPhase::kCost:
      return "cost";
  }
  return "unknown";
}

std::string call_log_header() {
  return "rank,call,coll,size_bytes,count,phase,host_call_ns,host_return_ns,gpu_us\n";
}

std::string call_log_row(const CallRow& row) {
  char gpu[32] = "";
  if (row.gpu_us) std::snprintf(gpu, sizeof gpu, "%.3f", *row.gpu_us);
  char text[256];
  std::snprintf(text, sizeof text, "%d,%lld,%.*s,%zu,%zu,%.*s,%lld,%lld,%s\n", row.rank, row.call,
                static_cast<int>(row.coll.size()), row.coll.data(), row.size_bytes, row.count,
                static_cast<int>(phase_name(row.phase).size()), phase_name(row.phase).data(),
                static_cast<long long>(row.host_call_ns),
                static_cast<long long>(row.host_return_ns), gpu);
  return text;
}

std::string event_line(std::int64_t realtime_ns, std::string_view who, std::string_view text) {
  std::string line = std::to_string(realtime_ns);
  line += ' ';
  line += who;
  line += ' ';
  line += text;
  line += '\n';
  return line;
}

std::int64_t realtime_now_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

std::string calls_log_path(const std::string& dir, int rank) {
  return dir + "/calls_rank" + std::to_string(rank) + ".csv";
}

std::string events_log_path(const std::string& dir, int rank) {
  return dir + "/events_rank" + std::to_string(rank) + ".txt";
}

std::string parent_events_path(const std::string& dir) {
  return dir + "/events_parent.txt";
}

bool make_directories(const std::string& dir, std::string* error) {
  for (std::size_t end = dir.find('/', 1);; end = dir.find('/', end + 1)) {
    const std::string prefix = dir.substr(0, end);
    if (!prefix.empty() && mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) {
      *error = "cannot create " + prefix + ": " + std::strerror(errno);
      return false;
    }
    if (end == std::string::npos) break;
  }
  struct stat info {};
  if (stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    *error = dir + " is not a folder";
    return false;
  }
  return true;
}

LogFile::~LogFile() {
  if (fd_ >= 0) close(fd_);
}

bool LogFile::open(const std::string& path, std::string* error) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool LogFile::write(std::string_view text) const {
  if (fd_ < 0) return true;
  while (!text.empty()) {
    const ssize_t written = ::write(fd_, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace npkit::driver
