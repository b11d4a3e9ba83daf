// error_offset_check.hpp — the error contract the JSON readers' fuzz targets check: a message
// "input: offset N: WHAT" with N a number no larger than the input's size and WHAT not empty.
// A violation prints "<target>: contract violated: ..." and aborts.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace npkit::fuzz {

inline void check(bool ok, const char* target, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "%s: contract violated: %s\n", target, what);
  std::abort();
}

inline void check_error_offset(const std::string& message, std::size_t size, const char* target) {
  const std::string prefix = "input: offset ";
  check(message.compare(0, prefix.size(), prefix) == 0, target, "error without 'input: offset '");
  std::size_t digits = 0;
  std::uint64_t offset = 0;
  for (std::size_t i = prefix.size(); i < message.size() && message[i] >= '0' && message[i] <= '9';
       ++i, ++digits) {
    check(digits < 20, target, "offset with more than 20 digits");
    offset = offset * 10 + static_cast<std::uint64_t>(message[i] - '0');
  }
  check(digits > 0, target, "error offset is not a number");
  check(message.compare(prefix.size() + digits, 2, ": ") == 0, target, "no ': ' after the offset");
  check(message.size() > prefix.size() + digits + 2, target, "error says nothing after the offset");
  check(offset <= size, target, "error offset past the end of the input");
}

}  // namespace npkit::fuzz
