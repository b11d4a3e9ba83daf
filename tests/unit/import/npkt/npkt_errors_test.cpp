// parse_npkt on broken files: every error names the file, the offset (computed by hand from the
// layout in support/npkt_writer.hpp) and what was expected.
//
// The base file (comm(1, 0, 1), nothing else) is 296 bytes:
//   0 file header | 64 Communicator header, 80 its payload (136) | 216 Metadata | 232 Names |
//   248 Strings | 264 Threads | 280 ProfilerRecords (each an empty section of 16 bytes) | 296 end
#include "import/npkt/npkt_dump.hpp"

#include <catch2/catch.hpp>

#include "support/npkt_writer.hpp"

namespace format = npkit::format;
using npkit::test::NpktBuilder;

namespace {

std::string parse_error(const std::string& image) {
  auto dump = npkit::parse_npkt("bad.npkt", reinterpret_cast<const std::uint8_t*>(image.data()),
                                image.size());
  if (dump.ok()) return "(parsed without an error)";
  return dump.error().message;
}

std::string parse_error(const NpktBuilder& b) {
  return parse_error(b.bytes());
}

NpktBuilder base() {
  NpktBuilder b;
  b.comm(1, 0, 1);
  return b;
}

// Little-endian bytes of `v`, `size` wide.
std::string le(std::uint64_t v, std::size_t size) {
  std::string s;
  for (std::size_t i = 0; i < size; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return s;
}

void patch(std::string& image, std::size_t offset, const std::string& bytes) {
  image.replace(offset, bytes.size(), bytes);
}

}  // namespace

TEST_CASE("npkt errors: the base file is valid and 296 bytes", "[npkt]") {
  const std::string image = base().bytes();
  CHECK(image.size() == 296);
  CHECK(parse_error(image) == "(parsed without an error)");
}

TEST_CASE("npkt errors: magic", "[npkt]") {
  CHECK(parse_error(base().magic("NPKTDUMQ")) ==
        "bad.npkt: offset 0: expected the magic \"NPKTDUMP\" of an npkit dump (.npkt)");
  CHECK(parse_error(std::string("gpu_events_rank_0_buf_0 bytes")) ==
        "bad.npkt: offset 0: expected the magic \"NPKTDUMP\" of an npkit dump (.npkt)");
  CHECK(parse_error(base().truncate_at(5)) ==
        "bad.npkt: offset 0: expected the 8-byte magic \"NPKTDUMP\", the file has only 5 bytes");
  CHECK(parse_error(std::string()) ==
        "bad.npkt: offset 0: expected the 8-byte magic \"NPKTDUMP\", the file has only 0 bytes");
}

TEST_CASE("npkt errors: truncated file header", "[npkt]") {
  CHECK(parse_error(base().truncate_at(40)) ==
        "bad.npkt: offset 40: truncated file header: expected 64 bytes, the file has 40");
  CHECK(parse_error(base().truncate_at(63)) ==
        "bad.npkt: offset 63: truncated file header: expected 64 bytes, the file has 63");
}

TEST_CASE("npkt errors: a big-endian writer, a bad endian marker", "[npkt]") {
  CHECK(parse_error(base().big_endian()) ==
        "bad.npkt: offset 16: endian marker reads 0x04030201: the file was written big-endian; "
        "expected a little-endian file (marker 0x01020304)");
  std::string image = base().bytes();
  patch(image, 16, le(0x01020305, 4));
  CHECK(parse_error(image) ==
        "bad.npkt: offset 16: expected the endian marker 0x01020304, found 0x01020305");
}

TEST_CASE("npkt errors: major version", "[npkt]") {
  CHECK(parse_error(base().major(2)) ==
        "bad.npkt: offset 8: was written by a newer npkit (format 2.x); this reader knows 1.x");
  CHECK(parse_error(base().major(2).minor(3)) ==
        "bad.npkt: offset 8: was written by a newer npkit (format 2.x); this reader knows 1.x");
  CHECK(parse_error(base().major(0)) ==
        "bad.npkt: offset 8: format version 0.x: expected major version 1 (this reader knows 1.x)");
  // A newer major is reported even when its header is laid out differently.
  std::string image = base().major(3).bytes();
  patch(image, 12, le(5, 4));
  CHECK(parse_error(image) ==
        "bad.npkt: offset 8: was written by a newer npkit (format 3.x); this reader knows 1.x");
}

TEST_CASE("npkt errors: header_size", "[npkt]") {
  CHECK(parse_error(base().header_size(32)) ==
        "bad.npkt: offset 12: header_size 32: expected at least 64 and a multiple of 8");
  CHECK(parse_error(base().header_size(68)) ==
        "bad.npkt: offset 12: header_size 68: expected at least 64 and a multiple of 8");
  std::string image = base().bytes();
  patch(image, 12, le(400, 4));
  CHECK(parse_error(image) ==
        "bad.npkt: offset 12: header_size 400: expected at most the file size 296");
}

TEST_CASE("npkt errors: file_size against the real size", "[npkt]") {
  CHECK(parse_error(base().truncate_at(200)) ==
        "bad.npkt: offset 200: truncated: header says 296 bytes, file has 200");
  CHECK(parse_error(base().truncate_at(64)) ==
        "bad.npkt: offset 64: truncated: header says 296 bytes, file has 64");
  CHECK(parse_error(base().file_size(296).trailing(std::string(8, '\0'))) ==
        "bad.npkt: offset 296: expected the end of the file (header says 296 bytes), the file has "
        "304");
  CHECK(parse_error(base().file_size(UINT64_MAX)) ==
        "bad.npkt: offset 296: truncated: header says 18446744073709551615 bytes, file has 296");
}

TEST_CASE("npkt errors: section framing", "[npkt]") {
  SECTION("bytes after the last section") {
    CHECK(parse_error(base().trailing(std::string(8, '\0'))) ==
          "bad.npkt: offset 296: expected the end of the file after 6 sections, found 8 more "
          "bytes");
    CHECK(parse_error(base().section_count(5)) ==
          "bad.npkt: offset 280: expected the end of the file after 5 sections, found 16 more "
          "bytes");
  }
  SECTION("more sections announced than present") {
    CHECK(parse_error(base().section_count(7)) ==
          "bad.npkt: offset 296: expected section header 7 of 7 (16 bytes), only 0 bytes left in "
          "the file");
    CHECK(parse_error(base().section_count(0xFFFFFFFF).trailing(std::string(8, '\0'))) ==
          "bad.npkt: offset 296: expected section header 7 of 4294967295 (16 bytes), only 8 bytes "
          "left in the file");
  }
  SECTION("payload_size past the end, including 64-bit overflow") {
    // Metadata header at 216; 296 - 232 = 64 bytes follow it.
    CHECK(parse_error(base().payload_size(NpktBuilder::kMetadata, 65)) ==
          "bad.npkt: offset 224: Metadata section: payload_size 65 runs past the end of the file "
          "(64 bytes left after the section header)");
    CHECK(parse_error(base().payload_size(NpktBuilder::kMetadata, 0xFFFFFFFFFFFFFFF8ULL)) ==
          "bad.npkt: offset 224: Metadata section: payload_size 18446744073709551608 runs past "
          "the end of the file (64 bytes left after the section header)");
    CHECK(parse_error(base().payload_size(NpktBuilder::kProfilerRecords, UINT64_MAX)) ==
          "bad.npkt: offset 288: ProfilerRecords section: payload_size 18446744073709551615 runs "
          "past the end of the file (0 bytes left after the section header)");
  }
  SECTION("padding") {
    // Only Communicator and a kind-99 section of 3 bytes: header 216, payload 232..235, padding
    // 235..240.
    NpktBuilder b = base();
    for (auto k : {NpktBuilder::kMetadata, NpktBuilder::kNames, NpktBuilder::kStrings,
                   NpktBuilder::kThreads, NpktBuilder::kProfilerRecords}) {
      b.omit(k);
    }
    b.extra_section(99, 0, "abc");
    CHECK(b.bytes().size() == 240);
    CHECK(parse_error(NpktBuilder(b).truncate_at(235).file_size(235)) ==
          "bad.npkt: offset 235: section of kind 99: expected 5 bytes of zero padding to an "
          "8-byte boundary, only 0 bytes left in the file");
    CHECK(parse_error(NpktBuilder(b).padding_byte(0xEE)) ==
          "bad.npkt: offset 235: section of kind 99: expected zero padding, found 0xee");
  }
}

TEST_CASE("npkt errors: duplicate and missing sections", "[npkt]") {
  // Strings twice: 248 and 264.
  CHECK(parse_error(base().duplicate(NpktBuilder::kStrings)) ==
        "bad.npkt: offset 264: a second Strings section; expected at most one");
  // Communicator twice: 64 and 216.
  CHECK(parse_error(base().duplicate(NpktBuilder::kCommunicator)) ==
        "bad.npkt: offset 216: a second Communicator section; expected at most one");
  // Metadata twice, the second one empty (216 and 232), and ProfilerRecords twice.
  CHECK(parse_error(base().duplicate(NpktBuilder::kMetadata)) ==
        "bad.npkt: offset 232: a second Metadata section; expected at most one");
  CHECK(parse_error(base().duplicate(NpktBuilder::kProfilerRecords)) ==
        "bad.npkt: offset 296: a second ProfilerRecords section; expected at most one");
  // No Communicator: 64 + 5 empty sections = 144 bytes.
  CHECK(parse_error(base().omit(NpktBuilder::kCommunicator)) ==
        "bad.npkt: offset 144: expected a Communicator section (kind 1); none among the 5 "
        "sections");
}

TEST_CASE("npkt errors: entry sizes of fixed-entry sections", "[npkt]") {
  CHECK(parse_error(base().entry_size(NpktBuilder::kCommunicator, 128)) ==
        "bad.npkt: offset 68: Communicator section: entry_size 128: expected at least 136 bytes "
        "per entry");
  // Records header at 280: its entry_size field is at 284.
  CHECK(
      parse_error(
          base().start(1, 0, format::kTypeColl, 5).entry_size(NpktBuilder::kProfilerRecords, 48)) ==
      "bad.npkt: offset 284: ProfilerRecords section: entry_size 48: expected at least 64 bytes "
      "per entry");
  CHECK(parse_error(base().entry_size(NpktBuilder::kProfilerRecords, 0)) ==
        "bad.npkt: offset 284: ProfilerRecords section: entry_size 0: expected at least 64 bytes "
        "per entry");
  // Threads header at 264.
  CHECK(parse_error(base().thread(0, 1, "t").entry_size(NpktBuilder::kThreads, 16)) ==
        "bad.npkt: offset 268: Threads section: entry_size 16: expected at least 24 bytes per "
        "entry");
  // ClockSamples (sample present) sit between Metadata (216) and Names: header at 232.
  CHECK(parse_error(base().clock_sample(1, 2, 3, 0).entry_size(NpktBuilder::kClockSamples, 31)) ==
        "bad.npkt: offset 236: ClockSamples section: entry_size 31: expected at least 32 bytes "
        "per entry");
}

TEST_CASE("npkt errors: payload sizes of fixed-entry sections", "[npkt]") {
  NpktBuilder b = base();
  b.omit(NpktBuilder::kThreads);
  // A Threads section of 12 bytes written after the Communicator: header at 216.
  CHECK(parse_error(NpktBuilder(b).extra_section(6, 24, std::string(12, '\0'))) ==
        "bad.npkt: offset 224: Threads section: payload_size 12: expected a multiple of "
        "entry_size 24");
  // 40 bytes of 32-byte entries, and a newer entry size 40 with 80 bytes (accepted).
  CHECK(parse_error(NpktBuilder(b).extra_section(3, 32, std::string(40, '\0'))) ==
        "bad.npkt: offset 224: ClockSamples section: payload_size 40: expected a multiple of "
        "entry_size 32");
  CHECK(parse_error(NpktBuilder(b).extra_section(3, 40, std::string(80, '\0'))) ==
        "(parsed without an error)");
  // The Communicator section holds exactly one entry: two, or none.
  NpktBuilder two = base();
  two.omit(NpktBuilder::kCommunicator).extra_section(1, 136, std::string(272, '\0'));
  CHECK(parse_error(two) ==
        "bad.npkt: offset 72: Communicator section: payload_size 272: expected exactly one entry "
        "of 136 bytes");
  NpktBuilder none = base();
  none.omit(NpktBuilder::kCommunicator).extra_section(1, 136, "");
  CHECK(parse_error(none) ==
        "bad.npkt: offset 72: Communicator section: payload_size 0: expected exactly one entry of "
        "136 bytes");
}

TEST_CASE("npkt errors: variable-size sections", "[npkt]") {
  CHECK(parse_error(base().entry_size(NpktBuilder::kMetadata, 8)) ==
        "bad.npkt: offset 220: Metadata section: entry_size 8: expected 0 (a section of "
        "variable-size entries)");
  NpktBuilder b = base();
  b.omit(NpktBuilder::kMetadata).omit(NpktBuilder::kNames);
  // Written after the Communicator: header at 216, payload at 232.
  SECTION("entry header cut short") {
    CHECK(parse_error(NpktBuilder(b).extra_section(2, 0, "abcd")) ==
          "bad.npkt: offset 232: Metadata section: expected an entry header of 8 bytes, only 4 "
          "bytes left in the section");
    // A good entry (8 + 1 + 1 bytes at 232), then 3 bytes at 242.
    CHECK(parse_error(NpktBuilder(b).extra_section(2, 0, le(1, 4) + le(1, 4) + "kv" + "xyz")) ==
          "bad.npkt: offset 242: Metadata section: expected an entry header of 8 bytes, only 3 "
          "bytes left in the section");
    CHECK(parse_error(NpktBuilder(b).extra_section(4, 0, std::string(15, '\0'))) ==
          "bad.npkt: offset 232: Names section: expected an entry header of 16 bytes, only 15 "
          "bytes left in the section");
  }
  SECTION("entry text past the end of the section") {
    CHECK(parse_error(NpktBuilder(b).extra_section(2, 0, le(3, 4) + le(10, 4) + "abcde")) ==
          "bad.npkt: offset 232: Metadata section: entry text of 13 bytes runs past the end of "
          "the section (5 bytes left after the entry header)");
    CHECK(parse_error(NpktBuilder(b).extra_section(2, 0, le(0xFFFFFFFF, 4) + le(0xFFFFFFFF, 4))) ==
          "bad.npkt: offset 232: Metadata section: entry text of 8589934590 bytes runs past the "
          "end of the section (0 bytes left after the entry header)");
    CHECK(parse_error(NpktBuilder(b).extra_section(
              4, 0, le(1, 4) + le(1, 4) + le(0xFFFFFFFF, 4) + le(0, 4) + "Coll")) ==
          "bad.npkt: offset 232: Names section: entry text of 4294967295 bytes runs past the end "
          "of the section (4 bytes left after the entry header)");
    CHECK(parse_error(
              base()
                  .omit(NpktBuilder::kStrings)
                  .extra_section(
                      5, 0, le(1, 4) + le(9, 4) + "AllReduce" + le(2, 4) + le(9, 4) + "Ring")) ==
          "bad.npkt: offset 249: Strings section: entry text of 9 bytes runs past the end of the "
          "section (4 bytes left after the entry header)");
  }
}

TEST_CASE("npkt errors: string ids", "[npkt]") {
  // Strings header at 248, payload at 264.
  CHECK(parse_error(base().string(0, "none")) ==
        "bad.npkt: offset 264: Strings section: string id 0 is reserved for \"none\"; expected "
        "ids from 1");
  CHECK(parse_error(base().string(70000, "x")) ==
        "bad.npkt: offset 264: Strings section: string id 70000: expected at most 65535 (payload "
        "fields are 16-bit)");
  // The second entry starts after 8 + 1 bytes.
  CHECK(parse_error(base().string(1, "a").string(1, "b")) ==
        "bad.npkt: offset 273: Strings section: string id 1 listed twice; expected unique ids");
  CHECK(parse_error(base().string(5, "a").string(2, "b").string(5, "")) ==
        "bad.npkt: offset 282: Strings section: string id 5 listed twice; expected unique ids");
  CHECK(parse_error(base().string(65535, "max")) == "(parsed without an error)");
}
