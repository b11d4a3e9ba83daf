// output/html/axes.hpp — value scales and axes of the report's plots.
// Contract:
// - A Scale maps a value of its domain [lo, hi] onto [px_lo, px_hi] (px_hi < px_lo for a
//   vertical axis that grows upwards), linearly or logarithmically; values outside the domain map
//   outside the range (callers clamp when they must).
// - linear_scale widens [min, max] to whole multiples of a "nice" step (1, 2 or 5 × 10^k) giving
//   at most about 6 ticks; include_zero takes 0 into the domain (bars); an empty range is widened
//   so that the scale never divides by zero.
// - log_scale (base 2 for message sizes, 10 for latencies) widens [min, max] to whole powers of
//   the base; min and max must be > 0 (callers drop values <= 0 and say so). Ticks are the
//   powers in the domain, thinned to every 2nd, 4th, ... power when there are more than 12; on a
//   base-10 scale spanning less than two decades, 2× and 5× values are ticks too.
// - draw_x_axis / draw_y_axis draw the axis line, ticks, tick labels (format_value in `unit`),
//   grid lines across the plot area and the axis title; elements carry the classes "axis",
//   "tick", "tick-label", "grid" and "axis-title".
#pragma once

#include <string_view>
#include <vector>

#include "output/html/report_model.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {

struct PlotArea {
  double left = 0;
  double top = 0;
  double width = 0;
  double height = 0;

  double right() const { return left + width; }
  double bottom() const { return top + height; }
};

enum class ScaleKind { kLinear, kLog2, kLog10 };

struct Scale {
  ScaleKind kind = ScaleKind::kLinear;
  double lo = 0;
  double hi = 1;
  double px_lo = 0;
  double px_hi = 1;

  double map(double value) const;
  std::vector<double> ticks() const;
};

Scale linear_scale(double min, double max, bool include_zero, double px_lo, double px_hi);
Scale log_scale(double min, double max, int base, double px_lo, double px_hi);

void draw_x_axis(Svg& svg, const Scale& scale, const PlotArea& area, Unit unit,
                 std::string_view title);
void draw_y_axis(Svg& svg, const Scale& scale, const PlotArea& area, Unit unit,
                 std::string_view title);

}  // namespace npkit::html
