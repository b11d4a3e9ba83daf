// output/html/npkt_report_model.hpp — the report model of a .npkt capture (profiler plugin dumps).
// Contract: build_npkt_report_model fills, from the loaded files and their joined communicators:
// - facts: input, communicators, ranks, hosts, GPUs, NCCL version, capture settings, clocks,
//   capture time, the NCCL_* and other env.* metadata of the first file (and which keys differ
//   between files);
// - "phases": per communicator, GPU time per rank by collective (model/profiler_rank_summary)
//   and, with NET proxy steps, their time per rank by phase and the ring AllReduce
//   reduce_scatter / all_gather split (import/npkt/proxy_step_breakdown) — a paragraph instead of
//   the per-collective bars when the communicator has no timed operation; then, for captures with
//   event records (device or host recorder), the per-rank phase bars of `event_ranks`
//   (render/html/phase_bars) for GPU and host streams;
// - "bandwidth": bandwidth_blocks over every row (--coll all) and switch point;
// - "waits": per communicator the cross-rank analysis (analysis/join/run_cross_rank,
//   sync/cross_rank_report with `thresholds`) as cross_rank_blocks;
// - "timeline": one joined instance of the first communicator that has one (instance_choice:
//   `iteration` when given, else the median), drawn by npkt_timeline;
// - "findings": the cross-rank findings and the bandwidth rules' (small messages, few channels,
//   analysis/diagnose/findings.hpp) of every communicator;
// and lists in `reduction` what the page aggregates or samples. An Error only for an
// `iteration` the capture does not have.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/thresholds.hpp"
#include "analysis/phases/phase_breakdown.hpp"
#include "import/npkt/communicator_join.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "output/html/report_model.hpp"
#include "run/phase_map.hpp"
#include "util/result.hpp"

namespace npkit::html {

struct NpktReportInput {
  std::string path;
  std::vector<const RankCapture*> files;  // the selected files, in path order
  const std::vector<Communicator>* comms = nullptr;
  std::vector<std::string> warnings;  // one line each, shown in the header
  std::optional<std::uint64_t> iteration;
  Thresholds thresholds;
  // The phase split of the event records, when the capture has any (both set, or both null).
  const PhaseAssignment* event_phases = nullptr;
  const std::vector<RankPhases>* event_ranks = nullptr;
};

Result<ReportModel> build_npkt_report_model(const NpktReportInput& input);

}  // namespace npkit::html
