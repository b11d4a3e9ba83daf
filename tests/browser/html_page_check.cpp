// html_page_check — TEST-ONLY checks of an HTML report as headless Chromium rendered it.
//
//   html_page_check check --dom DOM --png PNG --bare-png BARE --plots N [--text "A|B|..."]
//                         [--no-data-plots "I,J"] [--max-load-ms MS] [--html FILE --max-bytes N]
//     DOM is Chromium's --dump-dom output, PNG its --screenshot of the same load, BARE a
//     screenshot of the same page with every data mark hidden (visibility: hidden on the points,
//     lines, bars, cells and spans: axes, gridlines, legends and text stay). Fails (exit 1) when
//     the page recorded a script error (data-js-error), never finished loading (data-ready), has
//     another number of plots than N, lacks one of the texts (each must appear in the page's
//     text: tags dropped, entities decoded, white space collapsed), took longer than MS to load
//     (data-load-ms), when FILE is larger than N bytes, or when a plot is blank: fewer than 0.5%
//     of its pixels differ from the white background, fewer than 3 distinct colours, or no data
//     mark: fewer than 20 of its pixels differ from BARE (a plot with axes, gridlines and text
//     but nothing drawn on them). --no-data-plots lists the plots (counted from 1) that the page
//     must draw without a data mark (a capture with nothing to show there): those fail when they
//     do show data.
//     Exit 3 with "NEED_HEIGHT H" when a plot lies below the screenshot (rerun with a taller
//     window); exit 4 when the load time is the only failure (a busy machine can be slow once:
//     the caller may load the page again). Prints one line of statistics per plot and a summary.
//   html_page_check crop --png IN --out OUT --rect X,Y,W,H [--scale K]
//     Writes the part of IN at (X, Y) of size W × H, averaged down by K, as OUT.
//   html_page_check plots --dom DOM
//     Prints the plot rectangles the page recorded, one "X,Y,W,H" per line.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "png_image.hpp"

namespace {

using npkit::browser::Image;

struct Rect {
  long x = 0, y = 0, w = 0, h = 0;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The attributes of the first <body ...> tag (values unescaped for &quot; and &amp; only).
std::map<std::string, std::string> body_attributes(const std::string& dom) {
  std::map<std::string, std::string> out;
  std::size_t i = dom.find("<body");
  if (i == std::string::npos) return out;
  i += 5;
  while (i < dom.size() && dom[i] != '>') {
    while (i < dom.size() && (dom[i] == ' ' || dom[i] == '\n' || dom[i] == '\t')) ++i;
    std::string name;
    while (i < dom.size() && dom[i] != '=' && dom[i] != ' ' && dom[i] != '>') name += dom[i++];
    std::string value;
    if (i < dom.size() && dom[i] == '=') {
      ++i;
      const char quote = dom[i] == '"' || dom[i] == '\'' ? dom[i++] : ' ';
      while (i < dom.size() && dom[i] != quote && !(quote == ' ' && dom[i] == '>')) {
        value += dom[i++];
      }
      if (i < dom.size() && dom[i] == quote) ++i;
    }
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"&quot;", "\""},
                                   std::pair<std::string, std::string>{"&amp;", "&"}}) {
      for (std::size_t p = value.find(from); p != std::string::npos; p = value.find(from, p + 1))
        value.replace(p, from.size(), to);
    }
    if (!name.empty()) out[name] = value;
  }
  return out;
}

std::vector<Rect> parse_plots(const std::string& text) {
  std::vector<Rect> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ';')) {
    Rect r;
    char c1, c2, c3;
    std::stringstream one(item);
    if (one >> r.x >> c1 >> r.y >> c2 >> r.w >> c3 >> r.h) out.push_back(r);
  }
  return out;
}

// The page's text as a reader sees it: scripts and styles dropped, every tag a space, the
// entities the renderer writes decoded, white space collapsed to one space.
std::string page_text(const std::string& dom) {
  std::string out;
  bool space = false;
  for (std::size_t i = 0; i < dom.size();) {
    if (dom.compare(i, 7, "<script") == 0 || dom.compare(i, 6, "<style") == 0) {
      const std::string end = dom.compare(i, 7, "<script") == 0 ? "</script>" : "</style>";
      const std::size_t e = dom.find(end, i);
      i = e == std::string::npos ? dom.size() : e + end.size();
      space = true;
      continue;
    }
    if (dom[i] == '<') {
      const std::size_t e = dom.find('>', i);
      i = e == std::string::npos ? dom.size() : e + 1;
      space = true;
      continue;
    }
    std::string c(1, dom[i]);
    std::size_t used = 1;
    if (dom[i] == '&') {
      for (const auto& [entity, text] : {std::pair<std::string, std::string>{"&amp;", "&"},
                                         {"&lt;", "<"},
                                         {"&gt;", ">"},
                                         {"&quot;", "\""},
                                         {"&#39;", "'"},
                                         {"&nbsp;", " "}}) {
        if (dom.compare(i, entity.size(), entity) == 0) {
          c = text;
          used = entity.size();
          break;
        }
      }
    }
    i += used;
    if (c == " " || c == "\n" || c == "\t" || c == "\r") {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string item; std::getline(s, item, separator);) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::map<std::string, std::string> options(int argc, char** argv, int first) {
  std::map<std::string, std::string> out;
  for (int i = first; i + 1 < argc; i += 2) out[argv[i]] = argv[i + 1];
  return out;
}

int fail(const std::string& message) {
  std::cerr << "html_page_check: " << message << "\n";
  return 1;
}

int check(std::map<std::string, std::string> o) {
  const std::string dom = read_text(o["--dom"]);
  if (dom.empty()) return fail("empty DOM dump " + o["--dom"] + " (did the browser run?)");
  if (dom.find("data-js-error=\"") != std::string::npos) {
    const auto attrs = body_attributes(dom);
    const auto it = attrs.find("data-js-error");
    return fail("the page recorded a script error: " +
                (it == attrs.end() ? std::string("(on <html>)") : it->second));
  }
  const auto attrs = body_attributes(dom);
  if (attrs.count("data-ready") == 0 || attrs.at("data-ready") != "1") {
    return fail("the page never finished loading (no data-ready on <body>)");
  }
  const auto plots = parse_plots(attrs.count("data-plots") ? attrs.at("data-plots") : "");
  const long load_ms =
      attrs.count("data-load-ms") ? std::atol(attrs.at("data-load-ms").c_str()) : -1;
  if (!o.count("--plots")) return fail("--plots N: the number of plots the page must have");
  const long expected_plots = std::atol(o["--plots"].c_str());
  int failures = 0;
  bool slow = false;
  if (static_cast<long>(plots.size()) != expected_plots) {
    failures += fail("the page has " + std::to_string(plots.size()) + " plot(s), expected " +
                     std::to_string(expected_plots));
  }
  const std::string text = page_text(dom);
  for (const std::string& expected : split(o["--text"], '|')) {
    if (text.find(expected) == std::string::npos) {
      failures += fail("the page's text lacks \"" + expected + "\"");
    }
  }
  if (o.count("--max-load-ms") && load_ms > std::atol(o["--max-load-ms"].c_str())) {
    std::cerr << "html_page_check: the page took " << load_ms << " ms to load, limit "
              << o["--max-load-ms"] << " ms\n";
    slow = true;
  }
  long html_bytes = -1;
  if (o.count("--html")) {
    std::ifstream f(o["--html"], std::ios::binary | std::ios::ate);
    html_bytes = static_cast<long>(f.tellg());
    if (o.count("--max-bytes") && html_bytes > std::atol(o["--max-bytes"].c_str())) {
      failures +=
          fail("the page is " + std::to_string(html_bytes) + " bytes, limit " + o["--max-bytes"]);
    }
  }
  Image image;
  const std::string error = npkit::browser::read_png(o["--png"], image);
  if (!error.empty()) return fail(error);
  Image bare;
  const std::string bare_error = npkit::browser::read_png(o["--bare-png"], bare);
  if (!bare_error.empty()) return fail("--bare-png: " + bare_error);
  if (bare.width != image.width || bare.height != image.height) {
    return fail("the screenshot without data marks has another size than the page's");
  }
  for (const Rect& r : plots) {
    if (r.y + r.h > static_cast<long>(image.height) || r.x + r.w > static_cast<long>(image.width)) {
      std::cout << "NEED_HEIGHT " << attrs.at("data-page-height") << "\n";
      return 3;
    }
  }
  std::set<std::string> no_data;
  for (const std::string& p : split(o["--no-data-plots"], ',')) no_data.insert(p);
  for (std::size_t i = 0; i < plots.size(); ++i) {
    const Rect& r = plots[i];
    const std::string number = std::to_string(i + 1);
    std::uint64_t painted = 0;
    std::uint64_t marks = 0;  // pixels the data marks change
    std::set<std::uint32_t> colours;
    for (long y = r.y; y < r.y + r.h; ++y) {
      for (long x = r.x; x < r.x + r.w; ++x) {
        const auto px = static_cast<std::uint32_t>(x);
        const auto py = static_cast<std::uint32_t>(y);
        const std::uint8_t* p = image.at(px, py);
        const std::uint8_t* q = bare.at(px, py);
        if (p[0] < 235 || p[1] < 235 || p[2] < 235) ++painted;
        if (std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 24) ++marks;
        if (colours.size() < 64) colours.insert((p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3));
      }
    }
    const double area = static_cast<double>(r.w) * static_cast<double>(r.h);
    const double share = area > 0 ? static_cast<double>(painted) / area : 0;
    std::cout << "plot " << i + 1 << " at " << r.x << "," << r.y << " " << r.w << "x" << r.h << ": "
              << share * 100 << "% painted, " << colours.size() << (colours.size() >= 64 ? "+" : "")
              << " colours, " << marks << " pixels of data marks\n";
    if (share < 0.005 || colours.size() < 3) {
      failures += fail("plot " + number + " looks blank");
    } else if (no_data.count(number) > 0) {
      if (marks >= 20) failures += fail("plot " + number + " was to show no data mark, but does");
    } else if (marks < 20) {
      failures += fail("plot " + number + " is blank: axes, gridlines and text but no data mark");
    }
  }
  std::cout << "summary: " << plots.size() << " plot(s), load " << load_ms << " ms, page height "
            << (attrs.count("data-page-height") ? attrs.at("data-page-height") : "?") << " px"
            << (html_bytes >= 0 ? ", html " + std::to_string(html_bytes) + " bytes" : "") << "\n";
  if (failures > 0) return 1;
  return slow ? 4 : 0;
}

int crop_command(std::map<std::string, std::string> o) {
  Image image;
  const std::string error = npkit::browser::read_png(o["--png"], image);
  if (!error.empty()) return fail(error);
  Image bare;
  const std::string bare_error = npkit::browser::read_png(o["--bare-png"], bare);
  if (!bare_error.empty()) return fail("--bare-png: " + bare_error);
  if (bare.width != image.width || bare.height != image.height) {
    return fail("the screenshot without data marks has another size than the page's");
  }
  Rect r;
  char c1, c2, c3;
  std::stringstream s(o["--rect"]);
  if (!(s >> r.x >> c1 >> r.y >> c2 >> r.w >> c3 >> r.h)) return fail("--rect X,Y,W,H");
  const long scale = o.count("--scale") ? std::atol(o["--scale"].c_str()) : 1;
  const Image part = npkit::browser::downscale(
      npkit::browser::crop(image, static_cast<std::uint32_t>(r.x), static_cast<std::uint32_t>(r.y),
                           static_cast<std::uint32_t>(r.w), static_cast<std::uint32_t>(r.h)),
      static_cast<std::uint32_t>(scale));
  const std::string werr = npkit::browser::write_png(o["--out"], part);
  return werr.empty() ? 0 : fail(werr);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return fail("usage: html_page_check check|crop|plots OPTIONS");
  const std::string mode = argv[1];
  auto o = options(argc, argv, 2);
  if (mode == "check") return check(o);
  if (mode == "crop") return crop_command(o);
  if (mode == "plots") {
    const auto attrs = body_attributes(read_text(o["--dom"]));
    for (const Rect& r : parse_plots(attrs.count("data-plots") ? attrs.at("data-plots") : "")) {
      std::cout << r.x << "," << r.y << "," << r.w << "," << r.h << "\n";
    }
    return 0;
  }
  return fail("unknown mode " + mode);
}
