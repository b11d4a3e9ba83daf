// text_table.hpp — a table of strings rendered as aligned text, as CSV or as Markdown.
// Contract: every row has as many cells as there are columns (short rows are padded with empty
// cells). Text output aligns numeric-looking cells to the right; CSV quotes cells containing a
// comma, quote or newline (RFC 4180); Markdown (GitHub tables) prints the title in bold, aligns a
// column right when every non-empty cell in it looks numeric, escapes '|' and turns line breaks
// into spaces, and ends with a blank line so tables can follow each other.
#pragma once

#include <string>
#include <vector>

namespace npkit {

struct TextTable {
  std::string title;  // printed above the table in text form; not part of CSV
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;

  void add_row(std::vector<std::string> row) { rows.push_back(std::move(row)); }
};

void render_text(const TextTable& table, std::string& out);
void render_csv(const TextTable& table, std::string& out);
void render_markdown(const TextTable& table, std::string& out);

}  // namespace npkit
