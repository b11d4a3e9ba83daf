// The test-only .npkt writer (support/npkt_writer.hpp) and its text spec (support/npkt_spec.hpp):
// bytes checked against a hand-written hex image, spec statements against builder calls.
#include "support/npkt_writer.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "npkit/format.hpp"
#include "support/npkt_spec.hpp"
#include "support/temp_dir.hpp"

namespace format = npkit::format;
using npkit::test::NpktBuilder;
using npkit::test::parse_npkt_spec;
using npkit::test::TempDir;

namespace {

// "4e 50 ..." -> bytes; spaces and newlines are ignored.
std::string from_hex(const std::string& hex) {
  std::string out;
  std::string digits;
  for (char c : hex) {
    if (c == ' ' || c == '\n') continue;
    digits.push_back(c);
    if (digits.size() == 2) {
      out.push_back(static_cast<char>(std::stoi(digits, nullptr, 16)));
      digits.clear();
    }
  }
  return out;
}

NpktBuilder only(std::uint32_t keep) {
  NpktBuilder b;
  for (std::uint32_t k = 1; k <= 7; ++k) {
    if (k != keep) b.omit(k);
  }
  return b;
}

}  // namespace

TEST_CASE("npkt writer: header and Communicator bytes, by hand", "[npkt]") {
  NpktBuilder b = only(NpktBuilder::kCommunicator);
  b.comm(0x1122334455667788ULL, 3, 8);
  b.comm_info().capture_start_ns = -2;
  // 64 + 16 + 136 = 216 = 0xd8 bytes, one section, no feature bit (no records section).
  const std::string expected = from_hex(
      "4e 50 4b 54 44 55 4d 50  01 00 00 00 40 00 00 00"  //  0 magic, 1.0, header_size 64
      "04 03 02 01 01 00 00 00  d8 00 00 00 00 00 00 00"  // 16 marker, 1 section, file_size
      "00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00"  // 32 feature bits, reserved
      "00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00"  // 48 reserved
      "01 00 00 00 88 00 00 00  88 00 00 00 00 00 00 00"  // 64 kind 1, entry 136, payload 136
      "88 77 66 55 44 33 22 11  03 00 00 00 08 00 00 00"  // 80 hash, rank 3, nranks 8
      "01 00 00 00 92 10 00 00  fe ff ff ff ff ff ff ff"  // 96 nnodes 1, pid 4242, start -2
      "00 00 00 00 00 00 00 00  01 00 00 00 00 00 00 00"  // 112 end 0, finalize, clock none
      "05 00 00 00 01 00 00 00");                         // 128 api 5, realtime
  const std::string image = b.bytes();
  REQUIRE(image.size() == 216);
  CHECK(image.substr(0, expected.size()) == expected);
  CHECK(image.substr(expected.size()) == std::string(216 - expected.size(), '\0'));
}

TEST_CASE("npkt writer: record, text entry and padding bytes, by hand", "[npkt]") {
  NpktBuilder records = only(NpktBuilder::kProfilerRecords);
  records.on_thread(0x2122).stop(0x0102030405060708ULL, format::kTypeKernelCh,
                                 0x1112131415161718ULL);
  const std::string image = records.bytes();
  REQUIRE(image.size() == 64 + 16 + 64);
  CHECK(image.substr(32, 8) == from_hex("01 00 00 00 00 00 00 00"));  // feature: records
  CHECK(image.substr(64) == from_hex("07 00 00 00 40 00 00 00  40 00 00 00 00 00 00 00"
                                     "18 17 16 15 14 13 12 11  08 07 06 05 04 03 02 01"
                                     "00 00 00 00 00 00 00 00  02 06 22 21 00 00 00 00") +
                                std::string(32, '\0'));

  NpktBuilder strings = only(NpktBuilder::kStrings);
  strings.string(0x102, "Ring");
  const std::string s = strings.bytes();
  // 12 bytes of payload, 4 of padding.
  CHECK(s.substr(64) == from_hex("05 00 00 00 00 00 00 00  0c 00 00 00 00 00 00 00"
                                 "02 01 00 00 04 00 00 00  52 69 6e 67 00 00 00 00"));

  NpktBuilder names = only(NpktBuilder::kNames);
  names.state_name(22, "K").padding_byte(0xEE);
  CHECK(names.bytes().substr(64) == from_hex("04 00 00 00 00 00 00 00  11 00 00 00 00 00 00 00"
                                             "02 00 00 00 16 00 00 00  01 00 00 00 00 00 00 00"
                                             "4b ee ee ee ee ee ee ee"));
}

TEST_CASE("npkt writer: corruption options", "[npkt]") {
  NpktBuilder b = only(NpktBuilder::kThreads);
  b.thread(1, 2, "a").entry_size(NpktBuilder::kThreads, 26).payload_size(NpktBuilder::kThreads, 3);
  b.big_endian().section_count(9).file_size(5).header_size(72).minor(7).major(2);
  const std::string image = b.bytes();
  CHECK(image.substr(8, 28) == from_hex("00 02 00 07 00 00 00 48  01 02 03 04 00 00 00 09"
                                        "00 00 00 00 00 00 00 05  00 00 00 00"));
  CHECK(image.size() == 72 + 16 + 26 + 6);
  CHECK(image.substr(72, 16) == from_hex("00 00 00 06 00 00 00 1a  00 00 00 00 00 00 00 03"));
  CHECK(image.substr(88, 26) ==
        from_hex("00 00 00 01 00 00 00 02 61") + std::string(15, '\0') + "\xA5\xA5");
  CHECK(NpktBuilder(b).truncate_at(10).bytes() == image.substr(0, 10));
  CHECK(NpktBuilder(b).trailing("xyz").bytes() == image + "xyz");
}

TEST_CASE("npkt writer: file names", "[npkt]") {
  NpktBuilder b;
  CHECK(b.comm(0xabc, 7, 8).file_name() == "npkit_0000000000000abc_rank7.npkt");
  CHECK(b.comm(0xFFFFFFFFFFFFFFFFULL, -1, 0).file_name() == "npkit_ffffffffffffffff_rank-1.npkt");
}

TEST_CASE("npkt spec: statements are builder calls", "[npkt]") {
  const auto files = parse_npkt_spec(R"(
    # rank 1 first, every statement once
    comm hash=0xabc rank=1 nranks=2 nnodes=3 pid=-5 start_ns=1000 end_ns=9000 end_reason=2 clock_method=1 profiler_api=4 host_clock=1 event_mask=0xfff capacity=10 attempted=11 dropped=1 incomplete=2 after_dump=3
    meta hostname node a   # the value is the rest of the line
    meta empty
    clock init before=1 after=3 gpu=100
    clock end before=10 after=30 gpu=1000
    names standard
    name type 20 Future type
    string 1 AllReduce
    thread 0 4001 main
    start 1 Coll host=2000 thread=1 seq=4 count=1048576 root=-1 func=AllReduce datatype=ncclFloat32 algo=Ring proto=Simple channels=2 warps=16 flags=null,foreign
    state 2 ProxyStep host=2500 state=ProxyStepSendWait value=4096
    state 3 GroupApi host=2600 state=24 no_args
    stop 1 Coll host=3000
    comm hash=0xabc rank=0 nranks=2 file=r0.npkt
    minor 7
    start 1 P2p host=5 peer=1 func=Send channels=1
  )");
  REQUIRE(files.size() == 2);

  NpktBuilder r1;
  r1.comm(0xabc, 1, 2);
  auto& c = r1.comm_info();
  c.nnodes = 3;
  c.pid = -5;
  c.capture_start_ns = 1000;
  c.capture_end_ns = 9000;
  c.end_reason = 2;
  c.clock_method = 1;
  c.profiler_api = 4;
  c.host_clock = 1;
  c.event_mask = 0xfff;
  c.records_capacity = 10;
  c.records_attempted = 11;
  c.records_dropped = 1;
  c.records_incomplete = 2;
  c.events_after_dump = 3;
  r1.meta("hostname", "node a").meta("empty", "");
  r1.clock_sample(1, 3, 100, 0).clock_sample(10, 30, 1000, 1);
  r1.standard_names().name(1, 20, "Future type");
  r1.string(1, "AllReduce").thread(0, 4001, "main");
  // Texts of string fields not given by a `string` line get the next ids, in field order.
  r1.string(2, "ncclFloat32").string(3, "Ring").string(4, "Simple");
  r1.on_thread(1).start(1, 0, format::kTypeColl, 2000,
                        npkit::test::CollStart{4, 1048576, -1, 1, 2, 3, 4, 2, 16},
                        format::kStartParentNull | format::kStartParentForeign);
  r1.on_thread(0).state(2, format::kTypeProxyStep, 2500, 9, 4096, true);
  r1.state(3, format::kTypeGroupApi, 2600, 24, 0, false);
  r1.stop(1, format::kTypeColl, 3000);
  CHECK(files[0].name == "npkit_0000000000000abc_rank1.npkt");
  CHECK(files[0].builder.bytes() == r1.bytes());

  NpktBuilder r0;
  r0.comm(0xabc, 0, 2).minor(7).string(1, "Send");
  r0.start(1, 0, format::kTypeP2p, 5, npkit::test::P2pStart{.peer = 1, .func = 1, .n_channels = 1});
  CHECK(files[1].name == "r0.npkt");
  CHECK(files[1].builder.bytes() == r0.bytes());

  TempDir tmp;
  const std::string dir = npkit::test::write_npkt_spec(tmp, "comm hash=1 rank=2 nranks=3\n");
  NpktBuilder plain;
  CHECK(dir == tmp.file("dump"));
  std::ifstream in(dir + "/npkit_0000000000000001_rank2.npkt", std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(written == plain.comm(1, 2, 3).bytes());
}

TEST_CASE("npkt spec: bad statements name their line", "[npkt]") {
  auto error = [](const std::string& text) -> std::string {
    try {
      parse_npkt_spec(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK(error("meta a b") == "npkt spec line 1: expected a 'comm' line first");
  CHECK(error("comm rank=0 nranks=1") == "npkt spec line 1: missing hash=");
  CHECK(error("comm hash=1 rank=0 nranks=1\nstart 1 Coll host=1 bogus=3") ==
        "npkt spec line 2: unexpected field 'bogus='");
  CHECK(error("comm hash=1 rank=0 nranks=1\n\nstop 1 Nope host=1") ==
        "npkt spec line 3: 'Nope' is not an event type");
  CHECK(error("comm hash=1 rank=0 nranks=1\nstop 1 Coll") == "npkt spec line 2: missing host=");
  CHECK(error("comm hash=1 rank=0 nranks=1\nstate 1 ProxyStep host=1 state=Sleepy") ==
        "npkt spec line 2: 'Sleepy' is not a number");
  CHECK(error("comm hash=1 rank=0 nranks=1\nstart 1 Group host=1 seq=2") ==
        "npkt spec line 2: unexpected field 'seq='");
  CHECK(error("comm hash=1 rank=0 nranks=1\nframe 3") ==
        "npkt spec line 2: unknown statement 'frame'");
}
