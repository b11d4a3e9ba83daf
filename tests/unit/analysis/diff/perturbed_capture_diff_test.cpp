// diff on the real 2×H200 agreement capture (samples/nccl-h200/agree: AllReduce 1..256 MiB,
// 23 launches per size) against copies perturbed in known ways by rewriting its records
// (npkt_perturb.hpp): one size slowed by 15 % on one rank, jitter only, a protocol change with
// a changed setting, and no change at all.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "analysis/diff/run_diff.hpp"
#include "import/npkt/npkt_directory.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"
#include "unit/analysis/diff/npkt_perturb.hpp"
#include "unit/run/summary/summary_test_support.hpp"

using npkit::CollectiveDiff;
using npkit::RunDiff;
using npkit::RunSummary;
using npkit::Verdict;
using npkit::test::NpktImage;
using npkit::test::source_path;

namespace {

const std::string kAgree = "samples/nccl-h200/agree/dump";
// Coll count (float elements) of each size of the capture: S / 4.
constexpr std::uint64_t kCount4MiB = 1048576;

std::vector<std::string> agree_files() {
  auto files = npkit::find_npkt_files(source_path(kAgree));
  REQUIRE(files.ok());
  REQUIRE(files->paths.size() == 2);  // rank 0, rank 1 (name order)
  return files->paths;
}

// Copies both rank files into `tmp`, passing each through `edit(rank, image)`.
std::string perturbed_copy(const npkit::test::TempDir& tmp,
                           const std::function<void(int, NpktImage&)>& edit) {
  const auto files = agree_files();
  for (int rank = 0; rank < 2; ++rank) {
    NpktImage image = NpktImage::load(files[rank]);
    edit(rank, image);
    image.save(tmp.file(std::filesystem::path(files[rank]).filename().string()));
  }
  return tmp.path();
}

const CollectiveDiff& row(const RunDiff& d, std::uint64_t size) {
  for (const auto& r : d.collectives) {
    if (r.size_bytes == size) return r;
  }
  FAIL("no row of size " << size);
  return d.collectives.front();
}

RunDiff diff_against_agree(const std::string& candidate_dir) {
  const RunSummary base = npkit::test::summarize_path(source_path(kAgree), "base");
  const RunSummary cand = npkit::test::summarize_path(candidate_dir, "cand");
  return npkit::diff_runs(base, cand, npkit::NoiseRule{});
}

}  // namespace

TEST_CASE("perturbed capture: one size 15 % slower on rank 1 is a regression of that size only",
          "[diff][real][perturbed]") {
  npkit::test::TempDir tmp;
  const std::string dir = perturbed_copy(tmp, [](int rank, NpktImage& image) {
    if (rank != 1) return;
    CHECK(image.stretch_kernels(kCount4MiB, [](std::uint64_t) { return 1.15; }) > 0);
  });
  const RunDiff d = diff_against_agree(dir);
  REQUIRE(d.collectives.size() == 5);
  CHECK(d.config.empty());
  for (const auto& r : d.collectives) {
    INFO("size " << r.size_bytes << ": " << npkit::verdict_name(r.judgement.verdict));
    if (r.size_bytes != 4 * kCount4MiB) {
      CHECK(r.judgement.verdict == Verdict::kUnchanged);
      continue;
    }
    CHECK(r.judgement.verdict == Verdict::kRegression);
    CHECK(r.judgement.deciding_rank == 1);
    CHECK(r.judgement.deciding_change > 0.12);
    CHECK(r.judgement.deciding_change < 0.18);
    REQUIRE(r.judgement.ranks.size() == 2);
    CHECK(r.judgement.ranks[0].comparison.verdict == Verdict::kUnchanged);
  }
  CHECK(npkit::should_fail(d, npkit::FailOn::fail_safe()));
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::none()));
}

TEST_CASE("perturbed capture: jitter alone flags nothing", "[diff][real][perturbed]") {
  npkit::test::TempDir tmp;
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> jitter(0.97, 1.03);  // ±3 % per launch and rank
  const std::string dir = perturbed_copy(tmp, [&](int, NpktImage& image) {
    for (const std::uint64_t count :
         {262144ull, 1048576ull, 4194304ull, 16777216ull, 67108864ull}) {
      std::map<std::uint64_t, double> per_launch;
      CHECK(image.stretch_kernels(count, [&](std::uint64_t coll) {
        auto [it, fresh] = per_launch.emplace(coll, 0.0);
        if (fresh) it->second = jitter(rng);
        return it->second;
      }) > 0);
    }
  });
  const RunDiff d = diff_against_agree(dir);
  REQUIRE(d.collectives.size() == 5);
  for (const auto& r : d.collectives) {
    INFO("size " << r.size_bytes << ": change " << r.judgement.pooled.change);
    CHECK(r.judgement.verdict == Verdict::kUnchanged);
  }
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::any_change()));
}

TEST_CASE("perturbed capture: a protocol change is judged on its time, the setting named as cause",
          "[diff][real][perturbed]") {
  npkit::test::TempDir tmp;
  const std::string dir = perturbed_copy(tmp, [](int, NpktImage& image) {
    const std::uint16_t ll = image.string_id("LL");
    REQUIRE(ll != 0);
    CHECK(image.set_proto(kCount4MiB, ll) == 23);
    image.set_metadata("env.NCCL_NVLS_ENABLE", "1");
  });
  const RunDiff d = diff_against_agree(dir);
  REQUIRE(d.config.size() == 1);
  CHECK(d.config[0].describe() == "NCCL_NVLS_ENABLE: 0 → 1");
  CHECK(d.causes == std::vector<std::string>{"NCCL_NVLS_ENABLE: 0 → 1"});
  const CollectiveDiff& changed = row(d, 4 * kCount4MiB);
  // Only the protocol name changed, not the kernels' times: the size is unchanged, and the
  // change is named.
  CHECK(changed.judgement.verdict == Verdict::kUnchanged);
  CHECK(changed.judgement.reason == "proto changed: SIMPLE → LL (RING)");
  CHECK(changed.base_choice == "RING/SIMPLE");
  CHECK(changed.cand_choice == "RING/LL");
  std::size_t unchanged = 0;
  for (const auto& r : d.collectives) unchanged += r.judgement.verdict == Verdict::kUnchanged;
  CHECK(unchanged == 5);
  CHECK_FALSE(npkit::should_fail(d, npkit::FailOn::any_change()));
}

TEST_CASE("perturbed capture: identical runs never flag", "[diff][real]") {
  for (const char* run : {"agree", "nvlink", "socket", "torch", "exit"}) {
    INFO(run);
    const std::string dir = source_path(std::string("samples/nccl-h200/") + run + "/dump");
    const RunSummary s = npkit::test::summarize_path(dir, run);
    const RunDiff d = npkit::diff_runs(s, s, npkit::NoiseRule{});
    CHECK(d.config.empty());
    CHECK_FALSE(d.collectives.empty());
    const auto n = npkit::count_verdicts(d);
    CHECK(n.regressions + n.improvements + n.inconclusive == 0);
    // Rows whose times are mostly flagged (nvlink's AlltoAll: host-disagree on NCCL 2.28.9) are
    // not comparable on either side, and a run too short to test (exit: 4 launches per size)
    // tested nothing: the default gate fails only there, and only for that reason.
    for (const auto& r : d.collectives) {
      if (r.judgement.verdict != Verdict::kNotComparable) continue;
      INFO(r.collective << " " << r.size_bytes << ": " << r.judgement.reason);
      CHECK(r.judgement.reason.rfind("flagged times", 0) == 0);
    }
    CHECK_FALSE(npkit::should_fail(
        d, npkit::FailOn::any_change().without(Verdict::kNotComparable).allowing_empty()));
    CHECK(npkit::should_fail(d, npkit::FailOn::fail_safe()) == (std::string(run) == "exit"));
  }
}
