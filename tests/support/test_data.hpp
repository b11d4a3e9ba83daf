// test_data.hpp — where the tests' inputs live, and how a test insists on them.
// Contract: every input a test reads is committed: source_path("p") is NPKIT_SOURCE_DIR/p,
// data_path("p") is tests/data/p (the real NPKit dumps of other ports and the recorded NCCL
// profiler calls, each with its SOURCE/README note), and samples/ holds the H200 captures.
// require_path(p) returns p, or fails the calling test case (REQUIRE) with a message naming p
// when p does not exist: an absent input is a broken checkout, never a skipped test.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace npkit::test {

inline std::string source_path(std::string_view relative) {
  return (std::filesystem::path(NPKIT_SOURCE_DIR) / relative).string();
}

inline std::string data_path(std::string_view relative) {
  return (std::filesystem::path(NPKIT_SOURCE_DIR) / "tests" / "data" / relative).string();
}

inline std::string require_path(std::string path) {
  INFO("test input missing: " << path
                              << " (committed to the repository: is the checkout complete?)");
  REQUIRE(std::filesystem::exists(path));
  return path;
}

}  // namespace npkit::test
