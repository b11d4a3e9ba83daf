// npkit_gate_rates — how often the diff gate fails on noise alone, and how often it catches a
// slowdown, on the real iterations of a run (docs/ci.md, "Measuring the gate").
//
// Usage: npkit_gate_rates [--draws N] [--seed S] RUN...
//   RUN: an npkit-summary file or any input `summarize` reads (a dump directory, a trace).
// For each run, pairs of runs are drawn by resampling, per row and rank, the run's own per-launch
// GPU times with replacement (the row's measured spread, nothing modelled):
//   - A/A: both sides drawn from the same times, N pairs: the share of gates that fail at the
//     default settings (regression or missing data) and of rows called a regression or an
//     improvement;
//   - slowdowns of 1, 2, 5, 10 and 20 % injected into the candidate, N/5 pairs per size and
//     slowdown, once on the whole row (every rank) and once on one rank (the lowest): the share
//     of pairs in which that row is a regression. Rows with fewer than 20 iterations on a rank
//     are listed but not counted in the detection summary.
// Output: a table per run on standard output.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "analysis/diff/run_diff.hpp"
#include "commands/gate_commands.hpp"
#include "import/run_input.hpp"
#include "import/summary/summary_json_reader.hpp"

namespace {

using npkit::RunSummary;

constexpr double kSlowdowns[] = {0.01, 0.02, 0.05, 0.10, 0.20};
constexpr std::uint64_t kMinIterations = 20;

npkit::Result<RunSummary> load(const std::string& path) {
  auto summary = npkit::read_summary_file(path);
  if (summary) return summary;
  npkit::ImportOptions options;
  options.path = path;
  auto input = npkit::open_run_input(options);
  if (!input) return input.error();
  return npkit::summarize_input(**input);
}

// `real` with every rank sample redrawn with replacement; row `slow_row` (every rank, or only
// `slow_rank` when it is not -1) times `factor`.
RunSummary resampled(const RunSummary& real, std::mt19937_64& rng, std::size_t slow_row,
                     std::int32_t slow_rank, double factor) {
  RunSummary s = real;
  for (std::size_t i = 0; i < s.collectives.size(); ++i) {
    for (auto& r : s.collectives[i].ranks) {
      const std::vector<std::int64_t> values = r.time_ns.values();
      if (values.empty()) continue;
      std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
      const bool slow = i == slow_row && (slow_rank == -1 || r.rank == slow_rank);
      npkit::DurationSample drawn;
      for (std::size_t k = 0; k < values.size(); ++k) {
        const double v = static_cast<double>(values[pick(rng)]);
        drawn.add(static_cast<std::int64_t>(slow ? v * factor : v));
      }
      r.time_ns = std::move(drawn);
    }
  }
  return s;
}

std::uint64_t min_iterations(const npkit::CollectiveRow& row) {
  std::uint64_t n = UINT64_MAX;
  for (const auto& r : row.ranks) n = std::min<std::uint64_t>(n, r.time_ns.count());
  return row.ranks.empty() ? 0 : n;
}

std::string percent(std::uint64_t hits, std::uint64_t of) {
  return of == 0 ? "-" : fmt::format("{:.1f}", 100.0 * static_cast<double>(hits) / of);
}

void measure(const std::string& path, const RunSummary& real, int draws, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const npkit::NoiseRule rule;
  std::uint64_t failed_gates = 0;
  std::uint64_t changed_rows = 0;
  std::uint64_t rows = 0;
  for (int d = 0; d < draws; ++d) {
    const auto diff = npkit::diff_runs(resampled(real, rng, SIZE_MAX, -1, 1),
                                       resampled(real, rng, SIZE_MAX, -1, 1), rule);
    failed_gates += npkit::should_fail(diff, npkit::FailOn::fail_safe()) ? 1 : 0;
    for (const auto& r : diff.collectives) {
      ++rows;
      changed_rows += r.judgement.verdict == npkit::Verdict::kRegression ||
                      r.judgement.verdict == npkit::Verdict::kImprovement;
    }
  }
  fmt::print("{}\n  A/A: {} pairs, gate failed {} ({}%), rows called changed {} of {} ({}%)\n",
             path, draws, failed_gates, percent(failed_gates, draws), changed_rows, rows,
             percent(changed_rows, rows));
  fmt::print("  detection (% of {} pairs each; row = every rank slower, rank = the lowest rank)\n",
             draws / 5);
  fmt::print("  {:<12} {:>10} {:>5}", "collective", "size (B)", "iter");
  for (double s : kSlowdowns)
    fmt::print(" {:>6} {:>6}", fmt::format("row{:.0f}%", s * 100),
               fmt::format("rank{:.0f}%", s * 100));
  fmt::print("\n");
  std::vector<std::uint64_t> counted_hits(std::size(kSlowdowns), 0);
  std::uint64_t counted_pairs = 0;
  for (std::size_t row = 0; row < real.collectives.size(); ++row) {
    const auto& key = real.collectives[row].key;
    const std::uint64_t iterations = min_iterations(real.collectives[row]);
    if (iterations == 0) continue;
    fmt::print("  {:<12} {:>10} {:>5}", key.collective, key.size_bytes, iterations);
    const std::int32_t rank = real.collectives[row].ranks.front().rank;
    for (std::size_t k = 0; k < std::size(kSlowdowns); ++k) {
      for (const std::int32_t who : {-1, rank}) {
        std::uint64_t hits = 0;
        for (int d = 0; d < draws / 5; ++d) {
          const auto diff =
              npkit::diff_runs(resampled(real, rng, SIZE_MAX, -1, 1),
                               resampled(real, rng, row, who, 1 + kSlowdowns[k]), rule);
          for (const auto& r : diff.collectives) {
            if (r.collective == key.collective && r.size_bytes == key.size_bytes &&
                r.base_choice == npkit::choice_label(key.algo, key.proto)) {
              hits += r.judgement.verdict == npkit::Verdict::kRegression ? 1 : 0;
            }
          }
        }
        fmt::print(" {:>6}", percent(hits, draws / 5));
        if (who == -1 && iterations >= kMinIterations) counted_hits[k] += hits;
      }
    }
    if (iterations >= kMinIterations) counted_pairs += draws / 5;
    fmt::print("\n");
  }
  fmt::print("  rows with >= {} iterations, whole-row slowdown detected:", kMinIterations);
  for (std::size_t k = 0; k < std::size(kSlowdowns); ++k) {
    fmt::print(" {:.0f}%: {}%", kSlowdowns[k] * 100, percent(counted_hits[k], counted_pairs));
  }
  fmt::print("\n\n");
}

}  // namespace

int main(int argc, char** argv) {
  int draws = 1000;
  std::uint64_t seed = 20261201;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--draws" || arg == "--seed") && i + 1 < argc) {
      const unsigned long long v = std::stoull(argv[++i]);
      if (arg == "--draws") {
        draws = static_cast<int>(std::max(5ull, v));
      } else {
        seed = v;
      }
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) {
    fmt::print(stderr, "usage: npkit_gate_rates [--draws N] [--seed S] RUN...\n");
    return 2;
  }
  for (const auto& path : paths) {
    auto summary = load(path);
    if (!summary) {
      fmt::print(stderr, "npkit_gate_rates: {}\n", summary.error().message);
      return 2;
    }
    measure(path, *summary, draws, seed);
  }
  return 0;
}
