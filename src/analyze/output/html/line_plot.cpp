#include "output/html/line_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "output/html/axes.hpp"
#include "output/html/legend.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {
namespace {

bool drawable(double v, bool log) {
  return std::isfinite(v) && (!log || v > 0);
}

}  // namespace

void render_line_plot(const LinePlot& plot, std::string& out) {
  constexpr double kWidth = 960;
  const bool log_x = plot.x_axis == XAxis::kLog2Bytes;
  const bool log_y = plot.y_axis == YAxis::kLog10;
  std::vector<std::string> names;
  for (const auto& s : plot.series) names.push_back(s.name);
  const double legend = legend_height(kWidth - 110, names);
  const bool have_markers = !plot.markers.empty();
  const PlotArea area{86, 14 + legend + (have_markers ? 30 : 0), kWidth - 110, 230};
  const double height = area.bottom() + 48;
  Svg svg(out, kWidth, height, "line-plot", plot.title);
  draw_legend(svg, area.left, 6, area.width, names);

  double x_min = std::numeric_limits<double>::infinity();
  double x_max = -x_min;
  double y_min = x_min;
  double y_max = -x_min;
  std::size_t dropped = 0;
  for (const auto& s : plot.series) {
    for (const auto& p : s.points) {
      if (!drawable(p.x, log_x) || !drawable(p.y, log_y)) {
        ++dropped;
        continue;
      }
      x_min = std::min(x_min, p.x);
      x_max = std::max(x_max, p.x);
      y_min = std::min(y_min, p.y);
      y_max = std::max(y_max, p.y);
    }
  }
  if (!(x_min <= x_max)) {
    svg.text(area.left + area.width / 2, area.top + area.height / 2, "no data", Anchor::kMiddle,
             "empty");
    return;
  }
  for (const auto& m : plot.markers) {
    if (!drawable(m.x, log_x)) continue;
    x_min = std::min(x_min, m.x);
    x_max = std::max(x_max, m.x);
  }
  const Scale x = log_x ? log_scale(x_min, x_max, 2, area.left, area.right())
                        : linear_scale(x_min, x_max, false, area.left, area.right());
  const Scale y = log_y ? log_scale(y_min, y_max, 10, area.bottom(), area.top)
                        : linear_scale(y_min, y_max, true, area.bottom(), area.top);
  draw_x_axis(svg, x, area, plot.x_unit, plot.x_label);
  draw_y_axis(svg, y, area, plot.y_unit, plot.y_label);

  svg.begin_group("markers");
  for (std::size_t i = 0; i < plot.markers.size(); ++i) {
    const auto& m = plot.markers[i];
    if (!drawable(m.x, log_x)) continue;
    const double px = x.map(m.x);
    svg.line(px, area.top - (i % 2 == 0 ? 26 : 14), px, area.bottom(), "marker");
    const Anchor anchor = px > area.left + area.width * 0.75 ? Anchor::kEnd : Anchor::kStart;
    svg.text(px + (anchor == Anchor::kEnd ? -3 : 3), area.top - (i % 2 == 0 ? 18 : 6), m.label,
             anchor, "marker-label");
  }
  svg.end_group();

  for (std::size_t si = 0; si < plot.series.size(); ++si) {
    const auto& s = plot.series[si];
    const std::string colour(category_colour(si));
    std::vector<const PlotPoint*> points;
    for (const auto& p : s.points) {
      if (drawable(p.x, log_x) && drawable(p.y, log_y)) points.push_back(&p);
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const PlotPoint* a, const PlotPoint* b) { return a->x < b->x; });
    svg.begin_group("series");
    std::vector<std::pair<double, double>> line;
    for (const PlotPoint* p : points) line.emplace_back(x.map(p->x), y.map(p->y));
    if (line.size() > 1) svg.polyline(line, colour, "series-line");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const PlotPoint& p = *points[i];
      std::string tooltip =
          fmt::format("{}\n{}: {}\n{}: {}", s.name, plot.x_label, format_value(p.x, plot.x_unit),
                      plot.y_label, format_value(p.y, plot.y_unit));
      if (!p.tooltip.empty()) tooltip += "\n" + p.tooltip;
      svg.circle(line[i].first, line[i].second, 3.5, colour, "point", tooltip);
    }
    svg.end_group();
  }
  if (dropped > 0) {
    svg.text(area.right(), area.bottom() + 34,
             fmt::format("{} point(s) <= 0 not drawn on the logarithmic axis", dropped),
             Anchor::kEnd, "plot-note");
  }
}

}  // namespace npkit::html
