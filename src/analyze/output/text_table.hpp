// output/text_table.hpp — a table of strings (util/string_table.hpp) rendered as aligned text, as
// CSV or as Markdown.
// Contract: short rows are padded with empty cells. Text output aligns numeric-looking cells to
// the right (a number, with a unit and a share after it: "1.702 ms (12.5%)"), and a table wider
// than 120 columns wraps its last column under itself when that column is prose and the others
// leave it at least 32; CSV quotes cells containing a comma, quote or newline (RFC 4180); Markdown
// (GitHub tables) prints the title in bold, aligns a column right when every non-empty cell in it
// looks numeric, escapes '|' and turns line breaks into spaces, and ends with a blank line so
// tables can follow each other.
#pragma once

#include <string>

#include "util/string_table.hpp"

namespace npkit {

void render_text(const TextTable& table, std::string& out);
void render_csv(const TextTable& table, std::string& out);
void render_markdown(const TextTable& table, std::string& out);

}  // namespace npkit
