// output/html/bandwidth_blocks.hpp — the bandwidth part of a report: per collective, busbw and
// latency against message size with NCCL's algorithm/protocol switch points, and the
// nccl-tests-style table.
// Contract (rows of analysis/bandwidth/bandwidth_table.hpp): per (communicator, collective)
// in row order, a busbw plot and a time plot (log2 size axis; the time axis logarithmic), one
// series per (algo, proto) — "-" when a row has none — with one point per timed row at x = S
// (nccl-tests' size) and y = busbw or time (`bandwidth`'s; the note names what a rank's time of an
// instance is: the time source of the row's communicator in `run`), and one marker
// per switch point of that collective ("Ring/LL → Ring/Simple"). Then the rows as a table (the
// page's columns of output/bandwidth_columns.hpp). Untimed rows appear in the table only; a
// collective with no timed row gets a line saying so instead of its two plots.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "output/html/report_model.hpp"

namespace npkit::html {

std::vector<Block> bandwidth_blocks(const std::vector<BandwidthRow>& rows,
                                    const std::vector<SwitchPoint>& switches, const Run& run);

// An empty plot against S (nccl-tests' size, log2 bytes axis) with these labels and y axis.
LinePlot size_plot(const std::string& title, const std::string& note, YAxis y_axis, Unit y_unit,
                   const std::string& y_label);

}  // namespace npkit::html
