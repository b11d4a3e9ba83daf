// output/phase_report_output.hpp — the phase split of `report` (analysis/report/run_report.hpp's
// PhaseReport) as text, Markdown, CSV and JSON.
// Contract: render_phase_report writes the time line (the domains' reference times and the share
// the named phases explain), the phase spread table and the per-rank GPU table (and the CPU one
// when there is CPU time and the wording names it). The spread table is one column list in every
// format (output/table_spec.hpp); phase_report_csv writes it in machine units (integer ns, shares
// as fractions) under the JSON's keys (name, domain, count, total_ns, share, rank_min_ns,
// rank_median_ns, rank_max_ns, slowest_rank). write_phase_report_json writes the fields
// gpu_collective_ns, cpu_span_ns, gpu_explained_share, phases and ranks into the open object.
#pragma once

#include <string>

#include "analysis/report/run_report.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"
#include "output/text_table.hpp"

namespace npkit {

// What the rendered report calls things.
struct PhaseReportWording {
  std::string gpu_time;         // "GPU span time"
  std::string gpu_note;         // "top-level spans summed over tracks"
  std::string cpu_time;         // "CPU span time"
  std::string spread_title;     // title of the phase table
  std::string rank_title;       // title of the per-rank GPU table
  std::string host_rank_title;  // title of a per-rank CPU table; "" for none
};

void render_phase_report(const PhaseReport& report, const PhaseAssignment& phases,
                         const PhaseReportWording& wording, OutputFormat format, std::string& out);
TextTable phase_report_csv(const PhaseReport& report);
void write_phase_report_json(JsonWriter& w, const PhaseReport& report,
                             const PhaseAssignment& phases);

}  // namespace npkit
