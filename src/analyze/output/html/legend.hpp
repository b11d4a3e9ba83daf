// output/html/legend.hpp — the colour legend of a plot: a swatch and a name per entry, laid out
// in rows that wrap at `width`.
// Contract: entry i gets category_colour(i) unless `colours` is given (same length as `names`).
// legend_height is the height draw_legend will use for the same names and width (0 for none).
// Swatches carry the class "legend-swatch", names "legend-label".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "output/html/svg.hpp"

namespace npkit::html {

double legend_height(double width, const std::vector<std::string>& names);
void draw_legend(Svg& svg, double x, double y, double width, const std::vector<std::string>& names,
                 const std::vector<std::string>& colours = {});

// Approximate width of `text` at the report's 11 px label font (for layout only).
double label_width(std::string_view text);

}  // namespace npkit::html
