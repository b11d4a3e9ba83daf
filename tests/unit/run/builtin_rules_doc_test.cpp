// docs/phases.md quotes the built-in phase rules; this keeps the two identical.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "run/phase_map.hpp"
#include "support/test_data.hpp"

TEST_CASE("docs/phases.md quotes every built-in phase rule line", "[phases][docs]") {
  std::ifstream in(npkit::test::source_path("docs/phases.md"));
  REQUIRE(in);
  std::stringstream doc;
  doc << in.rdbuf();
  std::istringstream rules{std::string(npkit::PhaseMap::builtin_text())};
  std::size_t lines = 0;
  for (std::string line; std::getline(rules, line);) {
    if (line.empty()) continue;
    INFO(line);
    CHECK(doc.str().find(line + "\n") != std::string::npos);
    ++lines;
  }
  CHECK(lines > 30);
  CHECK(npkit::PhaseMap::builtin().rules().size() > 30);
}
