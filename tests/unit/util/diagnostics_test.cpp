#include "util/diagnostics.hpp"

#include <catch2/catch.hpp>

TEST_CASE("diagnostics: counted per category, first examples kept", "[util][diagnostics]") {
  npkit::Diagnostics d;
  for (int i = 0; i < 5; ++i) d.warn("unknown event id", "message " + std::to_string(i));
  d.warn("truncated file", "t", 10);
  REQUIRE(d.warnings().size() == 2);
  const auto& first = d.warnings()[0];
  CHECK(first.category == "unknown event id");
  CHECK(first.count == 5);
  CHECK(first.examples ==
        std::vector<std::string>{"message 0", "message 1", "message 2"});  // 3 kept
  CHECK(d.warnings()[1].count == 10);
  CHECK(d.total() == 15);
}

TEST_CASE("diagnostics: merge adds counts and keeps the order of first appearance",
          "[util][diagnostics]") {
  npkit::Diagnostics a;
  a.warn("x", "a1");
  a.warn("x", "a2");
  npkit::Diagnostics b;
  b.warn("y", "b1");
  b.warn("x", "b2");
  b.warn("x", "b3");
  a.merge(b);
  REQUIRE(a.warnings().size() == 2);
  CHECK(a.warnings()[0].category == "x");
  CHECK(a.warnings()[0].count == 4);
  CHECK(a.warnings()[0].examples == std::vector<std::string>{"a1", "a2", "b2"});
  CHECK(a.warnings()[1].category == "y");
  CHECK(a.total() == 5);
}
