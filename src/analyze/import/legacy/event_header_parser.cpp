// Parses npkit_event.h the way NPKit's generators do (docs/formats.md, "Event-id tables").
#include <cstdlib>
#include <sstream>
#include <vector>

#include "run/event_table.hpp"
#include "util/file_io.hpp"

namespace npkit {

void define_mscclpp_executor_ops(EventTable& t, std::uint8_t entry_base, std::uint8_t exit_base);

namespace {

// Python's int(text, 0): decimal, 0x/0X hex, 0o octal, 0b binary; no leading zeros in decimal.
bool parse_auto_base(const std::string& text, long long& value) {
  if (text.empty()) return false;
  int base = 10;
  std::size_t start = 0;
  if (text.size() > 2 && text[0] == '0') {
    const char p = static_cast<char>(text[1] | 0x20);
    if (p == 'x') base = 16;
    if (p == 'o') base = 8;
    if (p == 'b') base = 2;
    if (base != 10) start = 2;
  }
  if (base == 10 && text.size() > 1 && text[0] == '0') return false;
  char* end = nullptr;
  const std::string digits = text.substr(start);
  if (digits.empty() || digits[0] == '-' || digits[0] == '+') return false;
  value = std::strtoll(digits.c_str(), &end, base);
  return end != nullptr && *end == '\0';
}

}  // namespace

Result<EventTable> parse_event_header(std::string_view text, const std::string& source,
                                      Diagnostics& diagnostics) {
  EventTable table(source);
  std::istringstream in{std::string(text)};
  std::string line;
  std::size_t line_no = 0;
  std::size_t defined = 0;
  long long op_entry_base = -1;
  long long op_exit_base = -1;
  std::vector<bool> seen(256, false);
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("#define NPKIT_EVENT_", 0) != 0) continue;
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.size() != 3) continue;
    long long value = 0;
    if (!parse_auto_base(f[2], value)) {
      return Error{source + ":" + std::to_string(line_no) + ": value '" + f[2] + "' of " + f[1] +
                   " is not an integer literal"};
    }
    if (value < 0 || value > 255) {
      return Error{source + ":" + std::to_string(line_no) + ": value " + f[2] + " of " + f[1] +
                   " does not fit the 8-bit event id"};
    }
    if (f[1] == "NPKIT_EVENT_EXECUTOR_OP_BASE_ENTRY") {
      op_entry_base = value;
      continue;
    }
    if (f[1] == "NPKIT_EVENT_EXECUTOR_OP_BASE_EXIT") {
      op_exit_base = value;
      continue;
    }
    const auto id = static_cast<std::uint8_t>(value);
    if (seen[id]) {
      diagnostics.warn("duplicate event id", source + ":" + std::to_string(line_no) + ": id " +
                                                 f[2] + " redefined as " + f[1] +
                                                 " (the last definition wins)");
    }
    seen[id] = true;
    table.define(id, f[1]);
    ++defined;
  }
  if (op_entry_base >= 0 && op_exit_base >= 0) {
    define_mscclpp_executor_ops(table, static_cast<std::uint8_t>(op_entry_base),
                                static_cast<std::uint8_t>(op_exit_base));
    ++defined;
  }
  if (defined == 0) {
    return Error{source + ": no '#define NPKIT_EVENT_<NAME> <id>' lines: not an npkit_event.h"};
  }
  return table;
}

Result<EventTable> load_event_table(const std::string& spec, Diagnostics& diagnostics) {
  if (spec.find('/') != std::string::npos || spec.find(".h") != std::string::npos) {
    NPKIT_ASSIGN(auto text, io::read_text_file(spec, 1 << 20));
    return parse_event_header(text, spec, diagnostics);
  }
  return builtin_event_table(spec);
}

}  // namespace npkit
