// print_warnings (commands/command.hpp): the warning summary on standard error shows a
// category's examples with any control character from an input escaped (util/terminal_text.hpp).
#include <sstream>

#include <catch2/catch.hpp>

#include "commands/command.hpp"
#include "util/diagnostics.hpp"

namespace npkit::cli {
namespace {

TEST_CASE("print warnings: an escape sequence in an example is written out, not sent", "[cli]") {
  Diagnostics diagnostics;
  diagnostics.warn("unmatched event", "rank 0 on host \x1b]0;pwned\x07: ENTRY without EXIT");
  diagnostics.warn("unmatched event", "rank 1 on host \x1b[2J: ENTRY without EXIT");
  std::ostringstream out;
  std::ostringstream err;
  CliContext context{out, err, {}};
  print_warnings(diagnostics, CommonOptions{}, context);
  CHECK(err.str() ==
        "npkit-analyze: 2 warning(s) in 1 categories:\n"
        "  2 × unmatched event: rank 0 on host \\x1b]0;pwned\\x07: ENTRY without EXIT\n"
        "      rank 1 on host \\x1b[2J: ENTRY without EXIT\n");
  CHECK(out.str().empty());
}

}  // namespace
}  // namespace npkit::cli
