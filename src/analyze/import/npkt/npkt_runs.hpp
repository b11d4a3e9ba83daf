// import/npkt/npkt_runs.hpp — the runs of a job that the .npkt files of one input belong to
// (run/capture_runs.hpp), and which of them a command reads.
// Contract:
// - capture_file_facts: what one file says of its run: its communicator, rank, host, capture
//   window (when its host clock is CLOCK_REALTIME and its start is recorded), build ("NCCL
//   <nccl.version>", ", plugin <capture.plugin_version>") and settings ("events
//   <capture.events>", "; NPKIT_SAMPLE <capture.sample>").
// - choose_run: with one run (or none), every file, and `run` 0 or 1; `run` above the count is an
//   Error. With several: `run` N reads run N's files (an Error naming the runs when there is no
//   run N); 0 with `refuse_mixed` is an Error naming the runs and both ways out (--run N,
//   --pool-runs); 0 otherwise reads every file with one "mixed runs" warning naming the runs.
//   At most kRunsNamed runs are named in a message, then how many more.
// - run_facts: the input facts (import/run_input.hpp) that name the runs, where there are several:
//   "runs" (how many, which one is read) and "run N" for each (at most kRunsNamed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/npkt/npkt_dump.hpp"
#include "run/capture_runs.hpp"
#include "run/input_details.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit {

inline constexpr std::size_t kRunsNamed = 8;

CaptureFileFacts capture_file_facts(const NpktDump& dump);

struct RunChoice {
  std::vector<CaptureRun> runs;
  std::uint32_t run = 0;   // the 1-based run read, 0 for every file
  std::vector<bool> read;  // per file: whether it is read
};

Result<RunChoice> choose_run(const std::string& path, const std::vector<CaptureFileFacts>& files,
                             std::uint32_t run, bool refuse_mixed, Diagnostics& diagnostics);

std::vector<InputFact> run_facts(const RunChoice& choice);

}  // namespace npkit
