// html_test_support.hpp — small helpers for the HTML renderer tests: counting markup.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace npkit::test {

// Non-overlapping occurrences of `needle` in `text`.
inline std::size_t count_of(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(needle); pos != std::string_view::npos;
       pos = text.find(needle, pos + needle.size())) {
    ++n;
  }
  return n;
}

}  // namespace npkit::test
