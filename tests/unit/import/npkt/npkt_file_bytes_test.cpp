// decompress_npkt, starts_like_npkt and detection (import/npkt/npkt_file_bytes.hpp,
// is_npkt_path, detect_input) on gzip-compressed captures: the bounds on what a hostile
// .npkt.gz makes the reader decompress, and which paths read as .npkt input.
#include "import/npkt/npkt_file_bytes.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/npkt_input.hpp"
#include "import/run_input.hpp"
#include "support/gzip_bytes.hpp"
#include "support/npkt_writer.hpp"
#include "support/temp_dir.hpp"

namespace {

using npkit::decompress_npkt;
using npkit::starts_like_npkt;
using npkit::test::gzip_bytes;
using npkit::test::NpktBuilder;
using npkit::test::TempDir;

const std::uint8_t* u8(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// The minimal valid capture of the test writer (296 bytes, file_size 296 in its header).
std::string capture() {
  NpktBuilder b;
  return b.comm(0x5eed, 0, 1).bytes();
}

}  // namespace

TEST_CASE("npkt file bytes: a compressed capture decompresses to the capture", "[npkt]") {
  const std::string image = capture();
  const std::string gz = gzip_bytes(image) + gzip_bytes("");  // members concatenated
  std::vector<std::uint8_t> out;
  REQUIRE(decompress_npkt("c.npkt.gz", u8(gz), gz.size(), out).ok());
  CHECK(std::string(out.begin(), out.end()) == image);
}

TEST_CASE("npkt file bytes: output past the header's file_size stops there", "[npkt]") {
  // A header that says 296 bytes followed by 16 MiB of zeros: a bomb of ~16 KiB compressed.
  const std::string bomb = gzip_bytes(capture() + std::string(std::size_t{16} << 20, '\0'), 9);
  std::vector<std::uint8_t> out;
  const auto r = decompress_npkt("bomb.npkt.gz", u8(bomb), bomb.size(), out);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message ==
        "bomb.npkt.gz: decompresses past 296 bytes, the file_size its npkt header gives (offset "
        "24); no capture is larger");
  CHECK(out.capacity() <= 297);

  // A header claiming more than deflate can give: the general bound applies.
  std::string huge = capture();
  const std::uint64_t claim = UINT64_MAX;
  std::memcpy(huge.data() + 24, &claim, sizeof claim);
  const std::string ok = gzip_bytes(huge);
  REQUIRE(decompress_npkt("huge.npkt.gz", u8(ok), ok.size(), out).ok());
  CHECK(out.size() == huge.size());
}

TEST_CASE("npkt file bytes: compressed data that is no capture decompresses only its start",
          "[npkt]") {
  const std::string zeros = gzip_bytes(std::string(std::size_t{64} << 20, '\0'), 9);
  std::vector<std::uint8_t> out;
  REQUIRE(decompress_npkt("zeros.gz", u8(zeros), zeros.size(), out).ok());
  CHECK(out.size() == 32);
  CHECK(out.capacity() <= 32);

  // read_npkt_file then says what parse_npkt says of those bytes.
  TempDir tmp;
  const std::string path = tmp.write_file("zeros.npkt.gz", zeros);
  auto d = npkit::read_npkt_file(path);
  REQUIRE_FALSE(d.ok());
  CHECK(d.error().message ==
        path + ": offset 0: expected the magic \"NPKTDUMP\" of an npkit dump (.npkt)");

  // Fewer than 8 bytes: the whole data is decompressed (and checked), then parsed.
  const std::string tiny = gzip_bytes("NPK");
  REQUIRE(decompress_npkt("tiny.gz", u8(tiny), tiny.size(), out).ok());
  CHECK(out.size() == 3);
  const std::string cut = gzip_bytes("NPK").substr(0, 12);
  const auto r = decompress_npkt("cut.gz", u8(cut), cut.size(), out);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message ==
        "cut.gz: gzip data cut at compressed byte 12 (the member that starts at byte 0 is not "
        "whole)");
}

TEST_CASE("npkt file bytes: which files start like a capture, through gzip", "[npkt]") {
  TempDir tmp;
  const std::string image = capture();
  CHECK(starts_like_npkt(tmp.write_file("plain.bin", image)));
  CHECK(starts_like_npkt(tmp.write_file("packed.bin", gzip_bytes(image))));
  CHECK(starts_like_npkt(tmp.write_file("cut.bin", gzip_bytes(image).substr(0, 30))));
  CHECK_FALSE(starts_like_npkt(tmp.write_file("text.bin", "hello")));
  CHECK_FALSE(starts_like_npkt(tmp.write_file("other.gz", gzip_bytes("hello, not a capture"))));
  CHECK_FALSE(starts_like_npkt(tmp.write_file("bad.gz", "\x1f\x8b garbage")));
  CHECK_FALSE(starts_like_npkt(tmp.write_file("empty.bin", "")));
  CHECK_FALSE(starts_like_npkt(tmp.file("missing")));
  const std::string fifo = tmp.file("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(starts_like_npkt(fifo));  // must not block waiting for a writer
}

TEST_CASE("npkt file bytes: compressed captures are detected as .npkt input", "[npkt]") {
  using npkit::DetectedKind;
  TempDir tmp;
  const std::string image = capture();
  const std::string gz = gzip_bytes(image);
  for (const char* name : {"a.npkt.gz", "a.live.npkt.gz", "renamed.bin"}) {
    INFO(name);
    const std::string path = tmp.write_file(std::string("files/") + name, gz);
    CHECK(npkit::is_npkt_path(path));
    auto d = npkit::detect_input(path);
    REQUIRE(d.ok());
    CHECK(d->kind == DetectedKind::kNpkt);
  }
  tmp.write_file("dir/npkit_0000000000005eed_rank0.live.npkt.gz", gz);
  tmp.write_file("dir/notes.txt", "a note");
  CHECK(npkit::is_npkt_path(tmp.file("dir")));
  auto d = npkit::detect_input(tmp.file("dir"));
  REQUIRE(d.ok());
  CHECK(d->kind == DetectedKind::kNpkt);
  CHECK(d->ignored.empty());
  CHECK_FALSE(npkit::is_npkt_path(tmp.write_file("other/x.json.gz", gzip_bytes("{}"))));
}
