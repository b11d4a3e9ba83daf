// The .npkt fixtures of the golden cases (tests/golden/cases/npkt_*/dump/) are the bytes the test
// writer makes from the spec beside them (dump.spec), so the spec's hand-computed comments and the
// committed files cannot drift apart. NPKIT_UPDATE_GOLDEN=1 rewrites the files from the specs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/npkt_spec.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("npkt golden fixtures are the bytes their specs describe", "[npkt][golden]") {
  const fs::path root = npkit::test::source_path("tests/golden/cases");
  const bool update = std::getenv("NPKIT_UPDATE_GOLDEN") != nullptr;
  std::size_t fixtures = 0;
  for (const auto& entry : fs::directory_iterator(root)) {
    const fs::path spec = entry.path() / "dump.spec";
    if (!fs::exists(spec)) continue;
    ++fixtures;
    const fs::path dir = entry.path() / "dump";
    const auto files = npkit::test::parse_npkt_spec(read_bytes(spec));
    if (update) fs::create_directories(dir);
    std::vector<std::string> expected_names;
    for (const auto& f : files) {
      expected_names.push_back(f.name);
      INFO(entry.path().filename().string() << "/dump/" << f.name);
      if (update) f.builder.write((dir / f.name).string());
      CHECK(read_bytes(dir / f.name) == f.builder.bytes());
    }
    std::vector<std::string> actual_names;
    for (const auto& e : fs::directory_iterator(dir)) actual_names.push_back(e.path().filename());
    std::sort(expected_names.begin(), expected_names.end());
    std::sort(actual_names.begin(), actual_names.end());
    CHECK(actual_names == expected_names);
  }
  CHECK(fixtures >= 1);
}
