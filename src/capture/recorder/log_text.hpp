// recorder/log_text.hpp — text of the capture's log lines made safe for a log and a terminal.
//
// Contract: escaped_for_log() returns `text` with every control character (bytes 0x00-0x1f and
// 0x7f: newline, carriage return, escape, ...) written as "\xNN" (two lower-case hex digits), so
// that a name from outside the capture (a hostname, a communicator name, a link target, a path)
// can neither start a line of its own in NCCL's log nor send a terminal an escape sequence. Every
// other byte is kept.
#pragma once

#include <string>

namespace npkit::capture {

std::string escaped_for_log(const std::string& text);

}  // namespace npkit::capture
