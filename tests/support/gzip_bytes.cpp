#include "support/gzip_bytes.hpp"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace npkit::test {

std::string gzip_bytes(std::string_view bytes, int level) {
  z_stream s{};
  if (deflateInit2(&s, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("gzip_bytes: deflateInit2 failed");
  }
  std::string out(deflateBound(&s, static_cast<uLong>(bytes.size())), '\0');
  std::size_t in = 0;
  std::size_t produced = 0;
  int ret = Z_OK;
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  while (ret != Z_STREAM_END) {
    if (produced == out.size()) out.resize(out.size() * 2);
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + in));
    s.avail_in = static_cast<uInt>(std::min(bytes.size() - in, kPiece));
    s.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    s.avail_out = static_cast<uInt>(std::min(out.size() - produced, kPiece));
    ret = deflate(&s, in + s.avail_in == bytes.size() ? Z_FINISH : Z_NO_FLUSH);
    in = static_cast<std::size_t>(reinterpret_cast<const char*>(s.next_in) - bytes.data());
    produced = static_cast<std::size_t>(reinterpret_cast<char*>(s.next_out) - out.data());
    if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
      deflateEnd(&s);
      throw std::runtime_error("gzip_bytes: deflate failed");
    }
  }
  deflateEnd(&s);
  out.resize(produced);
  return out;
}

std::string gzip_file(const std::string& from, const std::string& to, int level) {
  std::ifstream in(from, std::ios::binary);
  if (!in) throw std::runtime_error("gzip_file: cannot open " + from);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream out(to, std::ios::binary);
  out << gzip_bytes(bytes, level);
  if (!out) throw std::runtime_error("gzip_file: cannot write " + to);
  return to;
}

std::string gunzip_bytes(std::string_view bytes) {
  std::string out;
  std::size_t in = 0;
  while (in < bytes.size()) {  // one member per pass
    z_stream s{};
    if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK) {
      throw std::runtime_error("gunzip_bytes: inflateInit2 failed");
    }
    int ret = Z_OK;
    char piece[1 << 16];
    while (ret != Z_STREAM_END) {
      s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + in));
      s.avail_in = static_cast<uInt>(std::min<std::size_t>(bytes.size() - in, 1u << 30));
      s.next_out = reinterpret_cast<Bytef*>(piece);
      s.avail_out = sizeof(piece);
      ret = inflate(&s, Z_NO_FLUSH);
      if (ret != Z_OK && ret != Z_STREAM_END) {
        inflateEnd(&s);
        throw std::runtime_error("gunzip_bytes: not gzip data, or cut short");
      }
      out.append(piece, sizeof(piece) - s.avail_out);
      in = static_cast<std::size_t>(reinterpret_cast<const char*>(s.next_in) - bytes.data());
    }
    inflateEnd(&s);
  }
  return out;
}

}  // namespace npkit::test
