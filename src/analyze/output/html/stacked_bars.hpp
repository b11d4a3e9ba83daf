// output/html/stacked_bars.hpp — one stacked bar per category (e.g. the phases of each rank).
// Contract: appends one <svg class="plot stacked-bars"> to `out`. Bar i stacks values[i] from
// segment 0 (bottom) upwards; each non-zero value is one <rect class="bar"> in its segment's
// colour with a tooltip naming the bar, the segment, the value and its share of the bar; zero
// values draw nothing. The value axis is linear from 0 to the tallest bar. With more bars than
// fit a label each, every k-th bar is labelled. An empty model draws a plot saying "no data".
// Segment colours come from `colours` by segment name (page-wide), else by segment index.
#pragma once

#include <string>

#include "output/html/report_model.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {

void render_stacked_bars(const StackedBars& bars, std::string& out, ColourBook* colours = nullptr);

}  // namespace npkit::html
