// ordered_jobs: results consumed in job order whatever the threads, within the window, and the
// first failure in order stops the rest; on a host that refuses to start threads every job runs
// on the calling thread, in order.
#include "util/ordered_jobs.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "support/without_threads.hpp"

using npkit::Error;
using npkit::Ok;
using npkit::Result;
using npkit::Status;

namespace {

// Later jobs finish first: job i sleeps longer the smaller i is within each group of 4.
void uneven_work(std::size_t i) {
  std::this_thread::sleep_for(std::chrono::microseconds(200 * (4 - i % 4)));
}

}  // namespace

TEST_CASE("ordered jobs: results come in job order for any thread count", "[util]") {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    std::vector<std::size_t> seen;
    const Status s = npkit::run_in_order<std::size_t>(
        37, threads, 5,
        [](std::size_t i) -> Result<std::size_t> {
          uneven_work(i);
          return i * i;
        },
        [&](std::size_t i, std::size_t& square) -> Status {
          CHECK(square == i * i);
          seen.push_back(i);
          return Ok{};
        });
    REQUIRE(s.ok());
    REQUIRE(seen.size() == 37);
    for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == i);
  }
}

TEST_CASE("ordered jobs: no job starts a window ahead of the next result to consume", "[util]") {
  std::atomic<std::size_t> consumed{0};
  std::atomic<std::size_t> furthest_ahead{0};
  const Status s = npkit::run_in_order<int>(
      64, 4, 6,
      [&](std::size_t i) -> Result<int> {
        const std::size_t ahead = i - consumed.load();
        std::size_t seen = furthest_ahead.load();
        while (ahead > seen && !furthest_ahead.compare_exchange_weak(seen, ahead)) {
        }
        uneven_work(i);
        return 0;
      },
      [&](std::size_t, int&) -> Status {
        ++consumed;
        return Ok{};
      });
  REQUIRE(s.ok());
  CHECK(consumed == 64);
  CHECK(furthest_ahead.load() < 6);
}

TEST_CASE("ordered jobs: the first failure in order is returned and stops the rest", "[util]") {
  for (unsigned threads : {1u, 3u}) {
    std::atomic<std::size_t> started{0};
    std::vector<std::size_t> seen;
    const Status s = npkit::run_in_order<int>(
        1000, threads, 4,
        [&](std::size_t i) -> Result<int> {
          ++started;
          if (i == 7 || i == 9) return Error{"job " + std::to_string(i)};
          return 1;
        },
        [&](std::size_t i, int&) -> Status {
          seen.push_back(i);
          return Ok{};
        });
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().message == "job 7");
    CHECK(seen.size() == 7);
    CHECK(started.load() < 7 + 4 + 1);
  }
  const Status consumer_failed = npkit::run_in_order<int>(
      100, 2, 4, [](std::size_t) -> Result<int> { return 1; },
      [](std::size_t i, int&) -> Status {
        if (i == 3) return Error{"consume 3"};
        return Ok{};
      });
  REQUIRE_FALSE(consumer_failed.ok());
  CHECK(consumer_failed.error().message == "consume 3");
}

TEST_CASE("ordered jobs: a host that refuses threads runs them on the calling thread", "[util]") {
  const std::string failed = npkit::test::run_without_threads([]() -> std::string {
    std::vector<std::size_t> seen;
    const Status s = npkit::run_in_order<std::size_t>(
        37, 8, 5, [](std::size_t i) -> Result<std::size_t> { return i * i; },
        [&](std::size_t i, std::size_t& v) -> Status {
          if (v != i * i) return Error{"job " + std::to_string(i) + " gave another result"};
          seen.push_back(i);
          return Ok{};
        });
    if (!s.ok()) return s.error().message;
    if (seen.size() != 37) return std::to_string(seen.size()) + " results consumed";
    for (std::size_t i = 0; i < seen.size(); ++i) {
      if (seen[i] != i) return "out of order at " + std::to_string(i);
    }
    return "";
  });
  CHECK(failed == "");
}
