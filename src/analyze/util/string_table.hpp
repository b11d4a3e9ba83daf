// util/string_table.hpp — tables and key/value lines of strings, filled by any layer and rendered
// by output/ (output/text_table.hpp, output/render.hpp).
// Contract: TextTable: every row has as many cells as there are columns (short rows are padded
// with empty cells when rendered); its title is printed above the table in text form, not in CSV.
// Field: a key and its value ("" key: the line continues the one above). or_dash: "-" for "".
#pragma once

#include <string>
#include <vector>

namespace npkit {

struct TextTable {
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;

  void add_row(std::vector<std::string> row) { rows.push_back(std::move(row)); }
};

struct Field {
  std::string key;
  std::string value;
};

inline std::string or_dash(const std::string& text) {
  return text.empty() ? "-" : text;
}

}  // namespace npkit
