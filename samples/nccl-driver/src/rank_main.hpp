// rank_main.hpp — what one rank process does, from its first line to its exit status.
//
// Contract:
// - run_rank() first sets NCCL_HOSTID=onegpu-host-<rank> with --one-gpu (overwriting an inherited
//   value, before any CUDA or NCCL call of the process), opens its logs, then runs RankRun::setup
//   and one mode (rank_modes.hpp): the sweep, --loop or --launch-cost, then RankRun::teardown.
//   Rank 0's table and CSV are complete before any teardown starts.
// - Never throws. Returns 0; kExitCheckFailed (rank 0, when a check found wrong values); 0 after
//   the exit fault; or kExitFailure after printing "npkit-nccl-driver: rank R: <what failed>" on
//   stderr, writing it to the events log and setting the page's abort flag. The kill fault and the
//   watchdog end the process themselves (SIGKILL; status kExitWatchdogAbort).
#pragma once

#include "control_page.hpp"
#include "options.hpp"

namespace npkit::driver {

int run_rank(int rank, int nranks, const Options& options, ControlPage* page);

}  // namespace npkit::driver
