// rank_modes.hpp — the three workloads a rank runs after RankRun::setup.
//
// Contract (each throws DriverError on failure; rank 0 prints and writes the CSV):
// - run_sweep(): for each --colls collective and size (coll_shape.hpp conventions): --warmup
//   calls, a synchronize, a barrier, the host wall clock around --iters back-to-back calls and a
//   synchronize; with --check one more call whose result is verified (check_pattern.hpp). Rank 0
//   prints one row per size (time = mean over ranks; #wrong summed over ranks) and the footer.
//   Returns the wrong values found (rank 0: over all ranks; others 0).
// - run_loop(): --loop N calls of the first --colls collective at --min-bytes, each followed by a
//   synchronize (phase loop); rank 0 prints one row (time = mean per call incl. the synchronize,
//   averaged over ranks), not checked.
// - run_launch_cost(): for each size, --warmup calls and then --launch-cost N calls of the first
//   --colls collective, each followed by a synchronize; each call's call-to-return time goes to
//   the control page, and rank 0 prints the median, p10 and p90 over all ranks' calls.
// buffer_bytes() is what setup must allocate for the mode.
#pragma once

#include <cstddef>
#include <cstdint>

#include "options.hpp"
#include "rank_run.hpp"

namespace npkit::driver {

std::size_t buffer_bytes(const Options& options);

std::int64_t run_sweep(RankRun& run);
void run_loop(RankRun& run);
void run_launch_cost(RankRun& run);

}  // namespace npkit::driver
