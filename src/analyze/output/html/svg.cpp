#include "output/html/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "output/markup_escape.hpp"

namespace npkit::html {

void append_escaped(std::string& out, std::string_view text) {
  append_markup_escaped(out, text);
}

std::string escape(std::string_view text) {
  return markup_escaped(text);
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return "-";
  const double a = std::fabs(value);
  int decimals = 0;
  if (a < 1e-12) return "0";
  if (a < 1) {
    decimals = std::min(6, 2 - static_cast<int>(std::floor(std::log10(a))));
  } else if (a < 10) {
    decimals = 2;
  } else if (a < 100) {
    decimals = 1;
  }
  std::string s = fmt::format("{:.{}f}", value, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string format_bytes(double bytes) {
  static constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t u = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024 && u + 1 < kUnits.size()) {
    v /= 1024;
    ++u;
  }
  return format_number(v) + " " + kUnits[u];
}

std::string format_duration(double ns) {
  const double a = std::fabs(ns);
  if (a < 1e3) return format_number(ns) + " ns";
  if (a < 1e6) return format_number(ns / 1e3) + " us";
  if (a < 1e9) return format_number(ns / 1e6) + " ms";
  return format_number(ns / 1e9) + " s";
}

std::string format_value(double value, Unit unit) {
  if (!std::isfinite(value)) return "-";
  switch (unit) {
    case Unit::kNanoseconds:
      return format_duration(value);
    case Unit::kGbps:
      return format_number(value) + " GB/s";
    case Unit::kBytes:
      return format_bytes(value);
    case Unit::kPercent:
      return format_number(value) + "%";
    case Unit::kCount:
      return format_number(value);
  }
  return format_number(value);
}

std::string_view category_colour(std::size_t index) {
  // Okabe-Ito and Tableau colours, distinguishable with the common colour-vision deficiencies.
  static constexpr std::array<std::string_view, 12> kPalette = {
      "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
      "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#0072b2", "#d55e00"};
  return kPalette[index % kPalette.size()];
}

std::string_view ColourBook::colour(const std::string& name) {
  const auto [it, fresh] = index_.emplace(name, index_.size());
  return category_colour(it->second);
}

std::string sequential_colour(double t) {
  if (!std::isfinite(t)) t = 0;
  t = std::clamp(t, 0.0, 1.0);
  // Pale yellow -> orange -> dark red, interpolated in RGB between three stops.
  struct Rgb {
    double r, g, b;
  };
  static constexpr std::array<Rgb, 3> kStops = {Rgb{255, 247, 214}, Rgb{244, 139, 54},
                                                Rgb{127, 20, 22}};
  const double pos = t * 2;
  const std::size_t i = std::min<std::size_t>(1, static_cast<std::size_t>(pos));
  const double f = pos - static_cast<double>(i);
  const Rgb& a = kStops[i];
  const Rgb& b = kStops[i + 1];
  auto mix = [f](double x, double y) { return static_cast<int>(std::lround(x + (y - x) * f)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
}

namespace {

const char* anchor_name(Anchor a) {
  switch (a) {
    case Anchor::kStart:
      return "start";
    case Anchor::kMiddle:
      return "middle";
    case Anchor::kEnd:
      return "end";
  }
  return "start";
}

}  // namespace

Svg::Svg(std::string& out, double width, double height, std::string_view css_class,
         std::string_view label)
    : out_(out) {
  out_ += fmt::format(
      "<svg class=\"plot {}\" viewBox=\"0 0 {:.0f} {:.0f}\" width=\"{:.0f}\" role=\"img\" "
      "aria-label=\"",
      css_class, width, height, width);
  append_escaped(out_, label);
  out_ += "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
}

Svg::~Svg() {
  out_ += "</svg>\n";
}

void Svg::close_with_tooltip(std::string_view element, std::string_view tooltip) {
  if (tooltip.empty()) {
    out_ += "/>";
  } else {
    out_ += "><title>";
    append_escaped(out_, tooltip);
    out_ += "</title></";
    out_ += element;
    out_ += ">";
  }
  out_ += "\n";
}

void Svg::rect(double x, double y, double w, double h, std::string_view fill, std::string_view cls,
               std::string_view tooltip) {
  out_ += fmt::format(
      "<rect class=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
      "fill=\"{}\"",
      cls, x, y, std::max(0.0, w), std::max(0.0, h), fill);
  close_with_tooltip("rect", tooltip);
}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view cls) {
  out_ +=
      fmt::format("<line class=\"{}\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n",
                  cls, x1, y1, x2, y2);
}

void Svg::circle(double cx, double cy, double r, std::string_view fill, std::string_view cls,
                 std::string_view tooltip) {
  out_ += fmt::format("<circle class=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\"",
                      cls, cx, cy, r, fill);
  close_with_tooltip("circle", tooltip);
}

void Svg::polyline(const std::vector<std::pair<double, double>>& points, std::string_view colour,
                   std::string_view cls) {
  out_ += fmt::format("<polyline class=\"{}\" stroke=\"{}\" points=\"", cls, colour);
  for (std::size_t i = 0; i < points.size(); ++i) {
    out_ += fmt::format("{}{:.1f},{:.1f}", i ? " " : "", points[i].first, points[i].second);
  }
  out_ += "\"/>\n";
}

void Svg::text(double x, double y, std::string_view text, Anchor anchor, std::string_view cls) {
  out_ += fmt::format("<text class=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\">", cls, x, y,
                      anchor_name(anchor));
  append_escaped(out_, text);
  out_ += "</text>\n";
}

void Svg::vertical_text(double x, double y, std::string_view text, std::string_view cls) {
  out_ += fmt::format(
      "<text class=\"{}\" transform=\"translate({:.1f},{:.1f}) rotate(-90)\" "
      "text-anchor=\"middle\">",
      cls, x, y);
  append_escaped(out_, text);
  out_ += "</text>\n";
}

void Svg::begin_group(std::string_view cls, std::string_view attributes) {
  out_ += fmt::format("<g class=\"{}\"{}{}>\n", cls, attributes.empty() ? "" : " ", attributes);
}

void Svg::end_group() {
  out_ += "</g>\n";
}

void Svg::raw(std::string_view markup) {
  out_ += markup;
}

}  // namespace npkit::html
