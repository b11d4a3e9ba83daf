#include "util/terminal_text.hpp"

#include <cstddef>

namespace npkit {
namespace {

// Length of the valid UTF-8 sequence (no overlong form, no surrogate, at most U+10FFFF) that
// starts at `at`, or 0.
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  unsigned char low = 0x80;  // the range of the second byte
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
  }
  return length;
}

// Bytes at `at` that are safe as they are (0: the byte there is to be escaped).
std::size_t safe_length(std::string_view text, std::size_t at) {
  const auto c = static_cast<unsigned char>(text[at]);
  if (c == '\n' || c == '\t') return 1;
  if (c < 0x20 || c == 0x7F) return 0;
  if (c < 0x80) return 1;
  const std::size_t length = utf8_length(text, at);
  if (length == 2 && c == 0xC2 && static_cast<unsigned char>(text[at + 1]) < 0xA0) return 0;
  return length;
}

void append_escaped_byte(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {  // most text has nothing to escape: copied once, at the end
    const std::size_t length = safe_length(text, at);
    if (length == 0) break;
    at += length;
  }
  std::string out(text.substr(0, at));
  if (at == text.size()) return out;
  out.reserve(text.size() + 16);
  while (at < text.size()) {
    const std::size_t length = safe_length(text, at);
    if (length == 0) {
      const auto c = static_cast<unsigned char>(text[at]);
      append_escaped_byte(out, c);
      const bool c1 = c == 0xC2 && at + 1 < text.size() &&
                      static_cast<unsigned char>(text[at + 1]) >= 0x80 &&
                      static_cast<unsigned char>(text[at + 1]) < 0xA0;
      if (c1) {  // a C1 control: both of its bytes
        append_escaped_byte(out, static_cast<unsigned char>(text[at + 1]));
        at += 2;
      } else {
        at += 1;
      }
    } else {
      out.append(text.substr(at, length));
      at += length;
    }
  }
  return out;
}

}  // namespace npkit
