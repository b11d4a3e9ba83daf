// output/text_wrap.hpp — prose that fits a terminal: lines broken at spaces.
// Contract: wrap_text breaks `text` at spaces so that no line is longer than `width` columns
// (counting UTF-8 code points) where a break exists; continuation lines start with `indent`
// spaces; a word longer than a line stands alone on its line. Embedded newlines are kept (each
// line wrapped on its own). The result has no trailing newline. text_columns: the columns a
// UTF-8 text takes in a terminal (one per code point).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace npkit {

constexpr std::size_t kTextWidth = 120;

std::size_t text_columns(std::string_view text);
std::string wrap_text(std::string_view text, std::size_t width = kTextWidth,
                      std::size_t indent = 2);

}  // namespace npkit
