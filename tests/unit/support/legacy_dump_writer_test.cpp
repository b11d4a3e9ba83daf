// The test-only writer must produce NPKit's byte layout; checked here byte by byte by hand.
#include "support/legacy_dump_writer.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace {

using npkit::test::encode_record;
using npkit::test::RecordSpec;

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s.push_back(static_cast<char>(v));
  return s;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("writer encodes a 16-byte record little-endian", "[support][writer]") {
  const RecordSpec r{0x35, 0x04030201, 0x0A0B0C, 0x1122334455667788, 0, 0, 0};
  // id | size 01 02 03 04 | rsvd 0C 0B 0A | ts 88 77 66 55 44 33 22 11
  CHECK(encode_record(r, 16) == bytes({0x35, 0x01, 0x02, 0x03, 0x04, 0x0C, 0x0B, 0x0A, 0x88, 0x77,
                                       0x66, 0x55, 0x44, 0x33, 0x22, 0x11}));
}

TEST_CASE("writer encodes 18- and 22-byte CPU records", "[support][writer]") {
  const RecordSpec r{0x2F, 1024, 3, 7, 2, 5, 0x01020304};
  const std::string base =
      bytes({0x2F, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0x00, 0x07, 0, 0, 0, 0, 0, 0, 0});
  CHECK(encode_record(r, 18) == base + bytes({2, 5}));
  CHECK(encode_record(r, 22) == base + bytes({2, 5, 0x04, 0x03, 0x02, 0x01}));
  CHECK_THROWS(encode_record(r, 17));
}

TEST_CASE("writer parses the text spec", "[support][writer]") {
  const auto spec = npkit::test::parse_legacy_dump_spec(R"(
    # a comment
    cpu_record_size 22
    rank 1 clock cpu_num=1 gpu_khz=
    rank 1 gpu 3: 0x34 ts=5000 | 0x01 size=0x400 rsvd=9 ts=110
    rank 1 gpu 3: 0x02 ts=200
    rank 1 gpu 3 tail: 01 ff
    rank 1 gpu 4:
    rank 0 cpu 2: 0x2F from=1 to=2 step=3
    file README: hello world
  )");
  CHECK(spec.cpu_record_size == 22);
  REQUIRE(spec.clocks.size() == 1);
  CHECK(spec.clocks[0].rank == 1);
  CHECK(spec.clocks[0].cpu_num == "1");
  CHECK_FALSE(spec.clocks[0].cpu_den.has_value());
  CHECK(spec.clocks[0].gpu_khz == "");
  REQUIRE(spec.gpu.size() == 2);
  const auto& t = spec.gpu[0];
  CHECK(t.rank == 1);
  CHECK(t.index == 3);
  REQUIRE(t.records.size() == 3);
  CHECK(t.records[0].id == 0x34);
  CHECK(t.records[0].ts == 5000);
  CHECK(t.records[1].size == 1024);
  CHECK(t.records[1].rsvd == 9);
  CHECK(t.records[2].id == 0x02);
  CHECK(t.tail == bytes({0x01, 0xFF}));
  CHECK(spec.gpu[1].records.empty());
  REQUIRE(spec.cpu.size() == 1);
  CHECK(spec.cpu[0].records[0].sender == 1);
  CHECK(spec.cpu[0].records[0].receiver == 2);
  CHECK(spec.cpu[0].records[0].step == 3);
  REQUIRE(spec.extra_files.size() == 1);
  CHECK(spec.extra_files[0].first == "README");
  CHECK(spec.extra_files[0].second == "hello world");
}

TEST_CASE("writer rejects bad specs with the line number", "[support][writer]") {
  using npkit::test::parse_legacy_dump_spec;
  CHECK_THROWS_WITH(parse_legacy_dump_spec("rank 0 gpu 0: 0x100"), Catch::Contains("line 1"));
  CHECK_THROWS_WITH(parse_legacy_dump_spec("\nrank 0 gpu 0: 0x01 rsvd=0x1000000"),
                    Catch::Contains("line 2"));
  CHECK_THROWS(parse_legacy_dump_spec("rank 0 gpu 0: 0x01 || 0x02"));
  CHECK_THROWS(parse_legacy_dump_spec("rank 0 gpu 0: 0x01 colour=red"));
  CHECK_THROWS(parse_legacy_dump_spec("cpu_record_size 20"));
  CHECK_THROWS(parse_legacy_dump_spec("banana"));
}

TEST_CASE("writer writes the files of a spec", "[support][writer]") {
  npkit::test::TempDir tmp;
  const std::string dir = npkit::test::write_legacy_dump(tmp, R"(
    naming channel
    rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1755000
    rank 0 gpu 2: 0x01 ts=1 | 0x02 ts=2
    rank 0 gpu 2 tail: aa bb cc
    rank 0 cpu 1:
  )");
  namespace fs = std::filesystem;
  CHECK(fs::file_size(dir + "/gpu_events_rank_0_channel_2") == 2 * 16 + 3);
  CHECK(fs::file_size(dir + "/cpu_events_rank_0_channel_1") == 0);
  CHECK(slurp(dir + "/gpu_clock_rate_rank_0") == "1755000");
  CHECK(slurp(dir + "/cpu_clock_period_den_rank_0") == "1000000000");
  CHECK(slurp(dir + "/gpu_events_rank_0_channel_2").substr(32) == bytes({0xAA, 0xBB, 0xCC}));
}

TEST_CASE("TempDir is removed at destruction", "[support]") {
  std::string path;
  {
    npkit::test::TempDir tmp;
    path = tmp.path();
    tmp.write_file("a/b/c.bin", std::string("\0\1", 2));
    CHECK(std::filesystem::file_size(tmp.file("a/b/c.bin")) == 2);
    CHECK(std::filesystem::is_directory(tmp.make_dir("x/y")));
  }
  CHECK_FALSE(std::filesystem::exists(path));
}
