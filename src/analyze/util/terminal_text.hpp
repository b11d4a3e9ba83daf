// util/terminal_text.hpp — text from an input made safe to print on a terminal.
// Contract: terminal_safe() returns `text` with every control character written out as
// "\xNN" (one per byte): C0 controls but newline and tab (the line structure of the output),
// DEL, the C1 controls U+0080..U+009F (UTF-8 C2 80..C2 9F), and any byte that is not part of a
// valid UTF-8 sequence (a lone 0x9B is CSI to an 8-bit terminal). So an escape sequence in a
// hostname, a file name or a function name can neither set the terminal's title or colours nor
// move the cursor to forge a line. Everything else — printable ASCII, valid UTF-8 such as "×"
// or "µ" — is kept byte for byte: output without control characters is unchanged.
#pragma once

#include <string>
#include <string_view>

namespace npkit {

std::string terminal_safe(std::string_view text);

}  // namespace npkit
