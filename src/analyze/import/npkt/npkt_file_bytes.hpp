// import/npkt/npkt_file_bytes.hpp — the bytes of a capture file as parse_npkt reads them: a .npkt
// file's own bytes, or the decompressed bytes of a gzip-compressed capture (.npkt.gz,
// .live.npkt.gz: `gzip -k`, or a tar of live files, keeps a capture readable).
// Contract:
// - read_npkt_bytes reads the file at `path`. When its name ends in ".gz" or its first bytes are
//   gzip's magic (1f 8b), `image` holds the decompressed bytes (decompress_npkt), else the file's
//   own bytes. Errors name the path: what the OS said, or what is wrong with the gzip data
//   (util/gunzip.hpp), "not a gzip file" for a ".gz" name that holds no gzip data.
// - decompress_npkt never throws and never allocates past a bound: output stops at
//   gz::gunzip_bound of the compressed size (deflate expands at most about 1032:1) and, when the
//   decompressed start is an npkt header, at the file_size the header gives (no capture is larger:
//   parse_npkt refuses one that is; a live file ends at or before it). Past either, an Error naming
//   the limit. When the decompressed start is not an npkt header (no magic "NPKTDUMP"), only that
//   start (at most 32 bytes) is decompressed: parse_npkt says what is wrong with it.
// - starts_like_npkt(path) is whether a regular file starts with the npkt magic, read through gzip
//   when it holds gzip data; it reads at most 64 KiB of the file and never fails (false instead).
// Offsets in parse_npkt's messages about a compressed file are offsets in the decompressed bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace npkit {

Status read_npkt_bytes(const std::string& path, std::vector<std::uint8_t>& image);

Status decompress_npkt(const std::string& name, const std::uint8_t* data, std::size_t size,
                       std::vector<std::uint8_t>& image);

bool starts_like_npkt(const std::string& path);

}  // namespace npkit
