// output/driver_results_output.hpp — a benchmark driver's results (nccl-tests -J, Run::driver)
// and the comparison of a run's rows with them (analysis/bandwidth/driver_match.hpp), in every
// format `bandwidth` writes.
// Contract:
// - driver_results_table: one row per results row that --coll selects, in the driver's order:
//   collective, size (B), count, type (nccl-tests' name), redop, root, pass, then per placement
//   time (us, three decimals), algbw, busbw (GB/s, two decimals) and #wrong ("-" where not run or
//   not checked, "n/a" for #wrong not checked). CSV keeps ns and six decimals.
// - render_driver_comparison: a table of every match (ours: time, busbw, period and its busbw;
//   the driver's: rows, time, busbw; the ratios), then one line naming the rows of ours without
//   a driver row and one naming the driver's sizes without a row of ours ("none" when every
//   row matched).
// - The JSON writers add "driver" and "driver_comparison" members to an open object.
#pragma once

#include <string>
#include <string_view>

#include "analysis/bandwidth/driver_match.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"
#include "run/driver_results.hpp"

namespace npkit {

TextTable driver_results_table(const DriverResults& driver, std::string_view coll,
                               OutputFormat format);
// The comparison's table alone (CSV: ns and six decimals, NCCL's type names).
TextTable driver_comparison_table(const DriverComparison& c, OutputFormat format);
void render_driver_comparison(const DriverComparison& c, OutputFormat format, std::string& out);
void write_driver_results_json(JsonWriter& w, const DriverResults& driver, std::string_view coll);
void write_driver_comparison_json(JsonWriter& w, const DriverComparison& c);

}  // namespace npkit
