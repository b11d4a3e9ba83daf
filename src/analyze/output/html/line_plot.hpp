// output/html/line_plot.hpp — series of (x, y) points joined by lines, with markers.
// Contract: appends one <svg class="plot line-plot"> to `out`. Each series gets its colour
// (category_colour by series index), a <polyline class="series-line"> through its points in x
// order and one <circle class="point"> per point drawn, with a tooltip giving the series, x and
// y (format_value in the plot's units) and the point's own tooltip lines. On a logarithmic axis
// points with a value <= 0 cannot be drawn: they are left out and the plot says how many. Each
// marker is a dashed vertical <line class="marker"> with its label (class "marker-label"),
// labels staggered so that neighbours do not overlap. A model without drawable points draws a
// plot saying "no data".
#pragma once

#include <string>

#include "output/html/report_model.hpp"

namespace npkit::html {

void render_line_plot(const LinePlot& plot, std::string& out);

}  // namespace npkit::html
