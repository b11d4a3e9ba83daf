// npkit-nccl-driver: nccl-tests style sweep of NCCL collectives, one process per GPU, used to make
// profiler captures with a known workload and an independent bandwidth table.
#include <cstdio>
#include <string>
#include <vector>

#include "control_page.hpp"
#include "device_count.hpp"
#include "options.hpp"
#include "rank_processes.hpp"
#include "rank_sweep.hpp"

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
  return run_processes(nranks, rank_name, options.timeout_s, page,
                       [&](int rank) { return run_rank(rank, nranks, options, page); });
}
