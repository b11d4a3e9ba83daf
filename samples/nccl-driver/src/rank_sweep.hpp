// rank_sweep.hpp — what one rank process does: join the communicator, run the timed sweep, report.
//
// Contract:
// - run_rank() uses CUDA device `rank`, joins an NCCL communicator of `nranks` ranks (rank 0
// creates
//   the unique id and publishes it in the control page), allocates its send and receive buffers
//   once at --max-bytes, and for each collective and size: --warmup launches, a stream sync, a
//   barrier, then the host wall clock around --iters back-to-back launches and a stream sync.
// - Rank 0 prints the table on stdout (flushed per row) and writes the CSV rows as they come; both
//   are complete before any teardown starts. Then ncclCommDestroy runs unless --no-destroy.
// - Never throws. Returns 0, kExitCheckFailed (rank 0, when the AllReduce check found wrong values)
//   or kExitFailure after printing "npkit-nccl-driver: rank R: <what failed>" on stderr and
//   setting the page's abort flag.
#pragma once

#include "control_page.hpp"
#include "options.hpp"

namespace npkit::driver {

int run_rank(int rank, int nranks, const Options& options, ControlPage* page);

}  // namespace npkit::driver
