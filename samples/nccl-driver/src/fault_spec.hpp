// fault_spec.hpp — the --fault KIND:RANK:CALL option: one fault injected into one rank's run.
//
// Contract (pure, no CUDA, no NCCL):
// - CALL is the 0-based index of the rank's NCCL operation calls, counted as the calls log counts
//   them (every warm-up, timed, check, loop and launch-cost call; a sendrecv group is one call).
// - kill: the rank SIGKILLs itself right after call CALL returned, before any stream sync (its
//   kernel may or may not have finished). exit: the rank exits with status 0 just before making
//   call CALL, without ncclCommDestroy. mismatch: at call CALL the rank calls ncclAllGather with
//   the collective's count / nranks where the others make the planned call. skip: the rank stays
//   alive but makes neither call CALL nor any later call; it sleeps until it is killed.
// - parse_fault() accepts "kill:1:10" (kind case-insensitive, rank and call non-negative
//   integers); anything else yields nullopt and an error message naming the part at fault.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace npkit::driver {

enum class FaultKind { kKill, kExit, kMismatch, kSkip };

struct FaultSpec {
  FaultKind kind = FaultKind::kKill;
  int rank = 0;
  long long call = 0;
};

std::optional<FaultSpec> parse_fault(std::string_view text, std::string* error);

// "kill", "exit", "mismatch", "skip".
std::string_view fault_name(FaultKind kind);

// One line for the preamble and the logs, e.g. "kill: rank 1 SIGKILLs itself right after call 10
// returned".
std::string describe_fault(const FaultSpec& fault);

}  // namespace npkit::driver
