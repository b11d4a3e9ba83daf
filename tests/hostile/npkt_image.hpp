// npkt_image.hpp — a .npkt file's bytes, read and patched by hand for hostile-input cases: the
// section table walked from the layout of include/npkit/format.hpp (64-byte file header with
// header_size at 12 and section_count at 20; 16-byte section headers {u32 kind, u32 entry_size,
// u64 payload_size}; payloads padded to 8 bytes), independently of the analyzer's reader.
// Contract: section_header_offset() is the offset of the first section of `kind`, or
// std::string::npos; patch_le() overwrites `size` bytes at `offset` with `value`, little-endian.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace npkit::test {

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline uint64_t read_le(const std::string& bytes, size_t offset, size_t size) {
  uint64_t value = 0;
  for (size_t i = 0; i < size; ++i) {
    value |= uint64_t{static_cast<uint8_t>(bytes[offset + i])} << (8 * i);
  }
  return value;
}

inline void patch_le(std::string& bytes, size_t offset, uint64_t value, size_t size) {
  for (size_t i = 0; i < size; ++i)
    bytes[offset + i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

inline size_t section_header_offset(const std::string& bytes, uint32_t kind) {
  size_t offset = read_le(bytes, 12, 4);
  const uint64_t count = read_le(bytes, 20, 4);
  for (uint64_t i = 0; i < count && offset + 16 <= bytes.size(); ++i) {
    if (read_le(bytes, offset, 4) == kind) return offset;
    const uint64_t payload = read_le(bytes, offset + 8, 8);
    offset += 16 + ((payload + 7) / 8) * 8;
  }
  return std::string::npos;
}

}  // namespace npkit::test
