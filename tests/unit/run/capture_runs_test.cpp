// The grouping rule of run/capture_runs.hpp on hand-made file facts: which files form one run is
// read off each case's windows, builds and settings.
#include "run/capture_runs.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using npkit::CaptureFileFacts;
using npkit::CaptureRun;
using npkit::group_capture_runs;

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;
// 2026-12-04 21:15:57 UTC (1796418957 s since the epoch).
constexpr std::int64_t kT0 = 1'796'418'957 * kSecond;

CaptureFileFacts file(std::uint64_t comm, std::int32_t rank, std::int64_t start_s,
                      std::int64_t end_s, std::string host = "node0",
                      std::string build = "NCCL 2.28.9", std::string settings = "events all") {
  CaptureFileFacts f;
  f.comm_hash = comm;
  f.rank = rank;
  f.host = std::move(host);
  f.times_known = true;
  f.start_ns = kT0 + start_s * kSecond;
  f.end_ns = kT0 + end_s * kSecond;
  f.build = std::move(build);
  f.settings = std::move(settings);
  return f;
}

// Each run's file indices, in run order.
std::vector<std::vector<std::size_t>> groups(const std::vector<CaptureFileFacts>& files) {
  std::vector<std::vector<std::size_t>> out;
  for (const CaptureRun& r : group_capture_runs(files)) out.push_back(r.files);
  return out;
}

using Groups = std::vector<std::vector<std::size_t>>;

}  // namespace

TEST_CASE("capture runs: the files of one communicator are one run", "[model][capture_runs]") {
  CHECK(groups({file(0xa, 0, 0, 10), file(0xa, 1, 0, 10)}) == Groups{{0, 1}});
  // One communicator stays one run even where its files disagree on the build.
  CHECK(groups({file(0xa, 0, 0, 10), file(0xa, 1, 0, 10, "node0", "NCCL 2.30.7")}) ==
        Groups{{0, 1}});
  CHECK(group_capture_runs({}).empty());
}

TEST_CASE("capture runs: disjoint communicators that overlap in time are one run",
          "[model][capture_runs]") {
  // Two process groups of one job, on disjoint processes: no shared communicator, one run.
  CHECK(groups({file(0xa, 0, 0, 10), file(0xa, 1, 0, 10), file(0xb, 0, 2, 12),
                file(0xb, 1, 2, 12)}) == Groups{{0, 1, 2, 3}});
  // Overlap through a third communicator joins the first and the last.
  CHECK(groups({file(0xa, 0, 0, 10), file(0xb, 0, 5, 20), file(0xc, 0, 15, 30)}) ==
        Groups{{0, 1, 2}});
}

TEST_CASE("capture runs: windows that do not overlap are separate runs, in start order",
          "[model][capture_runs]") {
  // Listed later but started first: run 1.
  const auto runs = group_capture_runs(
      {file(0xb, 0, 100, 110), file(0xb, 1, 100, 110), file(0xa, 0, 0, 10), file(0xa, 1, 0, 10)});
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].files == std::vector<std::size_t>{2, 3});
  CHECK(runs[1].files == std::vector<std::size_t>{0, 1});
  CHECK(runs[0].start_ns == kT0);
  CHECK(runs[0].end_ns == kT0 + 10 * kSecond);
  // One second apart on one host: two runs (one clock, compared exactly).
  CHECK(groups({file(0xa, 0, 0, 10), file(0xb, 0, 11, 20)}) == Groups{{0}, {1}});
  // Touching windows overlap.
  CHECK(groups({file(0xa, 0, 0, 10), file(0xb, 0, 10, 20)}) == Groups{{0, 1}});
}

TEST_CASE("capture runs: another NCCL build or capture settings is another run",
          "[model][capture_runs]") {
  // Same times, other NCCL version.
  CHECK(groups({file(0xa, 0, 0, 10), file(0xb, 0, 0, 10, "node0", "NCCL 2.30.7")}) ==
        Groups{{0}, {1}});
  // Same times, other events captured (a rerun with another NPKIT_EVENTS).
  CHECK(groups({file(0xa, 0, 0, 10), file(0xb, 0, 0, 10, "node0", "NCCL 2.28.9",
                                          "events coll,kernel")}) == Groups{{0}, {1}});
}

TEST_CASE("capture runs: windows of several hosts compare within the host clock tolerance",
          "[model][capture_runs]") {
  // 2 s apart on two hosts: within the 5 s tolerance, one run.
  CHECK(groups({file(0xa, 0, 0, 10, "a"), file(0xb, 0, 12, 20, "b")}) == Groups{{0, 1}});
  // 6 s apart on two hosts: two runs.
  CHECK(groups({file(0xa, 0, 0, 10, "a"), file(0xb, 0, 16, 20, "b")}) == Groups{{0}, {1}});
}

TEST_CASE("capture runs: a file without times gives no time evidence", "[model][capture_runs]") {
  auto untimed = file(0xc, 0, 0, 0);
  untimed.times_known = false;
  // Without times, communicators of one build and settings are one run ...
  CHECK(groups({file(0xa, 0, 0, 10), file(0xb, 0, 100, 110), untimed}) == Groups{{0, 1, 2}});
  // ... and runs without times come last.
  untimed.build = "NCCL 2.30.7";
  CHECK(groups({untimed, file(0xa, 0, 0, 10)}) == Groups{{1}, {0}});
}

TEST_CASE("capture runs: a run's description names its files, ranks, time, build and settings",
          "[model][capture_runs]") {
  const auto runs = group_capture_runs(
      {file(0xf71e551407866e38, 0, 0, 4, "vm"), file(0xf71e551407866e38, 1, 0, 4, "vm")});
  REQUIRE(runs.size() == 1);
  CHECK(npkit::describe_capture_run(runs[0]) ==
        "2 file(s): comm f71e551407866e38 ranks 0-1; host vm; 2026-12-04 21:15:57 to 21:16:01 "
        "UTC; NCCL 2.28.9; events all");
  // At most three communicators are named.
  const auto many = group_capture_runs(
      {file(1, 0, 0, 4), file(2, 0, 0, 4), file(3, 0, 0, 4), file(4, 0, 0, 4), file(5, 0, 0, 4)});
  REQUIRE(many.size() == 1);
  CHECK(npkit::describe_capture_run(many[0]) ==
        "5 file(s): comm 0000000000000001 rank 0, comm 0000000000000002 rank 0, comm "
        "0000000000000003 rank 0 and 2 more comm(s); host node0; 2026-12-04 21:15:57 to 21:16:01 "
        "UTC; NCCL 2.28.9; events all");
}

TEST_CASE("capture runs: many files of conflicting metadata group in bounded time",
          "[model][capture_runs]") {
  // 200,000 communicators, each of its own NCCL build or window: a quadratic grouping would not
  // finish. Even communicators share one build and overlapping windows (one run); odd ones each
  // have their own build.
  std::vector<CaptureFileFacts> files;
  constexpr std::size_t kFiles = 200'000;
  for (std::size_t i = 0; i < kFiles; ++i) {
    const bool odd = i % 2 == 1;
    files.push_back(file(i + 1, 0, static_cast<std::int64_t>(i % 7), 10, "node0",
                         odd ? "NCCL " + std::to_string(i) : "NCCL 2.28.9"));
  }
  const auto runs = group_capture_runs(files);
  CHECK(runs.size() == 1 + kFiles / 2);
  std::size_t largest = 0;
  for (const auto& r : runs) largest = std::max(largest, r.files.size());
  CHECK(largest == kFiles / 2);
}
