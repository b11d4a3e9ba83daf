// shared_data.hpp — where the real dumps live, and how a test skips when they are absent.
// Contract: shared_data_path("npkit-real/A...") joins NPKIT_SHARED_DIR/data/...;
// source_path(p) joins NPKIT_SOURCE_DIR/p. A test that needs real data calls
// NPKIT_REQUIRE_PATH(path), which (Catch2 v2 has no SKIP) warns "SKIPPED: ..." and returns from
// the test case when the path does not exist. The SUCCEED keeps `--warn NoAssertions` from
// failing the skipped case.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace npkit::test {

inline std::string shared_data_path(std::string_view relative) {
  return (std::filesystem::path(NPKIT_SHARED_DIR) / "data" / relative).string();
}

inline std::string source_path(std::string_view relative) {
  return (std::filesystem::path(NPKIT_SOURCE_DIR) / relative).string();
}

}  // namespace npkit::test

#define NPKIT_REQUIRE_PATH(path)                                               \
  do {                                                                         \
    if (!std::filesystem::exists(path)) {                                      \
      WARN("SKIPPED: " << (path) << " is absent (real data not checked out)"); \
      SUCCEED("skipped");                                                      \
      return;                                                                  \
    }                                                                          \
  } while (0)
