// output/trace/trace_numbers.hpp — exact integer formatting for trace writers.
// Contract: append_uint writes the decimal digits of v; append_fixed3 (write_fixed3 through a
// pointer) writes thousandths / 1000 with exactly three decimals (microseconds from nanoseconds,
// GB/s from MB/s), sign included — no floating point, so a nanosecond is never rounded away.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

namespace npkit {

inline void append_uint(std::string& out, std::uint64_t v) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out.append(digits, static_cast<std::size_t>(end - digits));  // (pointer, length): no replace()
}

// Writes thousandths / 1000 at `p` (at most 25 characters) and returns the end.
inline char* write_fixed3(char* p, std::int64_t thousandths) {
  std::uint64_t mag = static_cast<std::uint64_t>(thousandths);
  if (thousandths < 0) {
    *p++ = '-';
    mag = 0 - mag;
  }
  p = std::to_chars(p, p + 20, mag / 1000).ptr;
  const auto frac = static_cast<unsigned>(mag % 1000);
  p[0] = '.';
  p[1] = static_cast<char>('0' + frac / 100);
  p[2] = static_cast<char>('0' + frac / 10 % 10);
  p[3] = static_cast<char>('0' + frac % 10);
  return p + 4;
}

inline void append_fixed3(std::string& out, std::int64_t thousandths) {
  char text[32];
  out.append(text, static_cast<std::size_t>(write_fixed3(text, thousandths) - text));
}

}  // namespace npkit
