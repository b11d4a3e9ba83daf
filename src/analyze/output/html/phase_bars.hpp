// output/html/phase_bars.hpp — per-rank stacked bars of a phase breakdown
// (analysis/phases/phase_breakdown.hpp).
// Contract: phase_bars draws one bar per rank of `ranks` (in their order) for the GPU or the CPU
// domain; segments are the phases that occur in that domain on any rank, in phase-id order, with
// `phases.other_phase` last; a bar adds up to the rank's exclusive span time in the domain. The
// note says which spans were summed (`span_kind`, e.g. "top-level GPU span") and what share the
// named phases explain. has_cpu_time: some rank has CPU span time.
#pragma once

#include <string>
#include <vector>

#include "analysis/phases/phase_breakdown.hpp"
#include "output/html/report_model.hpp"
#include "run/phase_map.hpp"

namespace npkit::html {

StackedBars phase_bars(const PhaseAssignment& phases, const std::vector<RankPhases>& ranks,
                       bool gpu, std::string title, const std::string& span_kind);

bool has_cpu_time(const std::vector<RankPhases>& ranks);

}  // namespace npkit::html
