// terminal_safe: control characters from an input written out as \xNN; everything else kept.
#include "util/terminal_text.hpp"

#include <string>

#include <catch2/catch.hpp>

using npkit::terminal_safe;

TEST_CASE("terminal text: printable text, UTF-8, newline and tab are kept byte for byte",
          "[util]") {
  CHECK(terminal_safe("") == "");
  CHECK(terminal_safe("node0 ring: 12.5 µs × 2 → 4 — \"ok\"\\n") ==
        "node0 ring: 12.5 µs × 2 → 4 — \"ok\"\\n");
  CHECK(terminal_safe("a\tb\nc\n") == "a\tb\nc\n");
  CHECK(terminal_safe("\xF0\x9F\x98\x80 \xC2\xA0 \xC2\xB5") ==
        "\xF0\x9F\x98\x80 \xC2\xA0 \xC2\xB5");
}

TEST_CASE("terminal text: C0 controls, DEL, C1 controls and stray bytes are written out in hex",
          "[util]") {
  CHECK(terminal_safe("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07");
  CHECK(terminal_safe("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(terminal_safe("line\rforged") == "line\\x0dforged");
  CHECK(terminal_safe(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(terminal_safe("x\x7Fy") == "x\\x7fy");
  // U+009B (CSI) and U+0085 (NEL) in UTF-8: both bytes; U+00A0 just after C1 is kept.
  CHECK(terminal_safe("a\xC2\x9B"
                      "2Jb\xC2\x85"
                      "c") == "a\\xc2\\x9b2Jb\\xc2\\x85c");
  // A lone 0x9B (CSI to an 8-bit terminal), a truncated sequence, an overlong '/', a surrogate.
  CHECK(terminal_safe("\x9B"
                      "31m") == "\\x9b31m");
  CHECK(terminal_safe("end\xE2\x86") == "end\\xe2\\x86");
  CHECK(terminal_safe("\xC0\xAF") == "\\xc0\\xaf");
  CHECK(terminal_safe("\xED\xA0\x80") == "\\xed\\xa0\\x80");
  // 0xC2 followed by a byte that does not continue it: only 0xC2 is escaped.
  CHECK(terminal_safe("\xC2"
                      "A") == "\\xc2A");
}
