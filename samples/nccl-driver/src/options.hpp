// options.hpp — the command line of npkit-nccl-driver.
//
// Contract: parse_options() never exits or prints; it returns what to do (run, show help) or an
// error message naming the offending argument. Defaults follow nccl-tests (-b 8 -e 256M -f 2
// -w 5 -n 20, check on). Every accepted Options value is runnable: ranges are checked here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coll_shape.hpp"

namespace npkit::driver {

// Largest --nranks the shared control page has room for.
inline constexpr int kMaxRanks = 64;

struct Options {
  int nranks = 0;  // 0: one rank per visible CUDA device
  std::vector<CollKind> colls = all_colls();
  std::size_t min_bytes = 8;
  std::size_t max_bytes = std::size_t{256} << 20;
  std::size_t step_factor = 2;
  int warmup = 5;
  int iters = 20;
  bool check = true;
  bool destroy = true;
  int timeout_s = 300;
  std::string csv_path;  // empty: no CSV
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
