// gunzip.hpp — decompresses gzip data (RFC 1952) held in memory, with a bound on its output.
// Contract:
// - gunzip never throws and never crashes on hostile bytes. It decompresses every member of the
//   data in order (members concatenated, as `cat a.gz b.gz` or `gzip -c a b` leave them) into
//   `out`, checking each member's CRC and length. Zero bytes after the last member (a tape's or a
//   block device's padding) are ignored, as gzip does.
// - Output is bounded: `out` never grows past limit.bytes + 1 bytes, and it grows only as the
//   data decompresses (the size the last member's trailer claims is a first size, capped by the
//   limit and by 128 times the data's size: the trailer of cut or hostile data is no size).
// - Errors name the data (`name`) and say what went wrong, with the compressed byte offset:
//     "<name>: not a gzip file (offset 0: expected the gzip magic 1f 8b, ...)"
//     "<name>: gzip data cut at compressed byte N (the member that starts at byte M is not whole)"
//     "<name>: corrupt gzip data at compressed byte N: <zlib's reason>" (bad CRC, length, ...)
//     "<name>: offset N: expected another gzip member or the end of the data, found ..."
//     "<name>: decompresses past <limit.bytes> bytes, <limit.why>"
// - GunzipEnd::kPrefix decompresses only the first limit.bytes bytes (fewer if the data holds
//   fewer) and stops there: data cut after them, or never checked, is no error. For sniffing the
//   start of a file without reading it whole.
// - gunzip_bound(n): no gzip data of n bytes decompresses past it (deflate expands at most about
//   1032:1; the bound is 1100 n + 16 MiB, saturating).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace npkit::gz {

struct GunzipLimit {
  std::uint64_t bytes = 0;  // the most output allowed
  std::string why;          // what the error says after "decompresses past <bytes> bytes, "
};

enum class GunzipEnd : std::uint8_t { kWhole, kPrefix };

// True when `data` starts with gzip's magic bytes 1f 8b.
bool looks_like_gzip(const std::uint8_t* data, std::size_t size);

std::uint64_t gunzip_bound(std::uint64_t compressed_size);

Status gunzip(const std::string& name, const std::uint8_t* data, std::size_t size,
              const GunzipLimit& limit, std::vector<std::uint8_t>& out,
              GunzipEnd end = GunzipEnd::kWhole);

}  // namespace npkit::gz
