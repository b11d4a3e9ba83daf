// legacy_record.hpp — decoding one record of a legacy NPKit event file.
// Contract: NPKit's packed record is 16 bytes, little-endian: u8 id, u32 size, u24 rsvd,
// u64 timestamp (docs/formats.md). The 2.20 port's CPU records append u8 sender rank,
// u8 receiver rank (18 bytes) and u32 step (22 bytes). Decoding reads bytes with explicit
// shifts, so it is independent of host endianness and alignment; the caller guarantees that
// `p` points at `record_size` readable bytes.
#pragma once

#include <cstdint>

namespace npkit {

inline constexpr unsigned kLegacyRecordSize = 16;
inline constexpr unsigned kLegacyCpuRecordSize18 = 18;
inline constexpr unsigned kLegacyCpuRecordSize22 = 22;

struct LegacyRecord {
  std::uint8_t id = 0;
  std::uint32_t size = 0;
  std::uint32_t rsvd = 0;  // 24 bits
  std::uint64_t timestamp = 0;
  std::uint8_t sender_rank = 0;    // 18/22-byte CPU records only
  std::uint8_t receiver_rank = 0;  // 18/22-byte CPU records only
  std::uint32_t step = 0;          // 22-byte CPU records only
};

inline std::uint32_t load_le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

inline std::uint64_t load_le64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(load_le32(p)) | static_cast<std::uint64_t>(load_le32(p + 4))
                                                        << 32;
}

inline LegacyRecord decode_legacy_record(const std::uint8_t* p, unsigned record_size) {
  LegacyRecord r;
  r.id = p[0];
  r.size = load_le32(p + 1);
  r.rsvd = static_cast<std::uint32_t>(p[5]) | static_cast<std::uint32_t>(p[6]) << 8 |
           static_cast<std::uint32_t>(p[7]) << 16;
  r.timestamp = load_le64(p + 8);
  if (record_size >= kLegacyCpuRecordSize18) {
    r.sender_rank = p[16];
    r.receiver_rank = p[17];
  }
  if (record_size >= kLegacyCpuRecordSize22) r.step = load_le32(p + 18);
  return r;
}

}  // namespace npkit
