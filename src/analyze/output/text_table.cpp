#include "output/text_table.hpp"

#include <algorithm>

namespace npkit {
namespace {

bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
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

}  // namespace

void render_text(const TextTable& table, std::string& out) {
  const std::size_t n = table.columns.size();
  std::vector<std::size_t> width(n, 0);
  for (std::size_t c = 0; c < n; ++c) width[c] = table.columns[c].size();
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < n && c < row.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  }
  if (!table.title.empty()) out += table.title + "\n";
  const auto emit = [&](const std::vector<std::string>& row, bool header) {
    std::string line;
    for (std::size_t c = 0; c < n; ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      const std::size_t pad = width[c] - cell.size();
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
