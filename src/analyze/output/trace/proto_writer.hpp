// output/trace/proto_writer.hpp — Protocol Buffers wire format, appended to a std::string.
// Contract: each call appends one field (tag, then value) in the encoding the wire format
// defines: varints for unsigned and (two's complement, ten bytes when negative) signed integers,
// 8-byte little-endian doubles, length-delimited strings and nested messages. A nested message is
// written into its own string and appended with message(), or written in place between
// open_message() and close_message(), which give the same bytes. FieldWriter writes the same
// encodings through a pointer into room reserved at the end of a string, for hot paths.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "output/trace/reserved_text.hpp"

namespace npkit::proto {

enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2 };

// Writes `v` as a varint at `p` (at most 10 bytes) and returns the end.
inline char* write_varint(char* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void append_varint(std::string& out, std::uint64_t v) {
  char bytes[10];
  out.append(bytes, static_cast<std::size_t>(write_varint(bytes, v) - bytes));
}

inline void append_tag(std::string& out, std::uint32_t field, WireType type) {
  append_varint(out, std::uint64_t{field} << 3 | type);
}

inline void uint_field(std::string& out, std::uint32_t field, std::uint64_t v) {
  append_tag(out, field, kVarint);
  append_varint(out, v);
}

inline void int_field(std::string& out, std::uint32_t field, std::int64_t v) {
  uint_field(out, field, static_cast<std::uint64_t>(v));
}

inline void double_field(std::string& out, std::uint32_t field, double v) {
  append_tag(out, field, kFixed64);
  char bytes[8];
  static_assert(std::endian::native == std::endian::little, "doubles are written as stored");
  std::memcpy(bytes, &v, 8);
  out.append(bytes, 8);
}

inline void bytes_field(std::string& out, std::uint32_t field, std::string_view v) {
  append_tag(out, field, kLengthDelimited);
  append_varint(out, v.size());
  out.append(v);
}

inline void message(std::string& out, std::uint32_t field, std::string_view body) {
  bytes_field(out, field, body);
}

// Starts a nested message in place: its tag and a one-byte length, patched by close_message()
// (which moves the body when its length needs more bytes). Returns where the length is.
inline std::size_t open_message(std::string& out, std::uint32_t field) {
  append_tag(out, field, kLengthDelimited);
  out.push_back('\0');
  return out.size() - 1;
}

inline void close_message(std::string& out, std::size_t length_at) {
  const std::size_t size = out.size() - length_at - 1;
  if (size < 0x80) {
    out[length_at] = static_cast<char>(size);
    return;
  }
  std::string length;
  append_varint(length, size);
  out.insert(length_at + 1, length.size() - 1, '\0');
  out.replace(length_at, length.size(), length);
}

// Writes fields into room reserved at the end of `out` (at most `most` bytes in all, the caller's
// bound); done() gives back the room not used. Nested messages opened here are closed here.
class FieldWriter : public ReservedText {
 public:
  using ReservedText::ReservedText;
  void varint(std::uint64_t v) { p_ = write_varint(p_, v); }
  void uint_field(std::uint32_t field, std::uint64_t v) {
    varint(std::uint64_t{field} << 3 | kVarint);
    varint(v);
  }
  void int_field(std::uint32_t field, std::int64_t v) {
    uint_field(field, static_cast<std::uint64_t>(v));
  }
  void double_field(std::uint32_t field, double v) {
    varint(std::uint64_t{field} << 3 | kFixed64);
    std::memcpy(p_, &v, 8);
    p_ += 8;
  }
  void bytes_field(std::uint32_t field, std::string_view v) {
    varint(std::uint64_t{field} << 3 | kLengthDelimited);
    varint(v.size());
    raw(v);
  }
  // A nested message: its tag and a one-byte length, patched by close() (which moves the body
  // when its length needs more bytes: leave that room in `most`).
  char* open(std::uint32_t field) {
    varint(std::uint64_t{field} << 3 | kLengthDelimited);
    return p_++;
  }
  void close(char* length_at) {
    const auto size = static_cast<std::size_t>(p_ - length_at - 1);
    if (size < 0x80) {
      *length_at = static_cast<char>(size);
      return;
    }
    char length[10];
    const auto n = static_cast<std::size_t>(write_varint(length, size) - length);
    std::memmove(length_at + n, length_at + 1, size);
    std::memcpy(length_at, length, n);
    p_ += n - 1;
  }
};

}  // namespace npkit::proto
