#include "import/npkt/npkt_file_bytes.hpp"

#include <cstddef>
#include <cstring>

#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/npkt_sections.hpp"
#include "npkit/format.hpp"
#include "util/file_io.hpp"
#include "util/gunzip.hpp"

namespace npkit {
namespace {

// The header's bytes up to and including file_size.
constexpr std::size_t kHeaderStart = offsetof(format::FileHeader, file_size) + 8;
// Enough compressed bytes for the decompressed magic (a gzip header with a long file name too).
constexpr std::size_t kSniffBytes = std::size_t{64} << 10;
// The most compressed bytes of a .npkt.gz read (docs/formats.md, "Limits").
constexpr io::SizeLimit kCompressedLimit{std::uint64_t{4} << 30, "a compressed capture (.npkt.gz)"};

std::uint64_t header_file_size(const std::vector<std::uint8_t>& start) {
  std::uint64_t value = 0;
  std::memcpy(&value, start.data() + offsetof(format::FileHeader, file_size), sizeof value);
  return value;
}

}  // namespace

Status decompress_npkt(const std::string& name, const std::uint8_t* data, std::size_t size,
                       std::vector<std::uint8_t>& image) {
  NPKIT_TRY(gz::gunzip(name, data, size, {kHeaderStart, ""}, image, gz::GunzipEnd::kPrefix));
  const bool magic = looks_like_npkt(image.data(), image.size());
  if (!magic && image.size() >= sizeof(format::kMagic)) return Ok{};  // parse_npkt says why
  gz::GunzipLimit limit{gz::gunzip_bound(size),
                        "more than a capture of its size (" + std::to_string(size) +
                            " compressed bytes) can hold: deflate expands at most about 1032:1"};
  if (magic && image.size() == kHeaderStart && header_file_size(image) < limit.bytes) {
    limit = {header_file_size(image),
             "the file_size its npkt header gives (offset 24); no capture is larger"};
  }
  return gz::gunzip(name, data, size, limit, image);
}

Status read_npkt_bytes(const std::string& path, std::vector<std::uint8_t>& image) {
  std::vector<std::uint8_t> bytes;
  NPKIT_TRY(io::read_prefix_into(path, kHeaderStart, bytes));
  if (!io::has_extension(path, ".gz") && !gz::looks_like_gzip(bytes.data(), bytes.size())) {
    if (!looks_like_npkt(bytes.data(), bytes.size()) || bytes.size() < kHeaderStart) {
      image = std::move(bytes);  // parse_npkt says what is wrong with the start
      return Ok{};
    }
    // The header's file_size bounds the read: a larger file (sparse, or growing) is refused
    // before it is read, as parse_npkt would refuse it after.
    const std::uint64_t stated = header_file_size(bytes);
    NPKIT_ASSIGN(const std::uint64_t size, io::file_size(path));
    if (size > stated) {
      return npkt::error_at(path, stated,
                            "expected the end of the file (header says " + std::to_string(stated) +
                                " bytes), the file has " + std::to_string(size));
    }
    return io::read_file_into(path, image, {stated, "a capture whose header gives this file_size"});
  }
  NPKIT_TRY(io::read_file_into(path, bytes, kCompressedLimit));
  return decompress_npkt(path, bytes.data(), bytes.size(), image);
}

bool starts_like_npkt(const std::string& path) {
  if (io::is_special_file(path)) return false;  // opening a FIFO would wait for a writer
  std::vector<std::uint8_t> prefix;
  if (!io::read_prefix_into(path, kSniffBytes, prefix)) return false;
  if (looks_like_npkt(prefix.data(), prefix.size())) return true;
  if (!gz::looks_like_gzip(prefix.data(), prefix.size())) return false;
  std::vector<std::uint8_t> start;
  const gz::GunzipLimit magic{sizeof(format::kMagic), ""};
  if (!gz::gunzip(path, prefix.data(), prefix.size(), magic, start, gz::GunzipEnd::kPrefix)) {
    return false;
  }
  return looks_like_npkt(start.data(), start.size());
}

}  // namespace npkit
