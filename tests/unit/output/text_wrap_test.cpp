// wrap_text: prose broken at spaces within a width, continuation lines indented.
#include "output/text_wrap.hpp"

#include <catch2/catch.hpp>

TEST_CASE("wrap text: breaks at the last space that fits", "[output]") {
  using npkit::wrap_text;
  CHECK(wrap_text("short line", 20, 2) == "short line");
  // "aaaa bbbb cccc" at width 9: "aaaa bbbb" is 9 columns, "cccc" goes on, indented by 2.
  CHECK(wrap_text("aaaa bbbb cccc", 9, 2) == "aaaa bbbb\n  cccc");
  CHECK(wrap_text("aaaa bbbb cccc", 8, 4) == "aaaa\n    bbbb\n    cccc");
}

TEST_CASE("wrap text: long words stand alone, leading spaces and newlines stay", "[output]") {
  using npkit::wrap_text;
  CHECK(wrap_text("a verylongword b", 6, 1) == "a\n verylongword\n b");
  CHECK(wrap_text("  x y", 4, 4) == "  x\n    y");
  CHECK(wrap_text("one two\nthree four", 8, 0) == "one two\nthree\nfour");
}

TEST_CASE("wrap text: counts code points, not bytes", "[output]") {
  // "±1 µs" is 5 columns in 7 bytes: it fits a width of 5.
  CHECK(npkit::wrap_text("±1 µs", 5, 0) == "±1 µs");
  CHECK(npkit::wrap_text("±1 µs", 4, 0) == "±1\nµs");
}

TEST_CASE("wrap text: a value list longer than a line breaks after its bars", "[output]") {
  CHECK(npkit::wrap_text("x aaaa|bbbb|cccc", 10, 0) == "x aaaa|\nbbbb|cccc");
}
