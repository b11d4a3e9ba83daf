// output/trace/trace_numbers.hpp — exact integer formatting for trace writers.
// Contract: append_uint writes the decimal digits of v; append_fixed3 writes thousandths / 1000
// with exactly three decimals (microseconds from nanoseconds, GB/s from MB/s), sign included —
// no floating point, so a nanosecond is never rounded away.
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

inline void append_fixed3(std::string& out, std::int64_t thousandths) {
  std::uint64_t mag = static_cast<std::uint64_t>(thousandths);
  if (thousandths < 0) {
    out.push_back('-');
    mag = 0 - mag;
  }
  append_uint(out, mag / 1000);
  const auto frac = static_cast<unsigned>(mag % 1000);
  const char tail[4] = {'.', static_cast<char>('0' + frac / 100),
                        static_cast<char>('0' + frac / 10 % 10),
                        static_cast<char>('0' + frac % 10)};
  out.append(tail, 4);
}

}  // namespace npkit
