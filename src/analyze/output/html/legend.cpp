#include "output/html/legend.hpp"

namespace npkit::html {
namespace {

constexpr double kRow = 16;
constexpr double kSwatch = 10;

struct Place {
  double x;
  double y;
};

// Where each entry goes, relative to the legend's top left corner.
std::vector<Place> layout(double width, const std::vector<std::string>& names) {
  std::vector<Place> out;
  double cx = 0;
  double cy = 0;
  for (const auto& name : names) {
    const double w = kSwatch + 5 + label_width(name) + 14;
    if (cx > 0 && cx + w > width) {
      cx = 0;
      cy += kRow;
    }
    out.push_back({cx, cy});
    cx += w;
  }
  return out;
}

}  // namespace

double label_width(std::string_view text) {
  return 6.2 * static_cast<double>(text.size());
}

double legend_height(double width, const std::vector<std::string>& names) {
  if (names.empty()) return 0;
  return layout(width, names).back().y + kRow;
}

void draw_legend(Svg& svg, double x, double y, double width, const std::vector<std::string>& names,
                 const std::vector<std::string>& colours) {
  const auto places = layout(width, names);
  svg.begin_group("legend");
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string colour = i < colours.size() ? colours[i] : std::string(category_colour(i));
    const double cx = x + places[i].x;
    const double cy = y + places[i].y;
    svg.rect(cx, cy, kSwatch, kSwatch, colour, "legend-swatch");
    svg.text(cx + kSwatch + 5, cy + 9, names[i], Anchor::kStart, "legend-label");
  }
  svg.end_group();
}

}  // namespace npkit::html
