// output/html/report_model.hpp — what an HTML report shows, as plain data (the "report model").
// Contract: the renderers (output/html/page.hpp and the plots it draws) read only these structs,
// so any analysis — a dump report, a summary, a diff — can fill one. Times are nanoseconds,
// bandwidths GB/s (1e9 B/s), sizes bytes; NaN marks a missing value where a plot allows gaps.
// Strings are plain text: the renderers escape them. Every plot carries a `note` that says what it
// shows and what was aggregated or sampled to keep the page small.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "output/text_table.hpp"

namespace npkit::html {

// How values of an axis, a cell or a tooltip are printed.
enum class Unit : std::uint8_t {
  kNanoseconds,  // printed as ns, us, ms or s
  kGbps,         // GB/s
  kBytes,        // B, KiB, MiB, GiB
  kPercent,      // the value is already in percent
  kCount,
};

struct Paragraph {
  std::string text;
};

// One bar per category (e.g. rank), stacked from the first segment (bottom) to the last.
struct StackedBars {
  std::string title;
  std::string note;
  Unit unit = Unit::kNanoseconds;
  std::vector<std::string> segments;        // legend, bottom to top
  std::vector<std::string> bars;            // bar labels, left to right
  std::vector<std::vector<double>> values;  // [bar][segment], >= 0
};

struct PlotPoint {
  double x = 0;
  double y = 0;
  std::string tooltip;  // extra lines after the series name and the coordinates
};

struct PlotSeries {
  std::string name;
  std::vector<PlotPoint> points;  // drawn in x order
};

// A vertical line at x with a label (e.g. an algorithm/protocol switch point).
struct PlotMarker {
  double x = 0;
  std::string label;
};

enum class XAxis : std::uint8_t { kLog2Bytes, kLinear };
enum class YAxis : std::uint8_t { kLinear, kLog10 };

struct LinePlot {
  std::string title;
  std::string note;
  std::string x_label;
  std::string y_label;
  XAxis x_axis = XAxis::kLog2Bytes;
  YAxis y_axis = YAxis::kLinear;
  Unit x_unit = Unit::kBytes;
  Unit y_unit = Unit::kGbps;
  std::vector<PlotSeries> series;
  std::vector<PlotMarker> markers;
};

// rows × columns of values; a column may stand for several instances (say so in `note`).
struct Heatmap {
  std::string title;
  std::string note;
  Unit unit = Unit::kNanoseconds;
  std::string row_axis;     // e.g. "rank"
  std::string column_axis;  // e.g. "collective instance"
  std::vector<std::string> rows;
  std::vector<std::string> columns;         // full labels (tooltips)
  std::vector<std::vector<double>> values;  // [row][column]; NaN = no data
  // Column c stands for items first_item + c × items_per_column ... (the tick numbers).
  std::uint64_t first_item = 0;
  std::uint64_t items_per_column = 1;
};

struct TimelineRow {
  std::string label;        // e.g. "ch 3"
  std::uint32_t group = 0;  // index into Timeline::groups
};

struct TimelineSpan {
  std::uint32_t row = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::string category;  // colour and legend key (phase or collective)
  std::string label;     // drawn inside the span when it is wide enough
  std::string tooltip;   // extra lines (size, bandwidth, ...)
};

struct Timeline {
  std::string title;
  std::string note;
  std::vector<std::string> groups;  // e.g. "rank 0"
  std::vector<TimelineRow> rows;    // grouped: rows of one group are adjacent
  std::vector<TimelineSpan> spans;
  std::int64_t origin_ns = 0;  // the time axis shows ns after this
};

// Change of one metric per size against a noise band (the `diff` view).
struct RegressionBar {
  std::string label;             // e.g. "1 MiB"
  double change_percent = 0;     // (candidate − base) / base × 100
  double noise_low_percent = 0;  // the band of changes indistinguishable from noise
  double noise_high_percent = 0;
  std::string tooltip;
};

struct RegressionBars {
  std::string title;
  std::string note;
  std::string metric;            // e.g. "busbw" or "time"
  bool higher_is_better = true;  // busbw: a negative change is a regression; time: a positive
  std::vector<RegressionBar> bars;
};

struct Finding {
  std::string severity;  // "warning", "info", ...
  std::string title;
  std::vector<std::string> evidence;
  std::string next_step;
};

struct FindingList {
  std::vector<Finding> findings;
  std::string empty_text;  // shown when there is none
};

struct Table {
  TextTable table;
  std::string note;
};

using Block = std::variant<Paragraph, Table, StackedBars, LinePlot, Heatmap, Timeline,
                           RegressionBars, FindingList>;

struct Section {
  std::string id;  // anchor, [a-z0-9-]
  std::string title;
  std::vector<Block> blocks;
};

struct Fact {
  std::string name;
  std::string value;
};

struct ReportModel {
  std::string title;
  std::string subtitle;
  std::vector<Fact> facts;             // run header: ranks, hosts, NCCL version, GPU, env, ...
  std::vector<std::string> warnings;   // the analysis' warnings, one line each
  std::vector<std::string> reduction;  // what was aggregated or sampled to keep the page small
  std::vector<Section> sections;
};

}  // namespace npkit::html
