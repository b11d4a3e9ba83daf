#include "util/gunzip.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace npkit::gz {
namespace {

// zlib counts in uInt: input and output are handed to it in pieces of at most this.
constexpr std::size_t kPiece = std::size_t{1} << 30;
// The first output buffer when the trailer gives no usable hint, and the least a buffer grows by.
constexpr std::size_t kFirstBuffer = std::size_t{64} << 10;
// The trailer's size is trusted as the first buffer's size up to this many times the compressed
// size (live captures compress 30-100:1): a cut or hostile file's last 4 bytes are no size, and a
// buffer is zero-filled as it grows.
constexpr std::uint64_t kTrustedRatio = 128;
// The smallest gzip member: a 10-byte header, an empty deflate block (2 bytes), an 8-byte trailer.
constexpr std::size_t kSmallestMember = 20;

std::string hex_bytes(const std::uint8_t* data, std::size_t size) {
  std::string out;
  char buf[4];
  for (std::size_t i = 0; i < size; ++i) {
    std::snprintf(buf, sizeof buf, "%s%02x", i == 0 ? "" : " ", data[i]);
    out += buf;
  }
  return out;
}

// Owns an inflate stream set up for the gzip format only.
class Inflater {
 public:
  Inflater() { ready_ = inflateInit2(&stream_, 16 + MAX_WBITS) == Z_OK; }
  ~Inflater() {
    if (ready_) inflateEnd(&stream_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  bool ready() const { return ready_; }
  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
  bool ready_ = false;
};

// The size the last member's trailer gives (ISIZE: its length modulo 2^32), or 0.
std::uint64_t trailer_size(const std::uint8_t* data, std::size_t size) {
  if (size < kSmallestMember) return 0;
  const std::uint8_t* p = data + size - 4;
  return std::uint64_t{p[0]} | std::uint64_t{p[1]} << 8 | std::uint64_t{p[2]} << 16 |
         std::uint64_t{p[3]} << 24;
}

bool all_zero(const std::uint8_t* data, std::size_t size) {
  return std::all_of(data, data + size, [](std::uint8_t b) { return b == 0; });
}

}  // namespace

bool looks_like_gzip(const std::uint8_t* data, std::size_t size) {
  return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

std::uint64_t gunzip_bound(std::uint64_t compressed_size) {
  constexpr std::uint64_t kRatio = 1100;
  constexpr std::uint64_t kSlack = std::uint64_t{16} << 20;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  if (compressed_size > (kMax - kSlack) / kRatio) return kMax;
  return compressed_size * kRatio + kSlack;
}

Status gunzip(const std::string& name, const std::uint8_t* data, std::size_t size,
              const GunzipLimit& limit, std::vector<std::uint8_t>& out, GunzipEnd end) {
  out.clear();
  if (!looks_like_gzip(data, size)) {
    return Error{name + ": not a gzip file (offset 0: expected the gzip magic 1f 8b, " +
                 (size < 2 ? "the data has only " + std::to_string(size) + " byte(s)"
                           : "found " + hex_bytes(data, 2)) +
                 ")"};
  }
  Inflater inflater;
  if (!inflater.ready()) return Error{name + ": cannot decompress: zlib is out of memory"};
  z_stream& s = inflater.stream();
  const bool prefix = end == GunzipEnd::kPrefix;
  // Whole data gets one byte of room past the limit, to tell "exactly the limit" from "more".
  const std::uint64_t room64 =
      prefix ? limit.bytes : std::min(limit.bytes, std::uint64_t{SIZE_MAX - 1}) + 1;
  const std::size_t room = static_cast<std::size_t>(std::min<std::uint64_t>(room64, SIZE_MAX));
  const std::uint64_t hint = std::min(trailer_size(data, size), kTrustedRatio * size);
  // reserve before resize: the buffer holds exactly what is asked, never twice the room.
  const std::size_t first = static_cast<std::size_t>(
      std::min<std::uint64_t>(room, std::max<std::uint64_t>(hint, kFirstBuffer)));
  out.reserve(first);
  out.resize(first);
  std::size_t in = 0;        // compressed bytes consumed
  std::size_t member = 0;    // where the current member starts
  std::size_t produced = 0;  // bytes of `out` written
  for (;;) {
    if (produced == out.size()) {
      if (out.size() >= room) {
        if (prefix) return Ok{};
        return Error{name + ": decompresses past " + std::to_string(limit.bytes) + " bytes, " +
                     limit.why};
      }
      const std::size_t grown = std::min(room, std::max(out.size() + kFirstBuffer, out.size() * 2));
      out.reserve(grown);
      out.resize(grown);
    }
    s.next_in = const_cast<Bytef*>(data + in);
    s.avail_in = static_cast<uInt>(std::min(size - in, kPiece));
    s.next_out = out.data() + produced;
    s.avail_out = static_cast<uInt>(std::min(out.size() - produced, kPiece));
    const int ret = inflate(&s, Z_NO_FLUSH);
    in = static_cast<std::size_t>(s.next_in - data);
    produced = static_cast<std::size_t>(s.next_out - out.data());
    if (ret == Z_OK) continue;                             // progress was made
    if (ret == Z_BUF_ERROR && s.avail_out == 0) continue;  // the buffer grows above
    if (ret == Z_BUF_ERROR) {  // no progress possible: every byte consumed, the member unfinished
      if (prefix) break;
      return Error{name + ": gzip data cut at compressed byte " + std::to_string(in) +
                   " (the member that starts at byte " + std::to_string(member) + " is not whole)"};
    }
    if (ret == Z_MEM_ERROR) return Error{name + ": cannot decompress: zlib is out of memory"};
    if (ret != Z_STREAM_END) {  // Z_DATA_ERROR, Z_NEED_DICT
      return Error{name + ": corrupt gzip data at compressed byte " + std::to_string(in) + ": " +
                   (s.msg != nullptr ? s.msg : "invalid data")};
    }
    // A member ended: the data ends, pads with zeros, or holds another member.
    if (in == size || all_zero(data + in, size - in)) break;
    const bool cut_magic = size - in == 1 && data[in] == 0x1f;  // inflate says it is cut
    if (!looks_like_gzip(data + in, size - in) && !cut_magic) {
      return Error{name + ": expected another gzip member (1f 8b) or the end of the data at " +
                   "compressed byte " + std::to_string(in) + ", found " +
                   hex_bytes(data + in, std::min<std::size_t>(2, size - in))};
    }
    member = in;
    if (inflateReset(&s) != Z_OK) return Error{name + ": cannot decompress: zlib failed to reset"};
  }
  out.resize(produced);
  return Ok{};
}

}  // namespace npkit::gz
