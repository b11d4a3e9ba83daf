// rank_processes.hpp — forks child processes (one per rank, or one device probe) and supervises
// them from the parent.
//
// Contract:
// - run_processes() flushes stdio, forks `count` children and calls body(index) in each; the
//   child exits with body's return value (0 success, kExitCheckFailed for wrong results, anything
//   else a failure). Children die with the parent (PR_SET_PDEATHSIG).
// - The parent never touches CUDA. It polls the children: when one fails, or ends (whatever its
//   status) after injecting its --fault (its slot's fault_fired), it sets the page's abort flag
//   and kills the others `grace_s` seconds later; when `timeout_s` passes, or the parent gets
//   SIGINT/SIGTERM, it kills all of them.
// - Each child that does not succeed is reported on stderr, and through `note` when set, with how
//   it ended (status, or signal number and name) and whether the parent had killed it; so is each
//   kill and its reason. Messages name a child with name_of(index) ("rank 1", "device probe").
// - Returns the exit status for the whole run: 0 all succeeded; kExitCheckFailed if the only
//   problem was wrong results; kExitFailure otherwise (a child ended by its fault counts as
//   succeeded only when it exited with 0).
#pragma once

#include <functional>
#include <string>

#include "control_page.hpp"

namespace npkit::driver {

inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitCheckFailed = 3;
// A rank's own status after its watchdog aborted the communicator (--watchdog-s).
inline constexpr int kExitWatchdogAbort = 4;

using ProcessNamer = std::string (*)(int index);

struct Supervision {
  ProcessNamer name_of = nullptr;
  int timeout_s = 300;
  int grace_s = kDefaultGraceSeconds;  // seconds the others may run on after one failed
  std::function<void(const std::string& line)> note;  // also gets each stderr message, if set
};

int run_processes(int count, const Supervision& supervision, ControlPage* page,
                  const std::function<int(int index)>& body);

// "rank <index>", the namer for rank processes.
std::string rank_name(int index);

}  // namespace npkit::driver
