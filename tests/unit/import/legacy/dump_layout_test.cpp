// scan_dump_layout on directories made by the test writer.
#include "import/legacy/dump_layout.hpp"

#include <catch2/catch.hpp>

#include "support/find_warning.hpp"
#include "support/legacy_dump_writer.hpp"
#include "support/temp_dir.hpp"

using npkit::Diagnostics;
using npkit::GpuFileNaming;
using npkit::scan_dump_layout;
using npkit::test::find_warning;
using npkit::test::TempDir;
using npkit::test::write_legacy_dump;

namespace {

std::vector<std::uint32_t> indices(const std::vector<npkit::TrackFile>& files) {
  std::vector<std::uint32_t> out;
  for (const auto& f : files) out.push_back(f.track.index);
  return out;
}

}  // namespace

TEST_CASE("layout: buf naming, ranks and indices sorted numerically", "[ingest][layout]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 1 gpu 0:
    rank 0 gpu 10: 0x01 | 0x02 | 0x01
    rank 0 gpu 2:
    rank 0 gpu 0: 0x01
    rank 0 gpu 1:
    rank 0 cpu 0: 0x2F | 0x30
    rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1755000
    rank 1 gpu 1:
    rank 1 gpu 2:
    rank 1 gpu 10:
    rank 1 cpu 0:
  )");
  Diagnostics diag;
  auto layout = scan_dump_layout(dir, diag);
  REQUIRE(layout.ok());
  CHECK(layout->naming == GpuFileNaming::kBuffer);
  CHECK(layout->dir == dir);
  CHECK(layout->ignored_files == 0);
  REQUIRE(layout->ranks.size() == 2);
  const auto& r0 = layout->ranks[0];
  CHECK(r0.rank == 0);
  // 10 sorts after 2 (numeric, not lexicographic).
  CHECK(indices(r0.gpu) == std::vector<std::uint32_t>{0, 1, 2, 10});
  CHECK(r0.gpu[3].bytes == 3 * 16);
  CHECK(r0.gpu[0].bytes == 16);
  CHECK(r0.gpu[3].path == dir + "/gpu_events_rank_0_buf_10");
  CHECK(r0.gpu[3].track == npkit::TrackRef{0, npkit::TrackKind::kGpu, 10});
  REQUIRE(r0.cpu.size() == 1);
  CHECK(r0.cpu[0].track == npkit::TrackRef{0, npkit::TrackKind::kCpu, 0});
  CHECK(r0.cpu[0].bytes == 32);
  CHECK(r0.cpu_period_num_path == dir + "/cpu_clock_period_num_rank_0");
  CHECK(r0.cpu_period_den_path == dir + "/cpu_clock_period_den_rank_0");
  CHECK(r0.gpu_clock_rate_path == dir + "/gpu_clock_rate_rank_0");
  CHECK_FALSE(r0.has_calibration_files);
  const auto& r1 = layout->ranks[1];
  CHECK(r1.rank == 1);
  CHECK(indices(r1.gpu) == std::vector<std::uint32_t>{0, 1, 2, 10});
  CHECK_FALSE(r1.gpu_clock_rate_path.has_value());
  CHECK(diag.total() == 0);
}

TEST_CASE("layout: 2021 per-channel GPU file names", "[ingest][layout]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    naming channel
    rank 0 gpu 0: 0x01
    rank 0 gpu 3:
    rank 0 cpu 0:
  )");
  Diagnostics diag;
  auto layout = scan_dump_layout(dir, diag);
  REQUIRE(layout.ok());
  CHECK(layout->naming == GpuFileNaming::kChannel);
  REQUIRE(layout->ranks.size() == 1);
  CHECK(indices(layout->ranks[0].gpu) == std::vector<std::uint32_t>{0, 3});
  CHECK(indices(layout->ranks[0].cpu) == std::vector<std::uint32_t>{0});
}

TEST_CASE("layout: mixing buf and channel GPU names is an error", "[ingest][layout]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 0 gpu 0:
    file gpu_events_rank_0_channel_1:
  )");
  Diagnostics diag;
  auto layout = scan_dump_layout(dir, diag);
  REQUIRE_FALSE(layout.ok());
  CHECK_THAT(layout.error().message, Catch::Contains(dir));
  CHECK_THAT(layout.error().message, Catch::Contains("mixes"));
}

TEST_CASE("layout: empty directory or clock files only is an error", "[ingest][layout]") {
  TempDir tmp;
  Diagnostics diag;
  const std::string empty = tmp.make_dir("empty");
  auto a = scan_dump_layout(empty, diag);
  REQUIRE_FALSE(a.ok());
  CHECK_THAT(a.error().message, Catch::Contains(empty));
  CHECK_THAT(a.error().message, Catch::Contains("no NPKit event files"));

  const std::string clocks = write_legacy_dump(tmp, "rank 0 clock gpu_khz=1755000", "clocks");
  auto b = scan_dump_layout(clocks, diag);
  REQUIRE_FALSE(b.ok());
  CHECK_THAT(b.error().message, Catch::Contains("no NPKit event files"));
}

TEST_CASE("layout: a file or a missing path is not a dump directory", "[ingest][layout]") {
  TempDir tmp;
  Diagnostics diag;
  const std::string file = tmp.write_file("gpu_events_rank_0_buf_0", "");
  auto a = scan_dump_layout(file, diag);
  REQUIRE_FALSE(a.ok());
  CHECK_THAT(a.error().message, Catch::Contains(file));
  CHECK_THAT(a.error().message, Catch::Contains("not a directory"));

  auto b = scan_dump_layout(tmp.file("nowhere"), diag);
  REQUIRE_FALSE(b.ok());
  CHECK_THAT(b.error().message, Catch::Contains(tmp.file("nowhere")));
}

TEST_CASE("layout: a gap in the rank numbers is a warning", "[ingest][layout]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 0 gpu 0:
    rank 2 gpu 0:
    rank 3 gpu 0:
  )");
  Diagnostics diag;
  auto layout = scan_dump_layout(dir, diag);
  REQUIRE(layout.ok());
  CHECK(layout->ranks.size() == 3);
  const auto* w = find_warning(diag, "missing ranks");
  REQUIRE(w != nullptr);
  CHECK(w->count == 1);
  CHECK_THAT(w->examples[0], Catch::Contains("rank(s) 1..1"));
}

TEST_CASE("layout: ranks missing at the start are reported too", "[ingest][layout]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, "rank 2 gpu 0:\nrank 3 gpu 0:");
  Diagnostics diag;
  auto layout = scan_dump_layout(dir, diag);
  REQUIRE(layout.ok());
  const auto* w = find_warning(diag, "missing ranks");
  REQUIRE(w != nullptr);
  CHECK_THAT(w->examples[0], Catch::Contains("rank(s) 0..1"));
}

TEST_CASE("layout: ranks may hold different buffer sets", "[ingest][layout]") {
  // The contract: a missing file reads as an empty buffer; no warning, `info` lists the counts.
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 0 gpu 0:
    rank 0 gpu 1:
    rank 0 gpu 2:
    rank 1 gpu 0:
    rank 1 gpu 1:
  )");
  Diagnostics diag;
  auto layout = scan_dump_layout(dir, diag);
  REQUIRE(layout.ok());
  REQUIRE(layout->ranks.size() == 2);
  CHECK(indices(layout->ranks[0].gpu) == std::vector<std::uint32_t>{0, 1, 2});
  CHECK(indices(layout->ranks[1].gpu) == std::vector<std::uint32_t>{0, 1});
  CHECK(diag.total() == 0);
}

TEST_CASE("layout: unrelated files and directories are ignored with a warning",
          "[ingest][layout]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 0 gpu 0:
    file README.txt: notes
    file gpu_events_rank_0_buf_: no index
    file gpu_events_rank_0_buf_1x: trailing junk
    file npkit_event_trace.json: {}
    file clock_calibration_gpu_cpu_rank_0: 1
  )");
  tmp.make_dir("dump/subdir");
  Diagnostics diag;
  auto layout = scan_dump_layout(dir, diag);
  REQUIRE(layout.ok());
  // README.txt, buf_, buf_1x, the trace and subdir: 5.
  CHECK(layout->ignored_files == 5);
  REQUIRE(layout->ranks.size() == 1);
  CHECK(layout->ranks[0].gpu.size() == 1);
  CHECK(layout->ranks[0].has_calibration_files);
  const auto* w = find_warning(diag, "ignored files");
  REQUIRE(w != nullptr);
  CHECK_THAT(w->examples[0], Catch::Contains("5 file(s)"));
}

TEST_CASE("layout: a listing made by the caller gives the same layout, with sizes",
          "[ingest][layout]") {
  TempDir tmp;
  const std::string dir = write_legacy_dump(tmp, R"(
    rank 0 gpu 0: 0x01 | 0x02
    rank 0 gpu 1:
    rank 0 cpu 0: 0x2F
    rank 1 gpu 0: 0x01
    file README.txt: notes
  )");
  Diagnostics listed_diag;
  auto listing = npkit::io::list_directory(dir);
  REQUIRE(listing.ok());
  auto listed = scan_dump_layout(dir, listed_diag, *listing);
  Diagnostics diag;
  auto scanned = scan_dump_layout(dir, diag);
  REQUIRE(listed.ok());
  REQUIRE(scanned.ok());
  REQUIRE(listed->ranks.size() == 2);
  CHECK(listed->ignored_files == 1);
  // Two records of 16 bytes, none, one; one record on rank 1.
  CHECK(listed->ranks[0].gpu[0].bytes == 32);
  CHECK(listed->ranks[0].gpu[1].bytes == 0);
  CHECK(listed->ranks[0].cpu[0].bytes == 16);
  CHECK(listed->ranks[1].gpu[0].bytes == 16);
  for (std::size_t r = 0; r < 2; ++r) {
    REQUIRE(listed->ranks[r].gpu.size() == scanned->ranks[r].gpu.size());
    for (std::size_t i = 0; i < listed->ranks[r].gpu.size(); ++i) {
      CHECK(listed->ranks[r].gpu[i].path == scanned->ranks[r].gpu[i].path);
      CHECK(listed->ranks[r].gpu[i].bytes == scanned->ranks[r].gpu[i].bytes);
    }
  }
  CHECK(listed_diag.total() == diag.total());
}
