// options.hpp — the command line of npkit-nccl-driver.
//
// Contract: parse_options() never exits or prints; it returns what to do (run, show help) or an
// error message naming the offending argument. Defaults follow nccl-tests (-b 8 -e 256M -f 2
// -w 5 -n 20, check on). Every accepted Options value is runnable: ranges are checked here, and so
// are combinations (--one-gpu needs --nranks; --loop and --launch-cost exclude each other; a
// --fault rank lies below --nranks when that is given — main checks it against the device count
// otherwise).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coll_shape.hpp"
#include "fault_spec.hpp"

namespace npkit::driver {

// Largest --nranks the shared control page has room for.
inline constexpr int kMaxRanks = 64;
// Largest --launch-cost: the control page keeps every call's time of one size for rank 0.
inline constexpr int kMaxCostCalls = 1000;
// Default --grace-s: how long the other ranks may run on after one rank failed.
inline constexpr int kDefaultGraceSeconds = 10;

struct Options {
  int nranks = 0;        // 0: one rank per visible CUDA device
  bool one_gpu = false;  // every rank on device 0, each with its own NCCL_HOSTID
  std::vector<CollKind> colls = default_colls();
  std::size_t min_bytes = 8;
  std::size_t max_bytes = std::size_t{256} << 20;
  std::size_t step_factor = 2;
  int warmup = 5;
  int iters = 20;
  bool check = true;
  bool destroy = true;
  int timeout_s = 300;
  int grace_s = kDefaultGraceSeconds;
  std::string csv_path;       // empty: no CSV
  std::string calls_log_dir;  // empty: no per-rank calls and events logs
  int loop_calls = 0;         // --loop N: N synchronized calls instead of the sweep (0: sweep)
  int launch_cost_calls = 0;  // --launch-cost N: N timed calls per size (0: off)
  int watchdog_s = 0;         // 0: no watchdog
  std::optional<FaultSpec> fault;
};

struct ParseOutcome {
  enum class Action { kRun, kHelp, kError };
  Action action = Action::kRun;
  Options options;
  std::string error;  // set for kError
};

// Parses the arguments after the program name. Values are given as "--name value" or
// "--name=value".
ParseOutcome parse_options(const std::vector<std::string>& args);

// "8", "64K", "256M", "1G" (powers of 1024, case-insensitive suffix); nullopt if malformed or if
// the value does not fit in size_t.
std::optional<std::size_t> parse_byte_size(std::string_view text);

// The --help text.
std::string usage_text(std::string_view program);

}  // namespace npkit::driver
