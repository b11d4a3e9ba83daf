// A nested message written in place (open_message / close_message) has the same bytes as one
// written on its own and appended with message(), for bodies whose length takes one, two and three
// varint bytes; the expected length prefixes are the wire format's, worked out by hand.
#include "output/trace/proto_writer.hpp"

#include <catch2/catch.hpp>

#include <string>

TEST_CASE("proto writer: a message written in place equals one appended", "[render]") {
  for (const std::size_t size : {0u, 1u, 127u, 128u, 300u, 16'383u, 16'384u, 20'000u}) {
    INFO("body of " << size << " bytes");
    const std::string body(size, 'x');
    std::string appended = "ab";
    npkit::proto::message(appended, 11, body);
    std::string in_place = "ab";
    const std::size_t at = npkit::proto::open_message(in_place, 11);
    in_place += body;
    npkit::proto::close_message(in_place, at);
    CHECK(in_place == appended);
  }
  // Field 11, length-delimited: tag (11 << 3 | 2) = 0x5A; 300 = 0xAC 0x02 as a varint.
  std::string out;
  const std::size_t at = npkit::proto::open_message(out, 11);
  out += std::string(300, 'y');
  npkit::proto::close_message(out, at);
  REQUIRE(out.size() == 303);
  CHECK(static_cast<unsigned char>(out[0]) == 0x5A);
  CHECK(static_cast<unsigned char>(out[1]) == 0xAC);
  CHECK(static_cast<unsigned char>(out[2]) == 0x02);
  CHECK(out[3] == 'y');
}
