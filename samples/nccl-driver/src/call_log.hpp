// call_log.hpp — the logs of --calls-log DIR: per rank calls_rank<R>.csv (one row per NCCL call)
// and events_rank<R>.txt (notable moments), and the parent's events_parent.txt.
//
// Contract:
// - calls_rank<R>.csv: call_log_header(), then call_log_row() rows. A call gets its row the moment
//   it returns, with gpu_us empty, and a second, complete row (gpu_us filled) once the stream
//   synchronize that follows it has returned. So a rank that dies leaves a row for every call it
//   made, and a call without a second row never completed as far as its rank saw. The calls are
//   the rows whose gpu_us is empty.
// - Columns: rank; call (0-based index of the rank's NCCL operation calls, a sendrecv group being
//   one call); coll; size_bytes and count (as the table shows them); phase (warmup, timed, check,
//   loop, cost); host_call_ns and host_return_ns (CLOCK_REALTIME just before the call and just
//   after it returned); gpu_us (CUDA events recorded on the stream right before and right after
//   the launch, milliseconds x 1000 with 3 decimals).
// - Event lines: "<CLOCK_REALTIME ns> <who> <event>[ <detail>]", who = "rank<R>" or "parent".
// - LogFile writes each row or line with one write(2) on a file opened with O_APPEND: it is in the
//   file (the page cache) when write returns, whatever kills the process afterwards, and lines
//   written by two threads never interleave. No stdio buffer, no exception.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npkit::driver {

enum class CallPhase { kWarmup, kTimed, kCheck, kLoop, kCost };

std::string_view phase_name(CallPhase phase);

struct CallRow {
  int rank = 0;
  long long call = 0;
  std::string_view coll;
  std::size_t size_bytes = 0;
  std::size_t count = 0;
  CallPhase phase = CallPhase::kTimed;
  std::int64_t host_call_ns = 0;
  std::int64_t host_return_ns = 0;
  std::optional<double> gpu_us;  // nullopt: not known (yet)
};

std::string call_log_header();
std::string call_log_row(const CallRow& row);
std::string event_line(std::int64_t realtime_ns, std::string_view who, std::string_view text);

// CLOCK_REALTIME in nanoseconds.
std::int64_t realtime_now_ns();

std::string calls_log_path(const std::string& dir, int rank);
std::string events_log_path(const std::string& dir, int rank);
std::string parent_events_path(const std::string& dir);

// Creates `dir` and its parents (like mkdir -p); false with *error set when it cannot.
bool make_directories(const std::string& dir, std::string* error);

// An append-only file written one row or line at a time.
class LogFile {
 public:
  LogFile() = default;
  ~LogFile();
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;

  // Creates or truncates `path`; false with *error set on failure.
  bool open(const std::string& path, std::string* error);
  bool is_open() const { return fd_ >= 0; }
  // One write(2) of `text`; true when not open or when all of it was written.
  bool write(std::string_view text) const;

 private:
  int fd_ = -1;
};

}  // namespace npkit::driver
