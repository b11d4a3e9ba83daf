// npkit-nccl-driver: nccl-tests style sweep of NCCL collectives, one process per GPU (or many on
// one GPU), used to make profiler captures with a known workload and an independent bandwidth
// table; --loop, --fault and --watchdog-s make hangs on purpose, --launch-cost times the host side
// of a call.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "call_log.hpp"
#include "control_page.hpp"
#include "device_count.hpp"
#include "options.hpp"
#include "rank_main.hpp"
#include "rank_processes.hpp"

int main(int argc, char** argv) {
  using namespace npkit::driver;
  const std::vector<std::string> args(argv + 1, argv + argc);
  const ParseOutcome parsed = parse_options(args);
  if (parsed.action == ParseOutcome::Action::kHelp) {
    std::fputs(usage_text(argv[0]).c_str(), stdout);
    return 0;
  }
  if (parsed.action == ParseOutcome::Action::kError) {
    std::fprintf(stderr, "npkit-nccl-driver: %s\n", parsed.error.c_str());
    return kExitUsage;
  }
  const Options& options = parsed.options;

  std::string error;
  ControlPage* page = map_control_page(&error);
  if (page == nullptr) {
    std::fprintf(stderr, "npkit-nccl-driver: %s\n", error.c_str());
    return kExitFailure;
  }
  int nranks = options.nranks;
  if (nranks == 0) {
    nranks = count_devices_in_child(page, options.timeout_s);
    if (nranks < 1) return kExitFailure;
    if (nranks > kMaxRanks) nranks = kMaxRanks;
  }
  if (options.fault && options.fault->rank >= nranks) {
    std::fprintf(stderr, "npkit-nccl-driver: --fault names rank %d but there are %d ranks\n",
                 options.fault->rank, nranks);
    return kExitUsage;
  }

  Supervision supervision;
  supervision.name_of = rank_name;
  supervision.timeout_s = options.timeout_s;
  supervision.grace_s = options.grace_s;
  auto parent_events = std::make_shared<LogFile>();
  if (!options.calls_log_dir.empty()) {
    if (!make_directories(options.calls_log_dir, &error) ||
        !parent_events->open(parent_events_path(options.calls_log_dir), &error)) {
      std::fprintf(stderr, "npkit-nccl-driver: --calls-log: %s\n", error.c_str());
      return kExitFailure;
    }
    supervision.note = [parent_events](const std::string& line) {
      parent_events->write(event_line(realtime_now_ns(), "parent", line));
    };
  }
  return run_processes(nranks, supervision, page,
                       [&](int rank) { return run_rank(rank, nranks, options, page); });
}
