#include "options.hpp"

#include <cctype>
#include <charconv>
#include <limits>

namespace npkit::driver {
namespace {

std::optional<long long> parse_integer(std::string_view text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::vector<CollKind>> parse_coll_list(std::string_view text, std::string* bad) {
  std::vector<CollKind> colls;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const std::optional<CollKind> kind = parse_coll(item);
    if (!kind) {
      *bad = std::string(item);
      return std::nullopt;
    }
    colls.push_back(*kind);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  if (colls.empty()) return std::nullopt;
  return colls;
}

ParseOutcome error(std::string message) {
  ParseOutcome outcome;
  outcome.action = ParseOutcome::Action::kError;
  outcome.error = std::move(message);
  return outcome;
}

// Reads an integer option value into *out if it lies in [lo, hi]; otherwise an error message.
std::optional<std::string> read_int(std::string_view name, std::string_view value, long long lo,
                                    long long hi, int* out) {
  const std::optional<long long> parsed = parse_integer(value);
  if (!parsed || *parsed < lo || *parsed > hi) {
    return std::string(name) + " expects an integer in [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "], got '" + std::string(value) + "'";
  }
  *out = static_cast<int>(*parsed);
  return std::nullopt;
}

}  // namespace

std::optional<std::size_t> parse_byte_size(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::size_t shift = 0;
  switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K':
      shift = 10;
      break;
    case 'M':
      shift = 20;
      break;
    case 'G':
      shift = 30;
      break;
    default:
      break;
  }
  if (shift != 0) text.remove_suffix(1);
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  if (value > (std::numeric_limits<std::size_t>::max() >> shift)) return std::nullopt;
  return value << shift;
}

ParseOutcome parse_options(const std::vector<std::string>& args) {
  ParseOutcome outcome;
  Options& options = outcome.options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    std::optional<std::string> inline_value;
    if (const std::size_t eq = name.find('=');
        name.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (name == "-h" || name == "--help") {
      outcome.action = ParseOutcome::Action::kHelp;
      return outcome;
    }
    const bool is_flag =
        name == "--check" || name == "--no-check" || name == "--no-destroy" || name == "--one-gpu";
    if (is_flag) {
      if (inline_value) return error(name + " takes no value");
      if (name == "--no-destroy") {
        options.destroy = false;
      } else if (name == "--one-gpu") {
        options.one_gpu = true;
      } else {
        options.check = name == "--check";
      }
      continue;
    }
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return error(name.rfind("--", 0) == 0 ? name + " needs a value"
                                            : "unexpected argument '" + name + "'");
    }
    std::optional<std::string> problem;
    if (name == "--nranks") {
      problem = read_int(name, value, 1, kMaxRanks, &options.nranks);
    } else if (name == "--warmup") {
      problem = read_int(name, value, 0, 1000000, &options.warmup);
    } else if (name == "--iters") {
      problem = read_int(name, value, 1, 1000000, &options.iters);
    } else if (name == "--timeout-s") {
      problem = read_int(name, value, 1, 86400, &options.timeout_s);
    } else if (name == "--grace-s") {
      problem = read_int(name, value, 0, 86400, &options.grace_s);
    } else if (name == "--watchdog-s") {
      problem = read_int(name, value, 1, 86400, &options.watchdog_s);
    } else if (name == "--loop") {
      problem = read_int(name, value, 1, 1000000000, &options.loop_calls);
    } else if (name == "--launch-cost") {
      problem = read_int(name, value, 1, kMaxCostCalls, &options.launch_cost_calls);
    } else if (name == "--fault") {
      std::string fault_error;
      options.fault = parse_fault(value, &fault_error);
      if (!options.fault) problem = fault_error;
    } else if (name == "--min-bytes" || name == "--max-bytes") {
      const std::optional<std::size_t> bytes = parse_byte_size(value);
      if (!bytes || *bytes == 0) {
        problem = name + " expects a positive size such as 8, 64K, 256M, 1G, got '" + value + "'";
      } else {
        (name == "--min-bytes" ? options.min_bytes : options.max_bytes) = *bytes;
      }
    } else if (name == "--step-factor") {
      const std::optional<long long> factor = parse_integer(value);
      if (!factor || *factor < 2 || *factor > 1024) {
        problem = "--step-factor expects an integer in [2, 1024], got '" + value + "'";
      } else {
        options.step_factor = static_cast<std::size_t>(*factor);
      }
    } else if (name == "--colls") {
      std::string bad;
      std::optional<std::vector<CollKind>> colls = parse_coll_list(value, &bad);
      if (!colls) {
        problem = "--colls: unknown collective '" + bad +
                  "' (known: allreduce, allgather, reducescatter, alltoall, broadcast, sendrecv)";
      } else {
        options.colls = std::move(*colls);
      }
    } else if (name == "--csv") {
      if (value.empty()) problem = "--csv needs a file name";
      options.csv_path = value;
    } else if (name == "--calls-log") {
      if (value.empty()) problem = "--calls-log needs a folder name";
      options.calls_log_dir = value;
    } else {
      return error("unknown option '" + name + "' (see --help)");
    }
    if (problem) return error(*problem);
  }
  if (options.min_bytes > options.max_bytes) {
    return error("--min-bytes (" + std::to_string(options.min_bytes) +
                 ") is larger than --max-bytes (" + std::to_string(options.max_bytes) + ")");
  }
  if (options.one_gpu && options.nranks == 0) {
    return error("--one-gpu needs --nranks (how many ranks share device 0)");
  }
  if (options.loop_calls > 0 && options.launch_cost_calls > 0) {
    return error("--loop and --launch-cost are separate modes; give one of them");
  }
  if (options.fault && options.nranks > 0 && options.fault->rank >= options.nranks) {
    return error("--fault names rank " + std::to_string(options.fault->rank) + " but --nranks is " +
                 std::to_string(options.nranks));
  }
  return outcome;
}

std::string usage_text(std::string_view program) {
  std::string text = "usage: " + std::string(program) + " [options]\n";
  text += R"(
Runs NCCL collectives over one process per GPU on this host and prints an nccl-tests style
table (size, count, time, algbw, busbw) per collective. Rank 0 prints; the parent process forks
the ranks, waits for them and kills them all if one fails or the time limit passes.

Options:
  --nranks N          ranks (one process and one GPU each); default: every visible CUDA device
  --one-gpu           every rank uses CUDA device 0 and sets NCCL_HOSTID=onegpu-host-<rank> in
                      its own process, so NCCL takes each rank for a host of its own (NET/Socket
                      between ranks; slow but real). Needs --nranks
  --colls LIST        comma-separated: allreduce,allgather,reducescatter,alltoall,broadcast,
                      sendrecv (default: the first five, in that order)
  --min-bytes SIZE    first size (default 8); SIZE accepts K, M, G suffixes (powers of 1024)
  --max-bytes SIZE    last size (default 256M)
  --step-factor F     size multiplier between rows (default 2)
  --warmup N          untimed launches per size before timing (default 5)
  --iters N           timed back-to-back launches per size (default 20)
  --check             after timing each size, one more call whose result is verified (default)
  --no-check          skip the verification
  --csv FILE          also write rows: coll,size_bytes,count,type,nranks,time_us,algbw_gbps,busbw_gbps
  --calls-log DIR     each rank writes DIR/calls_rank<R>.csv (one row per NCCL call, flushed row
                      by row) and DIR/events_rank<R>.txt; the parent DIR/events_parent.txt
  --loop N            instead of the sweep: N calls of the first --colls collective at
                      --min-bytes, each followed by a stream synchronize (the hang workload)
  --launch-cost N     instead of the sweep: per size, --warmup then N calls of the first --colls
                      collective, each followed by a stream synchronize; rank 0 prints the
                      median, p10 and p90 of the call-to-return time over all ranks' calls
  --fault K:R:C       inject a fault into rank R at its call C (0-based, as the calls log counts):
                      kill (SIGKILL right after call C returned), exit (exit 0 before call C, no
                      ncclCommDestroy), mismatch (ncclAllGather of count/nranks at call C),
                      skip (make no call from C on, stay alive sleeping)
  --watchdog-s S      each rank aborts its communicator (ncclCommAbort) and exits with status 4
                      when a call has not completed S seconds after it returned
  --grace-s S         after one rank failed, the others may run S seconds more (default 10)
  --no-destroy        exit without ncclCommDestroy (exercises a profiler's process-exit path)
  --timeout-s S       kill every rank after S seconds (default 300)
  -h, --help          this text

Sizes follow nccl-tests: for allgather, reducescatter and alltoall SIZE is the total; each rank's
count is SIZE/nranks/4 rounded down to 16 bytes, and sizes that leave a count of 0 are skipped.
Data type float; reductions are sums; broadcast root is rank 0. Time per size: host wall clock
around the timed launches and a stream synchronize, divided by --iters, averaged over ranks.
algbw = size/time (1 GB = 1e9 B); busbw = algbw x 2(n-1)/n (allreduce), (n-1)/n (allgather,
reducescatter, alltoall), 1 (broadcast, sendrecv). sendrecv: rank r sends SIZE to (r+1)%n and
receives SIZE from (r-1+n)%n in one group.

Exit status: 0 on success, 1 if a rank failed, was killed or timed out, 2 for bad usage, 3 if
the check found wrong values. A rank's own status: 4 after its watchdog aborted the communicator.
)";
  return text;
}

}  // namespace npkit::driver
