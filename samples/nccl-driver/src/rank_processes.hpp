// rank_processes.hpp — forks child processes (one per rank, or one device probe) and supervises
// them from the parent.
//
// Contract:
// - run_processes() flushes stdio, forks `count` children and calls body(index) in each; the
//   child exits with body's return value (0 success, kExitCheckFailed for wrong results, anything
//   else a failure). Children die with the parent (PR_SET_PDEATHSIG).
// - The parent never touches CUDA. It polls the children: when one fails it sets the page's abort
//   flag and kills the others after a grace period; when `timeout_s` passes, or the parent gets
//   SIGINT/SIGTERM, it kills all of them. Each failure is reported on stderr with its cause.
// - Messages name a child with name_of(index) ("rank 1", "device probe").
// - Returns the exit status for the whole run: 0 all succeeded; kExitCheckFailed if the only
//   problem was wrong results; kExitFailure otherwise.
#pragma once

#include <functional>
#include <string>

#include "control_page.hpp"

namespace npkit::driver {

inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitCheckFailed = 3;

// Seconds the surviving ranks get to leave on their own after another rank failed.
inline constexpr int kGraceSeconds = 10;

using ProcessNamer = std::string (*)(int index);

int run_processes(int count, ProcessNamer name_of, int timeout_s, ControlPage* page,
                  const std::function<int(int index)>& body);

// "rank <index>", the namer for rank processes.
std::string rank_name(int index);

}  // namespace npkit::driver
