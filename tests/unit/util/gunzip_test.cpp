// gz::gunzip (util/gunzip.hpp) on data compressed here with zlib's own API: round trips, members
// concatenated, data cut at every byte, data that is not gzip or is corrupt, and the output bound
// (a stream of zeros compressed ~1000:1 must stop at the limit, allocating no more).
#include "util/gunzip.hpp"

#include <zlib.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/gzip_bytes.hpp"

namespace {

using npkit::gz::gunzip;
using npkit::gz::GunzipEnd;
using npkit::gz::GunzipLimit;
using npkit::test::gzip_bytes;

const std::uint8_t* u8(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

std::string text(const std::vector<std::uint8_t>& v) {
  return std::string(v.begin(), v.end());
}

GunzipLimit plenty() {
  return {std::uint64_t{1} << 30, "too much"};
}

// Bytes that compress somewhat: runs and a counter, as a capture's records are.
std::string capture_like(std::size_t size) {
  std::string s(size, '\0');
  std::uint32_t x = 12345;
  for (std::size_t i = 0; i < size; ++i) {
    x = x * 1103515245u + 12345u;
    s[i] = static_cast<char>((i % 64 < 40) ? 0 : (x >> 16) & 0xFF);
  }
  return s;
}

// One gzip member with the header fields gzip itself writes (a file name, a time).
std::string gzip_with_name(const std::string& bytes, const char* name) {
  z_stream s{};
  REQUIRE(deflateInit2(&s, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  gz_header header{};
  header.name = reinterpret_cast<Bytef*>(const_cast<char*>(name));
  header.time = 1700000000;
  header.os = 3;
  REQUIRE(deflateSetHeader(&s, &header) == Z_OK);
  std::string out(deflateBound(&s, bytes.size()) + 64 + std::strlen(name), '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  s.avail_in = static_cast<uInt>(bytes.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&s, Z_FINISH) == Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

}  // namespace

TEST_CASE("gunzip: bytes compressed by zlib come back the same, at every level", "[gunzip]") {
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{1}, std::size_t{100000}, std::size_t{3} << 20}) {
    const std::string bytes = capture_like(size);
    for (const int level : {0, 1, 6, 9}) {
      INFO(size << " bytes at level " << level);
      const std::string gz = gzip_bytes(bytes, level);
      std::vector<std::uint8_t> out;
      REQUIRE(gunzip("data.gz", u8(gz), gz.size(), plenty(), out).ok());
      CHECK(text(out) == bytes);
    }
  }
  const std::string named = gzip_with_name("NPKTDUMP and the rest", "rank0.live.npkt");
  std::vector<std::uint8_t> out;
  REQUIRE(gunzip("named.gz", u8(named), named.size(), plenty(), out).ok());
  CHECK(text(out) == "NPKTDUMP and the rest");
}

TEST_CASE("gunzip: concatenated members decompress one after the other", "[gunzip]") {
  const std::string a = capture_like(70000);
  const std::string b = "the second member";
  const std::string gz = gzip_bytes(a, 9) + gzip_bytes("", 1) + gzip_bytes(b, 0);
  std::vector<std::uint8_t> out;
  REQUIRE(gunzip("cat.gz", u8(gz), gz.size(), plenty(), out).ok());
  CHECK(text(out) == a + b);

  // Zero bytes after the last member (a tape's padding) are ignored, as gzip does.
  const std::string padded = gz + std::string(512, '\0');
  REQUIRE(gunzip("padded.gz", u8(padded), padded.size(), plenty(), out).ok());
  CHECK(text(out) == a + b);

  // Anything else after a member is an error naming where.
  const std::string trailing = gzip_bytes(b) + "NPKTDUMP";
  const auto bad = gunzip("trailing.gz", u8(trailing), trailing.size(), plenty(), out);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message ==
        "trailing.gz: expected another gzip member (1f 8b) or the end of "
        "the data at compressed byte " +
            std::to_string(trailing.size() - 8) + ", found 4e 50");
}

TEST_CASE("gunzip: data cut anywhere is an error naming where it ends", "[gunzip]") {
  const std::string first = gzip_bytes(capture_like(5000));
  const std::string whole = first + gzip_bytes("second");
  std::vector<std::uint8_t> out;
  for (std::size_t cut = 2; cut < whole.size(); ++cut) {
    if (cut == first.size()) continue;  // the first member alone is whole data
    INFO("cut at " << cut << " of " << whole.size());
    const auto r = gunzip("cut.gz", u8(whole), cut, plenty(), out);
    REQUIRE_FALSE(r.ok());
    const std::size_t member = cut < first.size() ? 0 : first.size();
    CHECK(r.error().message == "cut.gz: gzip data cut at compressed byte " + std::to_string(cut) +
                                   " (the member that starts at byte " + std::to_string(member) +
                                   " is not whole)");
  }
  REQUIRE(gunzip("first.gz", u8(whole), first.size(), plenty(), out).ok());
  CHECK(text(out) == capture_like(5000));
}

TEST_CASE("gunzip: data that is not gzip, or corrupt, is an error saying so", "[gunzip]") {
  std::vector<std::uint8_t> out;
  const std::string npkt = "NPKTDUMP\x01\x00";
  auto r = gunzip("a.npkt.gz", u8(npkt), npkt.size(), plenty(), out);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message ==
        "a.npkt.gz: not a gzip file (offset 0: expected the gzip magic 1f 8b, found 4e 50)");
  for (const std::string& tiny : {std::string(), std::string("\x1f")}) {
    r = gunzip("tiny.gz", u8(tiny), tiny.size(), plenty(), out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message ==
          "tiny.gz: not a gzip file (offset 0: expected the gzip magic 1f 8b, "
          "the data has only " +
              std::to_string(tiny.size()) + " byte(s))");
  }

  const std::string good = gzip_bytes(capture_like(20000));
  std::string bad_crc = good;
  bad_crc[bad_crc.size() - 6] ^= 0x40;  // inside the CRC-32 of the trailer
  r = gunzip("crc.gz", u8(bad_crc), bad_crc.size(), plenty(), out);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message,
             Catch::StartsWith("crc.gz: corrupt gzip data at compressed byte ") &&
                 Catch::EndsWith(": incorrect data check"));
  std::string bad_length = good;
  bad_length[bad_length.size() - 1] ^= 0x7f;  // the trailer's length claims ~2 GiB
  r = gunzip("length.gz", u8(bad_length), bad_length.size(), {1 << 20, "too much"}, out);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message, Catch::EndsWith(": incorrect length check"));
  CHECK(out.capacity() <= (1 << 20) + 1);  // the length is a hint, capped by the limit
  std::string bad_method = good;
  bad_method[2] = 7;  // compression method: deflate is 8
  r = gunzip("method.gz", u8(bad_method), bad_method.size(), plenty(), out);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message,
             Catch::StartsWith("method.gz: corrupt gzip data at compressed byte ") &&
                 Catch::EndsWith(": unknown compression method"));
  // Flipped bits in the deflate stream: an error or wrong bytes caught by the CRC, never a crash.
  // (Not the last byte of the deflate stream: the padding bits after its end are ignored.)
  for (std::size_t at = 10; at < good.size() - 9; at += 7) {
    std::string flipped = good;
    flipped[at] ^= static_cast<char>(1u << (at % 8));
    CHECK_FALSE(gunzip("flip.gz", u8(flipped), flipped.size(), plenty(), out).ok());
  }
}

TEST_CASE("gunzip: a stream of zeros stops at the limit, allocating no more", "[gunzip]") {
  // 64 MiB of zeros compress about 1000:1: the bomb a hostile .npkt.gz would be.
  const std::string bomb = gzip_bytes(std::string(std::size_t{64} << 20, '\0'), 9);
  CHECK(bomb.size() < (std::size_t{64} << 20) / 1000);
  std::vector<std::uint8_t> out;
  const GunzipLimit limit{std::uint64_t{1} << 20, "more than this test allows"};
  const auto r = gunzip("bomb.gz", u8(bomb), bomb.size(), limit, out);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message ==
        "bomb.gz: decompresses past 1048576 bytes, more than this test allows");
  CHECK(out.capacity() <= limit.bytes + 1);

  // Exactly the limit is no error.
  const std::string exact = gzip_bytes(std::string(1 << 20, '\0'), 9);
  REQUIRE(gunzip("exact.gz", u8(exact), exact.size(), limit, out).ok());
  CHECK(out.size() == limit.bytes);

  // No real deflate stream exceeds the default bound: zeros compress at most ~1032:1.
  CHECK(npkit::gz::gunzip_bound(bomb.size()) > std::uint64_t{64} << 20);
  CHECK(npkit::gz::gunzip_bound(1000) == 1100 * 1000 + (std::uint64_t{16} << 20));
  CHECK(npkit::gz::gunzip_bound(UINT64_MAX / 2) == UINT64_MAX);
}

TEST_CASE("gunzip: a prefix stops after its bytes, even when the data goes on or is cut",
          "[gunzip]") {
  const std::string bytes = capture_like(200000);
  const std::string gz = gzip_bytes(bytes);
  std::vector<std::uint8_t> out;
  REQUIRE(gunzip("p.gz", u8(gz), gz.size(), {32, ""}, out, GunzipEnd::kPrefix).ok());
  CHECK(text(out) == bytes.substr(0, 32));
  REQUIRE(gunzip("p.gz", u8(gz), gz.size() / 2, {32, ""}, out, GunzipEnd::kPrefix).ok());
  CHECK(text(out) == bytes.substr(0, 32));
  const std::string small = gzip_bytes("NPKT");
  REQUIRE(gunzip("s.gz", u8(small), small.size(), {32, ""}, out, GunzipEnd::kPrefix).ok());
  CHECK(text(out) == "NPKT");
  CHECK_FALSE(gunzip("n.gz", u8(bytes), bytes.size(), {32, ""}, out, GunzipEnd::kPrefix).ok());
}
