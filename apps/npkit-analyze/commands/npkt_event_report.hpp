// commands/npkt_event_report.hpp — the event-phase part of `npkit-analyze report` for .npkt files
// that hold event records (the device recorder's and host recorder's NPKit-style events).
// Contract:
// - has_event_records: true when a selected file of `loaded` holds at least one event stream.
// - append_event_phase_report: the per-rank phase split of the event records (reduce_scatter,
//   all_gather, sync, ..., other), computed exactly as `report` computes it for a legacy NPKit
//   dump (analysis/phases/phase_breakdown.hpp: every span's exclusive time goes to its phase; the
//   phase of a span is the first matching --phase-map rule, else the name table's phase hint, else
//   the built-in rules). GPU streams are the "gpu" domain, host streams the "cpu" domain.
//   - kTable / kMarkdown: appends the section to `text` (a blank line first when `text` is not
//     empty): a title line, the time line saying what share the phases explain, the phase spread
//     table and the per-rank table.
//   - kCsv: appends the phase spread table (after a blank line when `text` is not empty).
//   - kJson: writes the field "event_phases" (an object) into the JSON object that `json` has
//     open; `text` is untouched. `json` must not be null.
//   Then the records across ranks (output/cross_rank_output.hpp; the event records'
//   collective-level spans joined by occurrence): in text and Markdown the cross-rank sections
//   after the phase tables (or one line saying that no collective-level span was joined, and how to
//   mark them with --phase-map); in JSON the key "cross_rank" inside "event_phases"; nothing in
//   CSV. Its findings are appended to `findings` when given (the caller reports them with its own).
//   Warnings that arise while summing (spans whose children overlap beyond their end) are added
//   to `diagnostics`: call it before the warnings are written or printed. Warnings about the
//   records themselves (unmatched events, dropped records, unknown ids, clocks) are already in
//   loaded.diagnostics (load_npkt_input). Does nothing and returns Ok when
//   !has_event_records(loaded).
#pragma once

#include <string>
#include <vector>

#include "analysis/diagnose/findings.hpp"
#include "commands/command.hpp"
#include "commands/npkt_input.hpp"
#include "output/json_writer.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit::cli {

bool has_event_records(const LoadedCaptures& loaded);

Status append_event_phase_report(const LoadedCaptures& loaded, const CommonOptions& options,
                                 OutputFormat format, std::string& text, JsonWriter* json,
                                 Diagnostics& diagnostics,
                                 std::vector<Finding>* findings = nullptr);

}  // namespace npkit::cli
