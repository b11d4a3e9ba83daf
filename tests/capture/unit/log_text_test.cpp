// The plugin's log lines carry names from outside; control characters come out as \xNN.
// Expected texts are written by hand from the ASCII table (LF 0x0a, CR 0x0d, ESC 0x1b, DEL 0x7f).
#include <catch2/catch.hpp>
#include <string>

#include "recorder/log_text.hpp"

using npkit::capture::escaped_for_log;

TEST_CASE("log text: control characters are escaped, everything else is kept", "[capture]") {
  CHECK(escaped_for_log("") == "");
  CHECK(escaped_for_log("/dumps/npkit_0_rank0.npkt (a symbolic link to /x)") ==
        "/dumps/npkit_0_rank0.npkt (a symbolic link to /x)");
  CHECK(escaped_for_log("a\nNCCL WARN forged\r") == "a\\x0aNCCL WARN forged\\x0d");
  CHECK(escaped_for_log("\x1b]0;title\x07") == "\\x1b]0;title\\x07");
  CHECK(escaped_for_log(std::string("nul\0del\x7f", 8)) == "nul\\x00del\\x7f");
  CHECK(escaped_for_log("tab\tend") == "tab\\x09end");
  CHECK(escaped_for_log("h\xc3\xa9te back\\slash") == "h\xc3\xa9te back\\slash");  // UTF-8 kept
}
