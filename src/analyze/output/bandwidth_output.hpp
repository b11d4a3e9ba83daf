// output/bandwidth_output.hpp — `bandwidth` in every format, the same for every input kind.
// Contract:
// - The collective rows' columns are one spec (output/bandwidth_columns.hpp) in every format.
// - Text and Markdown: a line naming the input, then per communicator its description, the
//   collective table (a line when --coll selects none), its notes, the
//   untimed instances and the switch points; then the events by size bucket (all ranks; per rank
//   too with per_rank), or a line saying the input has no spans. `view` "collectives" or
//   "events" shows one of the two parts.
// - CSV: one table — the collective rows of every communicator (with a comm column), or the
//   per-rank event rows when `view` is "events" or ("auto") there is no collective row.
// - JSON: the "npkit-analyze.bandwidth" object, schema_version 2 (docs/cli.md).
// - A run with a driver's rows (a nccl-tests results file: no instances) says so in place of the
//   collective table and shows the driver's table (output/driver_results_output.hpp); CSV: that
//   table; JSON: its "driver" member. With `driver` (--driver), the comparison follows the
//   collectives (CSV: the comparison table; JSON: "driver_comparison").
// - Rows with a kernel compute time (NCCL's KernelPhase events) add two columns to the table of
//   their communicator, compute (us) and compute busbw, whose meaning compute_title_note() gives
//   for the table's title (CSV: compute_ns and compute_busbw_gbps, when any row has one; JSON:
//   those two fields in the rows that have them).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/bandwidth/driver_match.hpp"
#include "analysis/bandwidth/span_bandwidth.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"
#include "run/run.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

struct BandwidthReport {
  const Run* run = nullptr;
  std::string coll = "all";
  std::string view = "auto";  // auto, collectives, events
  bool per_rank = false;
  bool has_spans = false;  // the input streams spans (the events view has something to show)
  std::vector<BandwidthRow> rows;
  std::vector<SwitchPoint> switches;
  std::vector<SpanBandwidthRow> events;
  std::optional<DriverComparison> driver;  // --driver RESULTS.json
};

// The collective table's title for a communicator of `nranks` ranks, and what follows it when the
// table has compute columns.
std::string bandwidth_table_title(std::int32_t nranks);
std::string compute_title_note();

// A communicator's switch points as a table (a line saying there is none), and its latency
// buckets as a table (output/latency_columns.hpp; nothing without one): `report`'s sections, also
// as JSON arrays "switch_points" and "latency" into the object `w` has open.
void render_switch_points(const std::vector<SwitchPoint>& switches, std::uint64_t comm,
                          OutputFormat format, std::string& out);
void render_latency(const std::vector<LatencyBucket>& latency, std::uint64_t comm,
                    OutputFormat format, std::string& out);
void write_switch_points_json(JsonWriter& w, const std::vector<SwitchPoint>& switches,
                              std::uint64_t comm);
void write_latency_json(JsonWriter& w, const std::vector<LatencyBucket>& latency,
                        std::uint64_t comm);

void render_bandwidth(const BandwidthReport& report, const Diagnostics& diagnostics,
                      OutputFormat format, std::string& out);

}  // namespace npkit
