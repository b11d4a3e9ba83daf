// The fuzz_summary seed corpus (tests/fuzz/corpus/summary/): every seed_valid_* file is a summary
// that reads and writes back equal; every seed_bad_* file has one defect and fails with an error
// naming the file and a byte offset within it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "import/summary/summary_json_reader.hpp"
#include "output/summary_json_writer.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

TEST_CASE("summary seed corpus: valid seeds read back, bad seeds fail at an offset",
          "[summary][fuzz]") {
  std::size_t valid = 0;
  std::size_t bad = 0;
  for (const auto& e :
       fs::directory_iterator(npkit::test::source_path("tests/fuzz/corpus/summary"))) {
    const std::string name = e.path().filename().string();
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    auto s = npkit::parse_summary(name, text.str());
    INFO(name << ": " << (s.ok() ? std::string("parsed") : s.error().message));
    if (name.rfind("seed_valid_", 0) == 0) {
      ++valid;
      REQUIRE(s.ok());
      std::string written;
      npkit::write_summary_json(*s, written);
      auto back = npkit::parse_summary(name, written);
      REQUIRE(back.ok());
      CHECK(*back == *s);
    } else if (name.rfind("seed_bad_", 0) == 0) {
      ++bad;
      REQUIRE_FALSE(s.ok());
      const std::string prefix = name + ": offset ";
      REQUIRE(s.error().message.rfind(prefix, 0) == 0);
      const std::size_t offset = std::stoull(s.error().message.substr(prefix.size()));
      CHECK(offset <= text.str().size());
    }
  }
  CHECK(valid >= 3);
  CHECK(bad >= 15);
}
