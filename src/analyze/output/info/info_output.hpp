// output/info/info_output.hpp — `info` of any input: what it holds, in one shape for every input
// kind ("npkit-analyze.info" version 2, docs/cli.md).
// Contract:
// - Text and Markdown: the input's facts (Run::facts: format, files, event table, clocks,
//   hosts), its communicators (ranks, instances joined, join gaps), what the input kind adds
//   (Run::details, run/input_details.hpp: legacy clocks per rank; .npkt files, events, KernelCh
//   checks and event streams; the rank traces of profiler traces) and, for inputs with spans, the
//   span inventory: totals, time span, a per-rank table and the first unmatched events.
// - CSV: the kind's table — per file for .npkt captures and profiler traces, else the per-rank
//   span table.
// - JSON: schema, schema_version, path, input, files, facts[], communicators[], spans (inputs
//   with spans), details (the kind's own object), warnings.
#pragma once

#include <string>

#include "analysis/inventory/dump_inventory.hpp"
#include "output/render.hpp"
#include "run/run.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

void render_info(const std::string& path, const Run& run, const InventorySink& spans,
                 OutputFormat format, std::string& out);
void render_info_csv(const Run& run, const InventorySink& spans, std::string& out);
void write_info_json(const std::string& path, const Run& run, const InventorySink& spans,
                     const Diagnostics& diagnostics, std::string& out);

}  // namespace npkit
