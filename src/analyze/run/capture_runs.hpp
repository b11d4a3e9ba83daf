// run/capture_runs.hpp — which capture files of one input belong to one run of a job, so that a
// directory that received files of two runs (a rerun into the same NPKIT_DUMP_DIR, files copied
// together) is not read as one.
// Contract (group_capture_runs; each file is one rank's capture of one communicator):
// - Files of one communicator (the same hash) belong to one run: NCCL derives the hash from the
//   communicator's unique id, which a rerun draws anew.
// - Two communicators' files are of different runs only on evidence beyond their not sharing a
//   communicator (a job may run independent process groups): they differ in their build (NCCL
//   version, plugin version) or capture settings (the events captured, NPKIT_SAMPLE), or their
//   capture windows (communicator init to dump, on the host clock) do not overlap. Communicators
//   of one build and settings whose windows overlap, directly or through others, are one run.
// - Windows on one host compare exactly. Where the files of one build and settings come from
//   several hosts, windows within kHostClockTolerance of each other count as overlapping (hosts'
//   clocks agree to milliseconds under NTP; an unsynchronised host may split a run, never join
//   two reruns more than that apart). Processes are not matched by pid (containers reuse pids).
// - A file without a known window (host clock unknown) gives no time evidence: the communicators
//   of its build and settings are then one run.
// - Runs are numbered from 1 in the order of their start (earliest window start; runs without
//   times last, in file order). Cost: O(n log n) in the files.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace npkit {

inline constexpr std::int64_t kHostClockTolerance = 5'000'000'000;  // ns

// What one capture file says of the run it belongs to.
struct CaptureFileFacts {
  std::uint64_t comm_hash = 0;
  std::int32_t rank = -1;  // -1: a file of no rank (the detached proxy-op file)
  std::string host;        // "" = unknown
  bool times_known = false;
  std::int64_t start_ns = 0;  // capture window on the host clock (ns since the epoch)
  std::int64_t end_ns = 0;
  std::string build;     // "NCCL 2.28.9, plugin 0.9.0": what one job's files share
  std::string settings;  // "events coll,kernel; NPKIT_SAMPLE 1/100"
};

struct CaptureRun {
  std::vector<std::size_t> files;                         // indices into the facts given, ascending
  std::map<std::uint64_t, std::set<std::int32_t>> comms;  // communicator hash -> ranks
  std::set<std::string> hosts;
  bool times_known = false;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::string build;
  std::string settings;
};

std::vector<CaptureRun> group_capture_runs(const std::vector<CaptureFileFacts>& files);

// "2 file(s): comm f71e551407866e38 ranks 0-1; host vm; 2026-12-04 21:15:57 to 21:16:01 UTC;
// NCCL 2.28.9; events all" (at most three communicators named).
std::string describe_capture_run(const CaptureRun& run);

}  // namespace npkit
