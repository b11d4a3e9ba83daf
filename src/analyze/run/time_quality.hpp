// run/time_quality.hpp — what a run's times rest on, judged once when the run is read, so that
// every command shows the same flags and compares only clean members (RunInstance::clean).
// Contract:
// - host_disagree: an instance (not a Send/Recv pair, of a communicator with start times) whose
//   timed members of one host disagree: on some host the earliest completion lies before the
//   latest arrival, which no collective allows (each rank's host as the cross-rank analysis
//   takes it: every rank one host unless every rank names one). Which rank's time is wrong is
//   unknown, so no member of the instance is clean.
// - implausibly_short: a timed member of a RING or TREE instance (every rank waits on data that
//   passes through the others) with at least two timed members, whose time is below
//   kShortShare of the slowest timed member's — unless the ranks share one clock, the member
//   arrived last and no member ended later than its end by more than its own time (the last to
//   arrive waits for no one and the others finish with it: a short time is then its true
//   time). Without one clock a straggler's short time cannot be told from a wrong one and is
//   flagged.
// - flag words of an instance, in this order: "untimed" (no member timed), "stale" (a member's
//   GPU time was another work's), "host-disagree", "short rank R[,R]" (implausibly short).
#pragma once

#include <string>
#include <vector>

#include "run/run.hpp"

namespace npkit {

inline constexpr double kShortShare = 0.01;

void assess_time_quality(RunCommunicator& comm);
void assess_time_quality(Run& run);

std::vector<std::string> instance_flags(const RunInstance& inst);

}  // namespace npkit
