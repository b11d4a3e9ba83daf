#include "output/html/page.hpp"

#include <fmt/format.h>

#include <cctype>
#include <type_traits>

#include "npkit/version.hpp"
#include "output/html/heatmap.hpp"
#include "output/html/line_plot.hpp"
#include "output/html/page_style.hpp"
#include "output/html/regression_bars.hpp"
#include "output/html/stacked_bars.hpp"
#include "output/html/svg.hpp"
#include "output/html/timeline.hpp"

namespace npkit::html {
namespace {

// "12", "-3.5", "1.2e9", "45.0%", "12.3 (4.5%)": a number first, then nothing but number-ish
// characters.
bool looks_numeric(std::string_view s) {
  if (s.empty() || s == "-") return false;
  std::size_t i = 0;
  if (s[0] == '-' || s[0] == '+') ++i;
  if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)) &&
        std::string_view(".,-+e%() ").find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

void render_table(const Table& t, std::string& out) {
  out += "<div class=\"table-wrap\"><table class=\"data\">";
  if (!t.table.title.empty()) out += fmt::format("<caption>{}</caption>", escape(t.table.title));
  out += "<thead><tr>";
  for (const auto& c : t.table.columns) out += fmt::format("<th>{}</th>", escape(c));
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.table.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < t.table.columns.size(); ++i) {
      const std::string& cell = i < row.size() ? row[i] : std::string();
      out +=
          fmt::format("<td{}>{}</td>", looks_numeric(cell) ? " class=\"num\"" : "", escape(cell));
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  if (!t.note.empty()) out += fmt::format("<p class=\"note\">{}</p>\n", escape(t.note));
}

void figure_start(const std::string& title, const std::string& note, std::string& out) {
  out += fmt::format("<figure><figcaption><h3>{}</h3>", escape(title));
  if (!note.empty()) out += fmt::format("<p class=\"note\">{}</p>", escape(note));
  out += "</figcaption>\n";
}

void render_findings(const FindingList& list, std::string& out) {
  if (list.findings.empty()) {
    out += fmt::format("<p class=\"no-findings\">{}</p>\n", escape(list.empty_text));
    return;
  }
  out += "<ul class=\"findings\">\n";
  for (const auto& f : list.findings) {
    out += "<li class=\"finding severity-";
    for (char c : f.severity) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    out += fmt::format("\"><strong>{}: {}</strong>", escape(f.severity), escape(f.title));
    if (!f.evidence.empty()) {
      out += "<ul class=\"evidence\">";
      for (const auto& e : f.evidence) out += fmt::format("<li>{}</li>", escape(e));
      out += "</ul>";
    }
    if (!f.next_step.empty()) {
      out += fmt::format("<p class=\"next-step\">Next step: {}</p>", escape(f.next_step));
    }
    out += "</li>\n";
  }
  out += "</ul>\n";
}

void render_list(const char* cls, const char* heading, const std::vector<std::string>& items,
                 std::string& out) {
  if (items.empty()) return;
  out += fmt::format("<div class=\"{}\"><strong>{}</strong><ul>", cls, heading);
  for (const auto& item : items) out += fmt::format("<li>{}</li>", escape(item));
  out += "</ul></div>\n";
}

}  // namespace

void render_block(const Block& block, std::string& out, ColourBook* colours) {
  std::visit(
      [&out, colours](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, Paragraph>) {
          out += fmt::format("<p>{}</p>\n", escape(b.text));
        } else if constexpr (std::is_same_v<T, Table>) {
          render_table(b, out);
        } else if constexpr (std::is_same_v<T, FindingList>) {
          render_findings(b, out);
        } else {
          figure_start(b.title, b.note, out);
          if constexpr (std::is_same_v<T, StackedBars>) render_stacked_bars(b, out, colours);
          if constexpr (std::is_same_v<T, LinePlot>) render_line_plot(b, out);
          if constexpr (std::is_same_v<T, Heatmap>) render_heatmap(b, out);
          if constexpr (std::is_same_v<T, RegressionBars>) render_regression_bars(b, out);
          if constexpr (std::is_same_v<T, Timeline>) {
            render_timeline(b, out, colours);
            out += "<p class=\"hint\">Mouse wheel zooms, drag pans, double-click resets.</p>\n";
          }
          out += "</figure>\n";
        }
      },
      block);
}

std::string render_report_html(const ReportModel& model) {
  std::string out;
  out.reserve(1 << 16);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<meta name=\"generator\" content=\"npkit-analyze " NPKIT_VERSION_STRING "\">\n";
  out += fmt::format("<title>{}</title>\n<script>", escape(model.title));
  out += kErrorScript;
  out += "</script>\n<style>";
  out += kPageStyle;
  out += fmt::format("</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n", escape(model.title));
  if (!model.subtitle.empty()) {
    out += fmt::format("<p class=\"subtitle\">{}</p>\n", escape(model.subtitle));
  }
  if (!model.facts.empty()) {
    out += "<table class=\"facts\">\n";
    for (const auto& f : model.facts) {
      out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape(f.name), escape(f.value));
    }
    out += "</table>\n";
  }
  render_list("warnings", "Warnings", model.warnings, out);
  render_list("reduction", "What this page aggregates or samples", model.reduction, out);
  if (!model.sections.empty()) {
    out += "<nav><strong>Contents</strong><ol>";
    for (const auto& s : model.sections) {
      out += fmt::format("<li><a href=\"#{}\">{}</a></li>", escape(s.id), escape(s.title));
    }
    out += "</ol></nav>\n";
  }
  out += "</header>\n<main>\n";
  ColourBook colours;  // one colour per phase name on every chart of the page
  for (const auto& s : model.sections) {
    out += fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", escape(s.id), escape(s.title));
    for (const auto& b : s.blocks) render_block(b, out, &colours);
    out += "</section>\n";
  }
  out += "</main>\n<footer>Made by npkit-analyze " NPKIT_VERSION_STRING
         ". One self-contained file: no network access, no external assets.</footer>\n<script>";
  out += kPageScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace npkit::html
