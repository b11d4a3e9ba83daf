#include "rank_main.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "crash_report.hpp"
#include "device_errors.hpp"
#include "rank_modes.hpp"
#include "rank_processes.hpp"
#include "report.hpp"

namespace npkit::driver {
namespace {

int run_modes(RankRun& run, const Options& options) {
  const bool cost = options.launch_cost_calls > 0;
  run.open_logs(cost ? cost_csv_header() : csv_header());
  std::string start = "start pid=" + std::to_string(getpid());
  if (options.one_gpu) start += " device=0 NCCL_HOSTID=" + std::string(getenv("NCCL_HOSTID"));
  run.event(start);
  run.setup(buffer_bytes(options));
  std::int64_t wrong = 0;
  if (options.loop_calls > 0) {
    run_loop(run);
  } else if (cost) {
    run_launch_cost(run);
  } else {
    wrong = run_sweep(run);
  }
  run.teardown();
  return wrong > 0 ? kExitCheckFailed : 0;
}

}  // namespace

int run_rank(int rank, int nranks, const Options& options, ControlPage* page) {
  report_crashes(rank);
  if (options.one_gpu) {
    setenv("NCCL_HOSTID", ("onegpu-host-" + std::to_string(rank)).c_str(), 1);
  }
  RankRun run(rank, nranks, options, page);
  try {
    const int status = run_modes(run, options);
    run.event("exit status=" + std::to_string(status));
    return status;
  } catch (const FaultExit&) {
    run.event("exit status=0 (exit fault)");
    return 0;
  } catch (const DriverError& error) {
    page->abort.store(1, std::memory_order_release);
    std::fprintf(stderr, "npkit-nccl-driver: rank %d: %s\n", rank, error.what());
    run.event(std::string("failed ") + error.what());
    run.event("exit status=" + std::to_string(kExitFailure));
    return kExitFailure;
  }
}

}  // namespace npkit::driver
