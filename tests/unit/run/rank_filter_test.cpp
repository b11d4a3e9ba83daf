#include "run/rank_filter.hpp"

#include <catch2/catch.hpp>

using npkit::RankFilter;

TEST_CASE("rank filter: empty and 'all' select every rank", "[model][rank_filter]") {
  for (const char* text : {"", "all"}) {
    auto f = RankFilter::parse(text);
    REQUIRE(f.ok());
    CHECK(f->selects_all());
    CHECK(f->contains(0));
    CHECK(f->contains(123456));
  }
}

TEST_CASE("rank filter: single ranks and inclusive ranges", "[model][rank_filter]") {
  auto f = RankFilter::parse("0,2-5,7");
  REQUIRE(f.ok());
  CHECK_FALSE(f->selects_all());
  for (std::uint32_t r : {0u, 2u, 3u, 4u, 5u, 7u}) CHECK(f->contains(r));
  for (std::uint32_t r : {1u, 6u, 8u, 100u}) CHECK_FALSE(f->contains(r));

  auto one = RankFilter::parse("3");
  REQUIRE(one.ok());
  CHECK(one->contains(3));
  CHECK_FALSE(one->contains(2));
  CHECK_FALSE(one->contains(4));

  auto same = RankFilter::parse("4-4");
  REQUIRE(same.ok());
  CHECK(same->contains(4));
  CHECK_FALSE(same->contains(5));
}

TEST_CASE("rank filter: malformed lists quote the bad part", "[model][rank_filter]") {
  const std::pair<const char*, const char*> cases[] = {
      {"a", "'a'"},   {"1-", "'1-'"}, {"-1", "'-1'"},       {"5-2", "'5-2'"},
      {"1,,2", "''"}, {" 1", "' 1'"}, {"1-2-3", "'1-2-3'"}, {"4294967296", "'4294967296'"},
      {"0,x", "'x'"},
  };
  for (const auto& [text, quoted] : cases) {
    INFO(text);
    auto f = RankFilter::parse(text);
    REQUIRE_FALSE(f.ok());
    CHECK_THAT(f.error().message, Catch::Contains(quoted));
  }
}

// A trailing comma leaves an empty item, rejected like ",1" and "1,,2".
TEST_CASE("rank filter: a trailing comma is malformed", "[model][rank_filter]") {
  auto f = RankFilter::parse("1,");
  REQUIRE_FALSE(f.ok());
  CHECK_THAT(f.error().message, Catch::Contains("''"));
}
