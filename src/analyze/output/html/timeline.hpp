// output/html/timeline.hpp — spans on rows grouped by rank (ranks × channels) over time.
// Contract: appends one <svg class="plot timeline"> to `out`. Rows are drawn top to bottom in
// model order, each group's rows on a shaded band with the group label; each span is one
// <rect class="span"> (at least 0.5 px wide) coloured by its category — categories get colours
// in order of first appearance (or from `colours` by name, page-wide) and a legend below — with a
// tooltip: category and label, start
// after the origin, duration, and the span's own tooltip lines. The time axis (ns after
// origin_ns) is linear over the spans' extent. The spans sit in a nested <svg class="tl-view">
// whose viewBox the page script changes to zoom (wheel) and pan (drag); the outer element
// carries data-lo/data-hi (the axis domain in ns after the origin) so the script can redraw the
// axis. Without script the whole extent is shown.
#pragma once

#include <string>

#include "output/html/report_model.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {

void render_timeline(const Timeline& timeline, std::string& out, ColourBook* colours = nullptr);

}  // namespace npkit::html
