// output/render.hpp — the text forms every command writes: aligned text tables, CSV, GitHub
// Markdown, and the number formats of their cells.
// Contract:
// - render_table renders a table as aligned text (kTable), CSV (kCsv) or Markdown (kMarkdown);
//   kJson and kHtml are a caller's error and render text. render_line writes a line of prose (a
//   paragraph of its own in Markdown; wrapped at 120 columns in text, output/text_wrap.hpp);
//   render_block / render_section_line do the same preceded by a blank line in text (a table, or a
//   line that opens a section).
// - render_fields: "key value" lines (text: `indent` spaces, the key left-aligned in `key_width`
//   columns, a long value wrapped under itself; an empty key continues the line above) or, in
//   Markdown, a two-column table with `title` in bold above it. render_list: a heading and its
//   items (text: indented by two spaces; Markdown: a bulleted list).
// - Durations: us() microseconds with three decimals (TimeScale, describe_time:
//   util/time_text.hpp). share() part / whole, 0 when whole is not positive; percent() one
//   decimal; gbps() GB/s with two decimals (Field, or_dash: util/string_table.hpp);
//   readable_bytes() a size: "64 MiB" where it is a whole number of KiB, MiB or GiB, "238.9 MiB"
//   (four significant digits) for other sizes of 1 KiB and more, "1000 B" below.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "output/text_table.hpp"
#include "util/time_text.hpp"

namespace npkit {

enum class OutputFormat { kTable, kJson, kCsv, kMarkdown, kHtml };

void render_table(const TextTable& table, OutputFormat format, std::string& out);
void render_line(const std::string& line, OutputFormat format, std::string& out);
void render_block(const TextTable& table, OutputFormat format, std::string& out);
void render_section_line(const std::string& line, OutputFormat format, std::string& out);

void render_fields(const std::vector<Field>& fields, OutputFormat format, std::string& out,
                   std::size_t indent = 0, std::size_t key_width = 14,
                   const std::string& title = "");
void render_list(const std::string& heading, const std::vector<std::string>& items,
                 OutputFormat format, std::string& out);

std::string us(double ns);
double share(std::int64_t part, std::int64_t whole);
std::string percent(double fraction);
std::string gbps(double gb_per_s);
std::string gbps_or_dash(double gb_per_s);  // "-" unless positive
std::string readable_bytes(std::uint64_t bytes);

}  // namespace npkit
