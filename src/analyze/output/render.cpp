#include "output/render.hpp"
#include "output/text_wrap.hpp"

#include <fmt/format.h>

#include <array>
#include <ctime>

namespace npkit {

void render_table(const TextTable& table, OutputFormat format, std::string& out) {
  switch (format) {
    case OutputFormat::kCsv:
      render_csv(table, out);
      return;
    case OutputFormat::kMarkdown:
      render_markdown(table, out);
      return;
    case OutputFormat::kTable:
    case OutputFormat::kJson:
    case OutputFormat::kHtml:
      render_text(table, out);
      return;
  }
}

void render_line(const std::string& line, OutputFormat format, std::string& out) {
  out += format == OutputFormat::kTable ? wrap_text(line) : line;
  out += format == OutputFormat::kMarkdown ? "\n\n" : "\n";
}

void render_fields(const std::vector<Field>& fields, OutputFormat format, std::string& out,
                   std::size_t indent, std::size_t key_width, const std::string& title) {
  if (format == OutputFormat::kMarkdown) {
    TextTable t;
    t.title = title;
    t.columns = {"field", "value"};
    for (const auto& f : fields) t.add_row({f.key, f.value});
    render_markdown(t, out);
    return;
  }
  for (const auto& f : fields) {
    std::string line(indent, ' ');
    line += f.key;
    if (f.key.size() < key_width) line.append(key_width - f.key.size(), ' ');
    line += f.value;
    out += wrap_text(line, kTextWidth, indent + key_width);
    out += "\n";
  }
}

void render_list(const std::string& heading, const std::vector<std::string>& items,
                 OutputFormat format, std::string& out) {
  const bool markdown = format == OutputFormat::kMarkdown;
  out += heading;
  out += markdown ? "\n\n" : "\n";
  for (const auto& item : items) out += (markdown ? "- " : "  ") + item + "\n";
  if (markdown) out += "\n";
}

void render_block(const TextTable& table, OutputFormat format, std::string& out) {
  if (format == OutputFormat::kTable) out += "\n";
  render_table(table, format, out);
}

void render_section_line(const std::string& line, OutputFormat format, std::string& out) {
  if (format == OutputFormat::kTable) out += "\n";
  render_line(line, format, out);
}

std::string us(double ns) {
  return fmt::format("{:.3f}", ns / 1e3);
}
double share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}
std::string percent(double f) {
  return fmt::format("{:.1f}%", 100.0 * f);
}
std::string gbps(double v) {
  return fmt::format("{:.2f}", v);
}
std::string gbps_or_dash(double v) {
  return v > 0 ? gbps(v) : "-";
}

}  // namespace npkit

namespace npkit {

std::string readable_bytes(std::uint64_t bytes) {
  constexpr std::array<const char*, 4> kUnits = {"B", "KiB", "MiB", "GiB"};
  std::size_t unit = 0;
  std::uint64_t whole = bytes;
  while (unit + 1 < kUnits.size() && whole >= 1024 && whole % 1024 == 0) {
    whole /= 1024;
    ++unit;
  }
  if (unit > 0 || bytes < 1024) return fmt::format("{} {}", whole, kUnits[unit]);
  double v = static_cast<double>(bytes);
  while (unit + 1 < kUnits.size() && v >= 1024) {
    v /= 1024;
    ++unit;
  }
  const int decimals = v >= 100 ? 1 : v >= 10 ? 2 : 3;
  return fmt::format("{:.{}f} {}", v, decimals, kUnits[unit]);
}

}  // namespace npkit
