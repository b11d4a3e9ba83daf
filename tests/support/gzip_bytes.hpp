// gzip_bytes.hpp — gzip-compresses bytes with zlib's own API, as `gzip` would, for tests of the
// readers of compressed captures.
// Contract: gzip_bytes returns one whole gzip member (RFC 1952) holding `bytes`, compressed at
// `level` (0: stored, 9: smallest) with no file name and a zero time, so the same bytes always
// compress the same; it throws std::runtime_error if zlib fails. gzip_file writes gzip_bytes of
// the file `from` to `to` (binary) and returns `to`. gunzip_bytes returns what the gzip members of
// `bytes` hold, one after another, as `gzip -d` would; it throws std::runtime_error on data that
// is not gzip or is cut short.
#pragma once

#include <string>
#include <string_view>

namespace npkit::test {

std::string gzip_bytes(std::string_view bytes, int level = 6);

std::string gzip_file(const std::string& from, const std::string& to, int level = 6);

std::string gunzip_bytes(std::string_view bytes);

}  // namespace npkit::test
