#include "output/html/stacked_bars.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "output/html/axes.hpp"
#include "output/html/legend.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {

void render_stacked_bars(const StackedBars& model, std::string& out, ColourBook* book) {
  constexpr double kWidth = 960;
  const std::size_t n = model.bars.size();
  const double legend = legend_height(kWidth - 100, model.segments);
  const PlotArea area{80, 16 + legend, kWidth - 100, 220};
  const double height = area.bottom() + 58;
  Svg svg(out, kWidth, height, "stacked-bars", model.title);
  std::vector<std::string> colours;
  for (std::size_t s = 0; s < model.segments.size(); ++s) {
    colours.emplace_back(book != nullptr ? book->colour(model.segments[s]) : category_colour(s));
  }
  draw_legend(svg, area.left, 6, area.width, model.segments, colours);

  double tallest = 0;
  for (const auto& bar : model.values) {
    double sum = 0;
    for (double v : bar) sum += std::max(0.0, v);
    tallest = std::max(tallest, sum);
  }
  if (n == 0 || tallest <= 0) {
    svg.text(area.left + area.width / 2, area.top + area.height / 2, "no data", Anchor::kMiddle,
             "empty");
    return;
  }
  const Scale y = linear_scale(0, tallest, true, area.bottom(), area.top);
  draw_y_axis(svg, y, area, model.unit, "");

  const double slot = area.width / static_cast<double>(n);
  const double width = std::max(1.0, slot * 0.7);
  const std::size_t label_every =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(48.0 / slot)));
  svg.begin_group("bars");
  for (std::size_t i = 0; i < n; ++i) {
    const double x = area.left + slot * static_cast<double>(i) + (slot - width) / 2;
    const auto& values = i < model.values.size() ? model.values[i] : std::vector<double>{};
    double total = 0;
    for (double v : values) total += std::max(0.0, v);
    double base = 0;
    for (std::size_t s = 0; s < values.size() && s < model.segments.size(); ++s) {
      const double v = std::max(0.0, values[s]);
      if (v <= 0) continue;
      const double top = y.map(base + v);
      const double bottom = y.map(base);
      const std::string tooltip = fmt::format("{} · {}: {} ({:.1f}% of {})", model.bars[i],
                                              model.segments[s], format_value(v, model.unit),
                                              100.0 * v / total, format_value(total, model.unit));
      svg.rect(x, top, width, bottom - top, colours[s], "bar", tooltip);
      base += v;
    }
    if (i % label_every == 0) {
      svg.text(x + width / 2, area.bottom() + 16, model.bars[i], Anchor::kMiddle, "tick-label");
    }
  }
  svg.end_group();
  svg.line(area.left, area.bottom(), area.right(), area.bottom(), "axis-line");
}

}  // namespace npkit::html
