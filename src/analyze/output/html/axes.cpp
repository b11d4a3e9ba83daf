#include "output/html/axes.hpp"

#include <algorithm>
#include <cmath>

namespace npkit::html {
namespace {

double log_base(double v, ScaleKind kind) {
  return kind == ScaleKind::kLog2 ? std::log2(v) : std::log10(v);
}

double nice_step(double range) {
  const double raw = range / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  const double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nice * magnitude;
}

}  // namespace

double Scale::map(double value) const {
  double t = 0;
  if (kind == ScaleKind::kLinear) {
    t = (value - lo) / (hi - lo);
  } else {
    const double a = log_base(lo, kind);
    const double b = log_base(hi, kind);
    t = value > 0 ? (log_base(value, kind) - a) / (b - a) : -1;
  }
  return px_lo + t * (px_hi - px_lo);
}

std::vector<double> Scale::ticks() const {
  std::vector<double> out;
  if (kind == ScaleKind::kLinear) {
    const double step = nice_step(hi - lo);
    for (double v = lo; v <= hi + step * 1e-9; v += step) {
      out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    }
    return out;
  }
  const double base = kind == ScaleKind::kLog2 ? 2 : 10;
  const int first = static_cast<int>(std::lround(log_base(lo, kind)));
  const int last = static_cast<int>(std::lround(log_base(hi, kind)));
  const int count = last - first + 1;
  int stride = 1;
  while (count / stride > 12) stride *= 2;
  for (int p = first; p <= last; p += stride) {
    const double v = std::pow(base, p);
    out.push_back(v);
    if (kind == ScaleKind::kLog10 && last - first < 2 && p < last) {
      out.push_back(2 * v);
      out.push_back(5 * v);
    }
  }
  return out;
}

Scale linear_scale(double min, double max, bool include_zero, double px_lo, double px_hi) {
  if (!std::isfinite(min) || !std::isfinite(max)) min = max = 0;
  if (include_zero) {
    min = std::min(min, 0.0);
    max = std::max(max, 0.0);
  }
  if (max <= min) {
    const double pad = std::fabs(min) > 0 ? std::fabs(min) * 0.1 : 1.0;
    max = min + pad;
    if (!include_zero) min -= pad;
  }
  const double step = nice_step(max - min);
  Scale s;
  s.kind = ScaleKind::kLinear;
  s.lo = std::floor(min / step + 1e-9) * step;
  s.hi = std::ceil(max / step - 1e-9) * step;
  if (s.hi <= s.lo) s.hi = s.lo + step;
  s.px_lo = px_lo;
  s.px_hi = px_hi;
  return s;
}

Scale log_scale(double min, double max, int base, double px_lo, double px_hi) {
  Scale s;
  s.kind = base == 2 ? ScaleKind::kLog2 : ScaleKind::kLog10;
  if (!(min > 0) || !std::isfinite(min)) min = 1;
  if (!(max > 0) || !std::isfinite(max)) max = min;
  const double b = base == 2 ? 2.0 : 10.0;
  int lo = static_cast<int>(std::floor(log_base(min, s.kind) + 1e-9));
  int hi = static_cast<int>(std::ceil(log_base(max, s.kind) - 1e-9));
  if (hi <= lo) hi = lo + 1;
  s.lo = std::pow(b, lo);
  s.hi = std::pow(b, hi);
  s.px_lo = px_lo;
  s.px_hi = px_hi;
  return s;
}

void draw_x_axis(Svg& svg, const Scale& scale, const PlotArea& area, Unit unit,
                 std::string_view title) {
  svg.begin_group("axis x-axis");
  svg.line(area.left, area.bottom(), area.right(), area.bottom(), "axis-line");
  for (double t : scale.ticks()) {
    const double x = scale.map(t);
    svg.line(x, area.top, x, area.bottom(), "grid");
    svg.line(x, area.bottom(), x, area.bottom() + 4, "tick");
    svg.text(x, area.bottom() + 16, format_value(t, unit), Anchor::kMiddle, "tick-label");
  }
  svg.text(area.left + area.width / 2, area.bottom() + 34, title, Anchor::kMiddle, "axis-title");
  svg.end_group();
}

void draw_y_axis(Svg& svg, const Scale& scale, const PlotArea& area, Unit unit,
                 std::string_view title) {
  svg.begin_group("axis y-axis");
  svg.line(area.left, area.top, area.left, area.bottom(), "axis-line");
  for (double t : scale.ticks()) {
    const double y = scale.map(t);
    svg.line(area.left, y, area.right(), y, "grid");
    svg.line(area.left - 4, y, area.left, y, "tick");
    svg.text(area.left - 7, y + 4, format_value(t, unit), Anchor::kEnd, "tick-label");
  }
  svg.vertical_text(area.left - 58, area.top + area.height / 2, title, "axis-title");
  svg.end_group();
}

}  // namespace npkit::html
