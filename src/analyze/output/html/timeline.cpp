#include "output/html/timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>

#include "output/html/axes.hpp"
#include "output/html/legend.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {

void render_timeline(const Timeline& model, std::string& out, ColourBook* book) {
  constexpr double kWidth = 960;
  constexpr double kLeft = 130;
  constexpr double kTop = 30;
  const double plot_width = kWidth - kLeft - 20;
  const std::size_t rows = model.rows.size();
  const double row_h = rows <= 40 ? 14.0 : std::max(3.0, 560.0 / static_cast<double>(rows));
  const double plot_height = row_h * static_cast<double>(std::max<std::size_t>(rows, 1));

  std::vector<std::string> categories;
  std::map<std::string, std::string> colour_of;
  std::int64_t lo = std::numeric_limits<std::int64_t>::max();
  std::int64_t hi = std::numeric_limits<std::int64_t>::min();
  for (const auto& s : model.spans) {
    if (colour_of.count(s.category) == 0) {
      colour_of.emplace(s.category, book != nullptr ? book->colour(s.category)
                                                    : category_colour(categories.size()));
      categories.push_back(s.category);
    }
    lo = std::min(lo, s.start_ns);
    hi = std::max(hi, std::max(s.start_ns, s.end_ns));
  }
  const double legend = legend_height(plot_width, categories);
  const double height = kTop + plot_height + 14 + legend + 8;
  if (model.spans.empty() || rows == 0) {
    Svg svg(out, kWidth, kTop + 40, "timeline", model.title);
    svg.text(kLeft + plot_width / 2, kTop + 20, "no data", Anchor::kMiddle, "empty");
    return;
  }
  const Scale x = linear_scale(static_cast<double>(lo - model.origin_ns),
                               static_cast<double>(hi - model.origin_ns), false, 0, plot_width);
  // Outer element with the axis domain for the zoom script.
  std::string label = model.title;
  Svg svg(out, kWidth, height, "timeline", label);
  svg.raw(
      fmt::format("<desc class=\"tl-domain\" data-lo=\"{:.1f}\" data-hi=\"{:.1f}\" "
                  "data-left=\"{:.0f}\" data-width=\"{:.0f}\" data-top=\"{:.0f}\" "
                  "data-height=\"{:.0f}\"></desc>\n",
                  x.lo, x.hi, kLeft, plot_width, kTop, plot_height));

  // Group bands and row labels.
  svg.begin_group("rows");
  std::size_t band = 0;
  for (std::size_t r = 0; r < rows;) {
    std::size_t end = r;
    while (end < rows && model.rows[end].group == model.rows[r].group) ++end;
    const double y0 = kTop + row_h * static_cast<double>(r);
    const double y1 = kTop + row_h * static_cast<double>(end);
    svg.rect(0, y0, kWidth - 20, y1 - y0, band++ % 2 == 0 ? "#f4f6f9" : "#ffffff", "band");
    const std::uint32_t g = model.rows[r].group;
    svg.text(4, y0 + std::min(12.0, (y1 - y0) / 2 + 4),
             g < model.groups.size() ? model.groups[g] : std::string(), Anchor::kStart,
             "group-label");
    if (row_h >= 9) {
      for (std::size_t i = r; i < end; ++i) {
        svg.text(kLeft - 6, kTop + row_h * (static_cast<double>(i) + 0.5) + 4, model.rows[i].label,
                 Anchor::kEnd, "row-label");
      }
    }
    r = end;
  }
  svg.end_group();

  // Axis above the rows (ticks in ns after the origin).
  svg.begin_group("tl-axis");
  for (double t : x.ticks()) {
    const double px = kLeft + x.map(t);
    svg.line(px, kTop - 4, px, kTop + plot_height, "grid");
    svg.text(px, kTop - 8, format_duration(t), Anchor::kMiddle, "tick-label");
  }
  svg.end_group();

  svg.raw(
      fmt::format("<svg class=\"tl-view\" x=\"{:.0f}\" y=\"{:.0f}\" width=\"{:.0f}\" "
                  "height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" "
                  "preserveAspectRatio=\"none\">\n",
                  kLeft, kTop, plot_width, plot_height, plot_width, plot_height));
  const double inset = row_h >= 6 ? 1 : 0;
  for (const auto& s : model.spans) {
    if (s.row >= rows) continue;
    const double x0 = x.map(static_cast<double>(s.start_ns - model.origin_ns));
    const double x1 = x.map(static_cast<double>(std::max(s.start_ns, s.end_ns) - model.origin_ns));
    std::string tooltip = s.category;
    if (!s.label.empty()) tooltip += " · " + s.label;
    tooltip += fmt::format(
        "\nstart +{}, duration {}",
        format_duration(static_cast<double>(s.start_ns - model.origin_ns)),
        format_duration(static_cast<double>(std::max(s.start_ns, s.end_ns) - s.start_ns)));
    if (!s.tooltip.empty()) tooltip += "\n" + s.tooltip;
    svg.rect(x0, row_h * static_cast<double>(s.row) + inset, std::max(0.5, x1 - x0),
             row_h - 2 * inset, colour_of[s.category], "span", tooltip);
  }
  svg.raw("</svg>\n");
  std::vector<std::string> colours;
  for (const auto& c : categories) colours.push_back(colour_of[c]);
  draw_legend(svg, kLeft, kTop + plot_height + 12, plot_width, categories, colours);
}

}  // namespace npkit::html
