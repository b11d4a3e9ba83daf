#include "output/text_table.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "output/text_wrap.hpp"

namespace npkit {
namespace {

bool plain_number(std::string_view s) {
  bool digit = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c != '.' && c != '-' && c != '+' && c != '%' && c != 'e') {
      return false;
    }
  }
  return digit;
}

// A number, optionally with a unit ("1.702 ms", "92.70 GB/s", "64 MiB") and a share after it
// ("1.702 ms (12.5%)").
bool looks_numeric(const std::string& s) {
  static constexpr std::array<std::string_view, 9> kUnits = {"ns",  "us",  "ms",  "s",   "B",
                                                             "KiB", "MiB", "GiB", "GB/s"};
  const std::string_view v = s;
  const std::size_t space = v.find(' ');
  if (space == std::string_view::npos) return plain_number(v);
  if (!plain_number(v.substr(0, space))) return false;
  std::string_view rest = v.substr(space + 1);
  const std::size_t share = rest.find(" (");
  if (share != std::string_view::npos) {
    const std::string_view paren = rest.substr(share + 2);
    if (paren.empty() || paren.back() != ')' || !plain_number(paren.substr(0, paren.size() - 1))) {
      return false;
    }
    rest = rest.substr(0, share);
  }
  return std::find(kUnits.begin(), kUnits.end(), rest) != kUnits.end();
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q.push_back('"');
    q.push_back(c);
  }
  q.push_back('"');
  return q;
}

std::string markdown_cell(const std::string& s) {
  std::string cell;
  for (char c : s) {
    if (c == '|') {
      cell += "\\|";
    } else if (c == '\n' || c == '\r') {
      cell.push_back(' ');
    } else {
      cell.push_back(c);
    }
  }
  return cell;
}

bool numeric_column(const TextTable& table, std::size_t column) {
  bool any = false;
  for (const auto& row : table.rows) {
    if (column >= row.size() || row[column].empty()) continue;
    if (!looks_numeric(row[column])) return false;
    any = true;
  }
  return any;
}

constexpr std::size_t kMinWrappedColumn = 32;

}  // namespace

void render_text(const TextTable& table, std::string& out) {
  const std::size_t n = table.columns.size();
  std::vector<std::size_t> width(n, 0);
  for (std::size_t c = 0; c < n; ++c) width[c] = text_columns(table.columns[c]);
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < n && c < row.size(); ++c)
      width[c] = std::max(width[c], text_columns(row[c]));
  }
  // A table wider than the terminal wraps its last column when that column is prose
  std::size_t wrap_at = 0;
  std::size_t before = 0;  // columns before the last one's start
  for (std::size_t c = 0; c + 1 < n; ++c) before += width[c] + 2;
  // (Only where the other columns leave it room: a table wider than that stays as it is.)
  if (n > 1 && !numeric_column(table, n - 1) && before + width[n - 1] > kTextWidth &&
      before + kMinWrappedColumn <= kTextWidth) {
    wrap_at = kTextWidth - before;
    width[n - 1] = std::max(text_columns(table.columns[n - 1]), wrap_at);
  }
  if (!table.title.empty()) out += wrap_text(table.title) + "\n";
  const auto emit = [&](const std::vector<std::string>& row, bool header) {
    std::string line;
    std::string rest;  // the wrapped last cell's further lines
    for (std::size_t c = 0; c < n; ++c) {
      std::string cell = c < row.size() ? row[c] : "";
      if (c + 1 == n && wrap_at > 0 && !header && text_columns(cell) > wrap_at) {
        const std::string wrapped = wrap_text(cell, wrap_at, 0);
        const std::size_t nl = wrapped.find('\n');
        cell = wrapped.substr(0, nl);
        rest = nl == std::string::npos ? "" : wrapped.substr(nl + 1);
      }
      const std::size_t pad = width[c] - std::min(width[c], text_columns(cell));
      if (c > 0) line += "  ";
      if (!header && looks_numeric(cell)) {
        line.append(pad, ' ');
        line += cell;
      } else {
        line += cell;
        if (c + 1 < n) line.append(pad, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (!rest.empty()) {
      std::string continued(before, ' ');
      for (const char ch : rest)
        continued += ch == '\n' ? "\n" + std::string(before, ' ') : std::string(1, ch);
      out += continued + "\n";
    }
  };
  emit(table.columns, true);
  for (const auto& row : table.rows) emit(row, false);
}

void render_csv(const TextTable& table, std::string& out) {
  const auto emit = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (c > 0) out.push_back(',');
      if (c < row.size()) out += csv_cell(row[c]);
    }
    out.push_back('\n');
  };
  emit(table.columns);
  for (const auto& row : table.rows) emit(row);
}

void render_markdown(const TextTable& table, std::string& out) {
  const std::size_t n = table.columns.size();
  if (!table.title.empty()) out += "**" + markdown_cell(table.title) + "**\n\n";
  const auto emit = [&](const std::vector<std::string>& row) {
    out += "|";
    for (std::size_t c = 0; c < n; ++c) {
      out += " " + (c < row.size() ? markdown_cell(row[c]) : std::string()) + " |";
    }
    out += "\n";
  };
  emit(table.columns);
  out += "|";
  for (std::size_t c = 0; c < n; ++c) out += numeric_column(table, c) ? " ---: |" : " --- |";
  out += "\n";
  for (const auto& row : table.rows) emit(row);
  out += "\n";
}

}  // namespace npkit
