// JsonWriter: nesting, escaping and the keyed-member helpers; expected text written out by hand.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "output/json_writer.hpp"

using npkit::append_json_string;
using npkit::JsonLayout;
using npkit::JsonWriter;

namespace {

struct Rank {
  int rank;
  std::string host;
};

}  // namespace

TEST_CASE("json writer: object, objects and values write whole keyed members", "[output]") {
  std::string out;
  JsonWriter w(out);
  const std::vector<Rank> ranks = {{0, "a"}, {1, "b"}};
  const std::vector<std::uint64_t> sizes = {4096, 1048576};
  w.begin_object();
  w.object("run", [&] { w.field("ranks", 2); });
  w.objects("ranks", ranks, [&](const Rank& r) {
    w.field("rank", r.rank);
    w.field("host", r.host);
  });
  w.values("sizes", sizes);
  w.values("none", std::vector<int>{});
  w.end_object();
  CHECK(out ==
        "{\n"
        "  \"run\": {\n"
        "    \"ranks\": 2\n"
        "  },\n"
        "  \"ranks\": [\n"
        "    {\n"
        "      \"rank\": 0,\n"
        "      \"host\": \"a\"\n"
        "    },\n"
        "    {\n"
        "      \"rank\": 1,\n"
        "      \"host\": \"b\"\n"
        "    }\n"
        "  ],\n"
        "  \"sizes\": [\n"
        "    4096,\n"
        "    1048576\n"
        "  ],\n"
        "  \"none\": []\n"
        "}\n");
}

TEST_CASE("json writer: one line per top-level value, escaped strings, null for non-finite",
          "[output]") {
  std::string out;
  JsonWriter w(out, JsonLayout::kOneLine);
  w.begin_object();
  w.field("name", std::string("a\"b\\c\n"));
  w.field("inf", std::numeric_limits<double>::infinity());
  w.field("ok", true);
  w.end_object();
  w.begin_array();
  w.value(-1);
  w.end_array();
  CHECK(out == "{\"name\":\"a\\\"b\\\\c\\u000a\",\"inf\":null,\"ok\":true}\n[-1]\n");
}

TEST_CASE("json writer: every control character is escaped, C0, DEL and C1 alike", "[output]") {
  std::string out;
  append_json_string(out, "\x1b]0;t\x07|\x7f|\xc2\x9b|\xc2\x85|\xc2\xa0|\xc2\xb5");
  CHECK(out == "\"\\u001b]0;t\\u0007|\\u007f|\\u009b|\\u0085|\xc2\xa0|\xc2\xb5\"");
}
