// --threshold NAME=VALUE settings: defaults, several at once, errors.
#include "analysis/diagnose/thresholds.hpp"

#include <catch2/catch.hpp>

TEST_CASE("thresholds: defaults, settings, errors", "[diagnose]") {
  const npkit::Thresholds d;
  CHECK(npkit::threshold_value(d, "imbalance") == 1.2);
  CHECK(npkit::threshold_value(d, "min_channels") == 4);
  CHECK(npkit::threshold_names().size() == 13);
  auto t = npkit::parse_thresholds({"imbalance=1.5", "net_wait=0.3,min_instances=2"});
  REQUIRE(t.ok());
  CHECK(t->imbalance == 1.5);
  CHECK(t->net_wait == 0.3);
  CHECK(t->min_instances == 2);
  CHECK(t->small_bytes == 65536);
  auto bad = npkit::parse_thresholds({"imbalance"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("expected NAME=VALUE") != std::string::npos);
  bad = npkit::parse_thresholds({"nope=1"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("unknown name 'nope'") != std::string::npos);
  bad = npkit::parse_thresholds({"net_wait=x"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "--threshold net_wait: 'x' is not a number");
  bad = npkit::parse_thresholds({"net_wait=1.5"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "--threshold net_wait: 1.5 is outside [0, 1]");
}
