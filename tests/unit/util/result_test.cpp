// Result, NPKIT_TRY and NPKIT_ASSIGN: an error leaves the function at once; a value is moved out.
#include "util/result.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

namespace {

using npkit::Error;
using npkit::Result;

Result<std::unique_ptr<int>> boxed(int x) {
  if (x < 0) return Error{"negative"};
  return std::make_unique<int>(x);
}

// Declares with NPKIT_ASSIGN; `reached` records whether the line after it ran.
Result<int> doubled(int x, bool& reached) {
  NPKIT_ASSIGN(auto box, boxed(x));
  reached = true;
  return *box * 2;
}

// Assigns to an existing variable, twice in one function.
Result<std::string> joined(int a, int b) {
  std::unique_ptr<int> first;
  NPKIT_ASSIGN(first, boxed(a));
  NPKIT_ASSIGN(const auto second, boxed(b));
  return std::to_string(*first) + "," + std::to_string(*second);
}

}  // namespace

TEST_CASE("result: NPKIT_ASSIGN moves the value out or returns the error", "[util]") {
  bool reached = false;
  const auto ok = doubled(21, reached);
  REQUIRE(ok.ok());
  CHECK(*ok == 42);
  CHECK(reached);

  reached = false;
  const auto failed = doubled(-1, reached);
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().message == "negative");
  CHECK_FALSE(reached);

  CHECK(*joined(3, 4) == "3,4");
  CHECK(joined(3, -4).error().message == "negative");
  CHECK(joined(-3, 4).error().message == "negative");
}
