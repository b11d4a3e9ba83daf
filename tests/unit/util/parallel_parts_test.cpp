// run_parts calls every part exactly once and returns after all of them, on threads and, where
// the host refuses to start threads, on the calling thread.
#include "util/parallel_parts.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <vector>

#include "support/without_threads.hpp"

namespace {

// Runs `n` parts, each counting its calls; "" when each ran once.
std::string each_once(std::size_t n) {
  std::vector<std::atomic<int>> calls(n);
  npkit::run_parts(n, [&](std::size_t i) { ++calls[i]; });
  for (std::size_t i = 0; i < n; ++i) {
    if (calls[i] != 1) return "part " + std::to_string(i) + " ran " + std::to_string(calls[i]);
  }
  return "";
}

}  // namespace

TEST_CASE("parallel parts: each part once, for any number of parts", "[util]") {
  for (std::size_t n : {0u, 1u, 2u, 7u, 16u}) {
    INFO(n << " parts");
    CHECK(each_once(n) == "");
  }
}

TEST_CASE("parallel parts: a host that refuses threads runs them on the calling thread", "[util]") {
  CHECK(npkit::test::run_without_threads([] { return each_once(7); }) == "");
}
