// output/html/svg.hpp — SVG primitives, escaping, number formatting and colours for the HTML
// report.
// Contract:
// - escape() makes any text safe inside an element or a double-quoted attribute (& < > " ').
// - Svg writes one <svg> element into a string: coordinates with one decimal, a viewBox of the
//   given size that scales to the page width, a <title> child on an element when a tooltip is
//   given (browsers show it without script). Every element gets the class passed, so tests and
//   CSS can find bars, points, cells and spans by class.
// - format_value prints a value with its unit for labels and tooltips: durations as ns/us/ms/s,
//   sizes in powers of two (B, KiB, MiB, GiB, TiB), GB/s, percent, plain counts; 3 significant
//   digits at most, trailing zeros dropped.
// - category_colour is a fixed colour-blind-safe palette (cycled); the same index always gets the
//   same colour. sequential_colour maps t in [0, 1] (clamped) from pale to dark.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "output/html/report_model.hpp"

namespace npkit::html {

void append_escaped(std::string& out, std::string_view text);
std::string escape(std::string_view text);

std::string format_number(double value);
std::string format_bytes(double bytes);
std::string format_duration(double ns);
std::string format_value(double value, Unit unit);

std::string_view category_colour(std::size_t index);

// Colours by name, for one page: a name gets category_colour(k) when it is the k-th distinct name
// asked for, so a phase keeps its colour on every chart of the page that names it.
class ColourBook {
 public:
  std::string_view colour(const std::string& name);

 private:
  std::map<std::string, std::size_t> index_;
};
std::string sequential_colour(double t);

enum class Anchor { kStart, kMiddle, kEnd };

class Svg {
 public:
  // Opens <svg class="plot {css_class}" viewBox="0 0 width height" role="img"> with an aria-label.
  Svg(std::string& out, double width, double height, std::string_view css_class,
      std::string_view label);
  Svg(const Svg&) = delete;
  Svg& operator=(const Svg&) = delete;
  // Closes the element (once).
  ~Svg();

  void rect(double x, double y, double w, double h, std::string_view fill, std::string_view cls,
            std::string_view tooltip = {});
  void line(double x1, double y1, double x2, double y2, std::string_view cls);
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view cls,
              std::string_view tooltip = {});
  // A polyline through `points` (x, y), stroked with `colour`.
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view colour,
                std::string_view cls);
  void text(double x, double y, std::string_view text, Anchor anchor, std::string_view cls);
  // Text rotated by −90° around (x, y) (a vertical axis label).
  void vertical_text(double x, double y, std::string_view text, std::string_view cls);
  // <g class="cls" extra-attributes> ... </g>; `attributes` is raw markup (already escaped).
  void begin_group(std::string_view cls, std::string_view attributes = {});
  void end_group();
  // Raw markup, already escaped.
  void raw(std::string_view markup);
  std::string& out() { return out_; }

 private:
  void close_with_tooltip(std::string_view element, std::string_view tooltip);
  std::string& out_;
};

}  // namespace npkit::html
