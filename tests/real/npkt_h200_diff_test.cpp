// `diff` on the real 2×H200 captures (samples/nccl-h200: proto-ll against proto-simple, agree
// against itself) against a second computation made here from the raw records
// (support/npkt_plain.hpp): per size the pooled launch counts of both runs, their times (each
// rank's median, mean over ranks) and the change, the two-sided Mann-Whitney p-value (normal
// approximation with tie and continuity corrections, written out plainly here: pairs counted
// one by one), busbw = size / time, and
// per rank the median arrival skew (GPU start minus the earliest rank's, host clock) and the
// share of instances it arrived last. The golden cases diff_agree_identical,
// diff_proto_ll_simple and diff_proto_ll_simple_md print these numbers.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "real/npkt_h200_driver.hpp"
#include "support/cli_runner.hpp"
#include "support/npkt_plain.hpp"

namespace {

namespace plain = npkit::test::plain;

struct PlainRun {
  std::map<std::uint64_t, std::vector<double>> spans;  // size -> every rank's timed spans
  // size -> rank -> its timed spans
  std::map<std::uint64_t, std::map<std::int32_t, std::vector<double>>> rank_spans;
  std::map<std::int32_t, std::vector<double>> skew;  // rank -> GPU start − earliest start
  std::map<std::int32_t, std::uint64_t> arrived_last;
  std::uint64_t compared = 0;  // instances timed on two ranks or more
};

PlainRun plain_run(const std::string& dump) {
  PlainRun run;
  const std::vector<plain::Rank> ranks = plain::read_capture(dump);  // the instances point here
  for (const plain::Instance& in : plain::join(ranks)) {
    std::int64_t first = INT64_MAX;
    std::int64_t last = INT64_MIN;
    std::size_t timed = 0;
    for (const auto& [rank, op] : in.by_rank) {
      run.spans[op->bytes];  // every size has a row, timed or not
      if (!op->timed) continue;
      run.spans[op->bytes].push_back(static_cast<double>(op->span_ns()));
      run.rank_spans[op->bytes][rank].push_back(static_cast<double>(op->span_ns()));
      first = std::min(first, op->gpu_start_ns);
      last = std::max(last, op->gpu_start_ns);
      ++timed;
    }
    if (timed < 2) continue;
    ++run.compared;
    for (const auto& [rank, op] : in.by_rank) {
      if (!op->timed) continue;
      run.skew[rank].push_back(static_cast<double>(op->gpu_start_ns - first));
      if (op->gpu_start_ns == last) ++run.arrived_last[rank];
    }
  }
  return run;
}

// Two-sided p of the Mann-Whitney U test of a against b.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  double u = 0;
  for (double x : a) {
    for (double y : b) u += x > y ? 1.0 : x == y ? 0.5 : 0.0;
  }
  std::vector<double> all = a;
  all.insert(all.end(), b.begin(), b.end());
  std::map<double, double> ties;
  for (double v : all) ties[v] += 1;
  double tie_sum = 0;
  for (const auto& [v, t] : ties) tie_sum += t * t * t - t;
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  const double n = n1 + n2;
  const double variance = n1 * n2 / 12.0 * ((n + 1) - tie_sum / (n * (n - 1)));
  if (variance <= 0) return 1.0;
  const double z = std::max(0.0, std::abs(u - n1 * n2 / 2) - 0.5) / std::sqrt(variance);
  return std::erfc(z / std::sqrt(2.0));
}

// `bandwidth`'s time of a row: each rank's median, mean over ranks.
double mean_of_medians(const std::map<std::int32_t, std::vector<double>>& by_rank) {
  double sum = 0;
  for (const auto& [rank, v] : by_rank) sum += plain::median(v);
  return sum / static_cast<double>(by_rank.size());
}

// The gate's exit code is checked by the caller's `expected_exit`.
void check_diff(const std::string& base_dir, const std::string& cand_dir, int expected_exit) {
  PlainRun base = plain_run(npkit::test::require_path(base_dir + "/dump"));
  PlainRun cand = plain_run(npkit::test::require_path(cand_dir + "/dump"));
  const auto run = npkit::test::run_cli(
      {"diff", base_dir + "/dump", cand_dir + "/dump", "--format", "json", "--quiet"});
  REQUIRE(run.exit_code == expected_exit);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(run.out);
  const std::uint64_t min_samples = doc["rule"]["min_samples"].get_uint64();
  REQUIRE(min_samples == 8);

  std::size_t rows = 0;
  std::size_t with_p = 0;
  for (simdjson::dom::element c : doc["collectives"].get_array()) {
    const std::uint64_t size = c["size_bytes"].get_uint64();
    INFO("size " << size);
    REQUIRE(base.spans.count(size) == 1);
    REQUIRE(cand.spans.count(size) == 1);
    ++rows;
    const auto& a = base.spans.at(size);
    const auto& b = cand.spans.at(size);
    // Fail-safe: a rank timed in the baseline and not in the candidate makes the row missing.
    bool lost_rank = false;
    for (const auto& [rank, spans] : base.rank_spans[size]) {
      lost_rank |= !spans.empty() && cand.rank_spans[size][rank].empty();
    }
    const std::string_view verdict = c["verdict"].get_string().value();
    CHECK((verdict == "missing") == lost_rank);
    if (lost_rank) continue;
    simdjson::dom::element pooled = c["pooled"];
    // The comparison is of the ranks timed in both runs; the row's times are of all its ranks.
    std::map<std::int32_t, std::vector<double>> base_shared;
    std::map<std::int32_t, std::vector<double>> cand_shared;
    std::vector<double> a_shared;
    std::vector<double> b_shared;
    for (const auto& [rank, spans] : base.rank_spans[size]) {
      if (spans.empty() || cand.rank_spans[size][rank].empty()) continue;
      base_shared[rank] = spans;
      cand_shared[rank] = cand.rank_spans[size][rank];
      a_shared.insert(a_shared.end(), spans.begin(), spans.end());
      b_shared.insert(b_shared.end(), cand_shared[rank].begin(), cand_shared[rank].end());
    }
    if (a_shared.empty()) {
      // Untimed on a side: nothing to judge (both untimed: unchanged, no data lost).
      CHECK(verdict == (a.empty() && b.empty() ? "unchanged" : "not comparable"));
      continue;
    }
    CHECK(pooled["baseline_count"].get_uint64().value() == a_shared.size());
    CHECK(pooled["candidate_count"].get_uint64().value() == b_shared.size());
    const double ta = mean_of_medians(base.rank_spans.at(size));
    const double tb = mean_of_medians(cand.rank_spans.at(size));
    const double ta_shared = mean_of_medians(base_shared);
    const double tb_shared = mean_of_medians(cand_shared);
    CHECK(std::abs(pooled["baseline_time_ns"].get_double().value() - ta_shared) <= 1.0);
    CHECK(std::abs(pooled["candidate_time_ns"].get_double().value() - tb_shared) <= 1.0);
    CHECK(pooled["change"].get_double().value() == Approx(tb_shared / ta_shared - 1).margin(1e-4));
    // The row's time and busbw are `bandwidth`'s: each rank's median, mean over ranks.
    CHECK(std::abs(c["baseline_time_ns"].get_double().value() - ta) <= 1.0);
    CHECK(std::abs(c["candidate_time_ns"].get_double().value() - tb) <= 1.0);
    CHECK(c["baseline_busbw_gbps"].get_double().value() ==
          Approx(static_cast<double>(size) / ta).epsilon(1e-4));
    CHECK(c["candidate_busbw_gbps"].get_double().value() ==
          Approx(static_cast<double>(size) / tb).epsilon(1e-4));
    const bool tested = a_shared.size() >= min_samples && b_shared.size() >= min_samples;
    double p = 0;
    CHECK((pooled["p_value"].get(p) == simdjson::SUCCESS) == tested);
    if (!tested) continue;
    ++with_p;
    const double expected = mann_whitney_p(a_shared, b_shared);
    INFO("p " << p << ", plain " << expected);
    CHECK(std::abs(p - expected) <= 1e-6 + 1e-3 * expected);
  }
  CHECK(rows == base.spans.size());
  CHECK(with_p > 0);

  std::size_t ranks = 0;
  for (simdjson::dom::element s : doc["sync"].get_array()) {
    const auto rank = static_cast<std::int32_t>(s["rank"].get_int64().value());
    INFO("rank " << rank);
    ++ranks;
    for (const auto& [side, plain_side] :
         {std::pair<std::string, const PlainRun*>{"baseline", &base}, {"candidate", &cand}}) {
      INFO(side);
      const PlainRun& p = *plain_side;
      REQUIRE(p.skew.count(rank) == 1);
      CHECK(std::abs(s[side + "_skew_median_ns"].get_double().value() -
                     plain::median(p.skew.at(rank))) <= 2.0);
      const double last = p.arrived_last.count(rank) ? p.arrived_last.at(rank) : 0;
      CHECK(s[side + "_arrived_last_share"].get_double().value() ==
            Approx(last / static_cast<double>(p.compared)).epsilon(1e-9));
    }
  }
  CHECK(ranks == 2);
}

}  // namespace

TEST_CASE("diff proto-ll against proto-simple: medians, p-values and skew match a plain recount",
          "[npkt][real][diff]") {
  // Exit 1: Simple is slower at 256 KiB and 1 MiB, and has no timed instance of rank 1 at 4 KiB.
  check_diff(npkit::test::sample_dir("proto-ll"), npkit::test::sample_dir("proto-simple"), 1);
}

TEST_CASE("diff agree against itself: medians and skew match a plain recount",
          "[npkt][real][diff]") {
  check_diff(npkit::test::sample_dir("agree"), npkit::test::sample_dir("agree"), 0);
}
