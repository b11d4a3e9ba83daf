#include "output/html/regression_bars.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "output/html/axes.hpp"
#include "output/html/legend.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {

std::string_view regression_verdict(const RegressionBar& bar, bool higher_is_better) {
  const double c = bar.change_percent;
  if (c >= bar.noise_low_percent && c <= bar.noise_high_percent) return "within-noise";
  const bool up = c > bar.noise_high_percent;
  return up == higher_is_better ? "improvement" : "regression";
}

void render_regression_bars(const RegressionBars& model, std::string& out) {
  constexpr double kWidth = 960;
  const PlotArea area{86, 30, kWidth - 110, 220};
  const double height = area.bottom() + 52;
  Svg svg(out, kWidth, height, "regression-bars", model.title);
  draw_legend(svg, area.left, 6, area.width,
              {"regression", "improvement", "within noise", "noise band"},
              {"#d62728", "#2ca02c", "#9e9e9e", "#dddddd"});
  if (model.bars.empty()) {
    svg.text(area.left + area.width / 2, area.top + area.height / 2, "no data", Anchor::kMiddle,
             "empty");
    return;
  }
  double lo = 0;
  double hi = 0;
  for (const auto& b : model.bars) {
    for (double v : {b.change_percent, b.noise_low_percent, b.noise_high_percent}) {
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  const Scale y = linear_scale(lo, hi, true, area.bottom(), area.top);
  draw_y_axis(svg, y, area, Unit::kPercent, "change of " + model.metric);
  const double slot = area.width / static_cast<double>(model.bars.size());
  const double width = std::max(1.0, slot * 0.6);
  const std::size_t label_every =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(56.0 / slot)));
  svg.begin_group("bars");
  for (std::size_t i = 0; i < model.bars.size(); ++i) {
    const RegressionBar& b = model.bars[i];
    const double x = area.left + slot * static_cast<double>(i);
    const double band_top = y.map(b.noise_high_percent);
    svg.rect(x + slot * 0.1, band_top, slot * 0.8, y.map(b.noise_low_percent) - band_top, "#dddddd",
             "noise");
    const std::string_view verdict = regression_verdict(b, model.higher_is_better);
    const char* colour = verdict == "regression"    ? "#d62728"
                         : verdict == "improvement" ? "#2ca02c"
                                                    : "#9e9e9e";
    const double change = std::isfinite(b.change_percent) ? b.change_percent : 0;
    const double top = y.map(std::max(change, 0.0));
    const double bottom = y.map(std::min(change, 0.0));
    std::string tooltip =
        fmt::format("{}: {} {:+.1f}% (noise band {:+.1f}% .. {:+.1f}%): {}", b.label, model.metric,
                    change, b.noise_low_percent, b.noise_high_percent, verdict);
    if (!b.tooltip.empty()) tooltip += "\n" + b.tooltip;
    svg.rect(x + (slot - width) / 2, top, width, std::max(0.5, bottom - top), colour,
             fmt::format("bar {}", verdict), tooltip);
    if (i % label_every == 0) {
      svg.text(x + slot / 2, area.bottom() + 16, b.label, Anchor::kMiddle, "tick-label");
    }
  }
  svg.end_group();
  svg.line(area.left, y.map(0), area.right(), y.map(0), "zero-line");
}

}  // namespace npkit::html
