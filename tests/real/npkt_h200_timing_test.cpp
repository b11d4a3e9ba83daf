// The GPU times that `summarize`, `bandwidth` and `compare` print for the real 2×H200 AllReduce
// captures (samples/nccl-h200/{agree,proto-ll,proto-simple}), against a second computation made
// here from the raw records (support/npkt_plain.hpp) and the capture driver's own run
// description (driver.txt, driver.csv):
//  - every AllReduce size the driver ran is a row, with warm-up + iterations (+ 1 checking
//    launch) instances: the driver's loop, not the analyzer's, says how many;
//  - each rank's GPU time of every launch (summary values), each rank's
//    median and their mean (`bandwidth` time), the true time (last rank's GPU start to last
//    rank's GPU stop, median over the instances), each within 1-2 ns of the plain figures
//    (the analyzer rounds each converted timestamp; so does this test, in its own way);
//  - algbw and busbw follow from size / time (2 ranks: busbw = algbw);
//  - no launch is slower on the GPU than the driver's whole iteration (wall clock / iters):
//    the median span is below the driver's time per iteration.
// The golden cases summarize_agree, xrank_h200_agree_bandwidth_md and compare_proto print these
// numbers (their covered_by files name this test).
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "real/npkt_h200_driver.hpp"
#include "support/cli_runner.hpp"
#include "support/npkt_plain.hpp"

namespace {

namespace plain = npkit::test::plain;

// Per size: each rank's GPU spans of the timed AllReduce launches, and the instances.
struct PlainRow {
  std::string algo;
  std::string proto;
  std::uint64_t instances = 0;  // on rank 0
  std::uint64_t untimed = 0;    // instances no rank timed
  std::map<std::int32_t, std::vector<double>> spans;
  std::vector<double> true_times;  // instances timed on every rank
  std::uint64_t stale = 0;         // instances with a stale channel or an overlap on some rank
};

std::map<std::uint64_t, PlainRow> plain_allreduce(const std::vector<plain::Rank>& ranks) {
  std::map<std::uint64_t, PlainRow> rows;
  for (const plain::Instance& in : plain::join(ranks)) {
    REQUIRE(in.func == "AllReduce");
    REQUIRE(in.by_rank.size() == ranks.size());
    const plain::Op& first = *in.by_rank.begin()->second;
    PlainRow& row = rows[first.bytes];
    row.algo = first.algo;
    row.proto = first.proto;
    ++row.instances;
    bool all_timed = true;
    bool any_timed = false;
    bool any_stale = false;
    std::int64_t last_start = INT64_MIN;
    std::int64_t last_stop = INT64_MIN;
    for (const auto& [rank, op] : in.by_rank) {
      REQUIRE(op->bytes == first.bytes);
      all_timed = all_timed && op->timed;
      any_stale = any_stale || op->stale_channels > 0 || op->overlapping;
      if (!op->timed) continue;
      any_timed = true;
      row.spans[rank].push_back(static_cast<double>(op->span_ns()));
      last_start = std::max(last_start, op->gpu_start_ns);
      last_stop = std::max(last_stop, op->gpu_stop_ns);
    }
    if (!any_timed) ++row.untimed;
    if (any_stale) ++row.stale;
    if (all_timed) row.true_times.push_back(static_cast<double>(last_stop - last_start));
  }
  return rows;
}

simdjson::dom::element run_json(simdjson::dom::parser& parser, std::string& keep,
                                const std::vector<std::string>& args) {
  const auto run = npkit::test::run_cli(args);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  keep = run.out;
  return parser.parse(keep);
}

// Each value of a printed list (sorted) within `tolerance` of the plain values (any order).
void check_values(simdjson::dom::element list, std::vector<double> expected, double tolerance) {
  std::sort(expected.begin(), expected.end());
  std::vector<double> values;
  for (simdjson::dom::element v : list.get_array()) values.push_back(v.get_double());
  REQUIRE(values.size() == expected.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    CHECK(std::abs(values[i] - expected[i]) <= tolerance);
  }
}

// `bandwidth`'s time of a row: each rank's median, mean over ranks.
double mean_of_medians(const PlainRow& row) {
  double sum = 0;
  for (const auto& [rank, v] : row.spans) sum += plain::median(v);
  return sum / static_cast<double>(row.spans.size());
}

std::vector<double> pooled(const PlainRow& row) {
  std::vector<double> all;
  for (const auto& [rank, v] : row.spans) all.insert(all.end(), v.begin(), v.end());
  return all;
}

// The driver's AllReduce rows and launch count per size.
void check_against_driver(const std::string& dir, const std::map<std::uint64_t, PlainRow>& rows) {
  const npkit::test::DriverRun driver = npkit::test::read_driver(dir);
  REQUIRE(rows.size() == driver.rows.size());
  for (const auto& d : driver.rows) {
    INFO(dir << " driver size " << d.size_bytes);
    REQUIRE(d.coll == "allreduce");
    REQUIRE(rows.count(d.size_bytes) == 1);
    const PlainRow& row = rows.at(d.size_bytes);
    CHECK(row.instances ==
          static_cast<std::uint64_t>(driver.warmup + driver.iters + (driver.check ? 1 : 0)));
    if (row.spans.empty()) continue;
    CHECK(plain::median(pooled(row)) < d.time_us * 1e3);
  }
}

}  // namespace

TEST_CASE("agree capture: summarize's per-launch GPU times match a plain recount",
          "[npkt][real][summary]") {
  const std::string dir = npkit::test::require_path(npkit::test::sample_dir("agree"));
  const auto ranks = plain::read_capture(dir + "/dump");
  const auto rows = plain_allreduce(ranks);
  check_against_driver(dir, rows);

  simdjson::dom::parser parser;
  std::string out;
  const auto doc = run_json(parser, out, {"summarize", dir + "/dump"});
  std::size_t seen = 0;
  for (simdjson::dom::element c : doc["collectives"].get_array()) {
    const std::uint64_t size = c["size_bytes"].get_uint64();
    INFO("size " << size);
    REQUIRE(rows.count(size) == 1);
    const PlainRow& row = rows.at(size);
    ++seen;
    CHECK(c["collective"].get_string().value() == "AllReduce");
    CHECK(c["algo"].get_string().value() == row.algo);
    CHECK(c["proto"].get_string().value() == row.proto);
    CHECK(c["instances"].get_uint64().value() == row.instances);
    CHECK(c["untimed_instances"].get_uint64().value() == row.untimed);
    CHECK(c["stale_instances"].get_uint64().value() == row.stale);
    CHECK(c["bytes_sum"].get_uint64().value() == size * row.instances);
    // The row's time is `bandwidth`'s: each rank's median, mean over ranks.
    double time = 0;
    for (const auto& [rank, spans] : row.spans) {
      time += plain::median(spans) / static_cast<double>(row.spans.size());
    }
    CHECK(std::abs(c["time_ns"].get_double().value() - time) <= 1.0);
    CHECK(c["busbw_gbps"].get_double().value() ==
          Approx(static_cast<double>(size) / time).epsilon(1e-4));
    for (simdjson::dom::element r : c["ranks"].get_array()) {
      const auto rank = static_cast<std::int32_t>(r["rank"].get_int64().value());
      INFO("rank " << rank);
      REQUIRE(row.spans.count(rank) == 1);
      check_values(r["time_ns"]["values"], row.spans.at(rank), 1);
    }
  }
  CHECK(seen == rows.size());

  // Arrival skew per rank: each instance's GPU start minus the earliest rank's, and how often
  // the rank arrived last.
  const plain::Sync sync = plain::sync(plain::join(ranks));
  std::size_t sync_ranks = 0;
  for (simdjson::dom::element r : doc["sync"].get_array()) {
    const auto rank = static_cast<std::int32_t>(r["rank"].get_int64().value());
    INFO("skew of rank " << rank);
    REQUIRE(sync.ranks.count(rank) == 1);
    const plain::RankSync& x = sync.ranks.at(rank);
    ++sync_ranks;
    CHECK(r["instances"].get_uint64().value() == x.instances);
    CHECK(r["arrived_last"].get_uint64().value() == x.arrived_last);
    check_values(r["skew_ns"]["values"], x.skew_from_first, 2);
  }
  CHECK(sync_ranks == ranks.size());
}

TEST_CASE("proto-ll capture: summarize's untimed and stale instances match a plain recount",
          "[npkt][real][summary]") {
  // LL leaves many KernelCh stale at small sizes (their GPU start belongs to a later work): the
  // rows must say how many instances lost a rank's time that way.
  const std::string dir = npkit::test::require_path(npkit::test::sample_dir("proto-ll"));
  const auto rows = plain_allreduce(plain::read_capture(dir + "/dump"));
  simdjson::dom::parser parser;
  std::string out;
  const auto doc = run_json(parser, out, {"summarize", dir + "/dump"});
  std::uint64_t stale = 0;
  std::size_t seen = 0;
  for (simdjson::dom::element c : doc["collectives"].get_array()) {
    const std::uint64_t size = c["size_bytes"].get_uint64();
    INFO("size " << size);
    REQUIRE(rows.count(size) == 1);
    ++seen;
    CHECK(c["untimed_instances"].get_uint64().value() == rows.at(size).untimed);
    CHECK(c["stale_instances"].get_uint64().value() == rows.at(size).stale);
    stale += rows.at(size).stale;
  }
  CHECK(seen == rows.size());
  CHECK(stale > 0);
}

TEST_CASE("agree capture: bandwidth time and true time match a plain recount",
          "[npkt][real][bandwidth]") {
  const std::string dir = npkit::test::require_path(npkit::test::sample_dir("agree"));
  const auto rows = plain_allreduce(plain::read_capture(dir + "/dump"));
  std::map<std::uint64_t, std::uint64_t> driver_count;  // nccl-tests count(elements) per size
  for (const auto& d : npkit::test::read_driver(dir).rows) driver_count[d.size_bytes] = d.count;
  simdjson::dom::parser parser;
  std::string out;
  const auto doc = run_json(
      parser, out, {"bandwidth", dir + "/dump", "--coll", "allreduce", "--format", "json"});
  std::size_t seen = 0;
  for (simdjson::dom::element c : doc["collectives"].get_array()) {
    const std::uint64_t size = c["size_bytes"].get_uint64();
    INFO("size " << size);
    REQUIRE(rows.count(size) == 1);
    const PlainRow& row = rows.at(size);
    ++seen;
    CHECK(c["instances"].get_uint64().value() == row.instances);
    CHECK(c["count"].get_uint64().value() == driver_count.at(size));
    double mean_of_medians = 0;
    for (simdjson::dom::element r : c["per_rank"].get_array()) {
      const auto rank = static_cast<std::int32_t>(r["rank"].get_int64().value());
      const double median = plain::median(row.spans.at(rank));
      CHECK(std::abs(r["median_ns"].get_double().value() - median) <= 1.0);
      mean_of_medians += median / static_cast<double>(row.spans.size());
    }
    const double time = c["time_ns"].get_double();
    CHECK(std::abs(time - mean_of_medians) <= 1.0);
    CHECK(c["busbw_gbps"].get_double().value() ==
          Approx(static_cast<double>(size) / time).epsilon(1e-9));
    CHECK(c["true_instances"].get_uint64().value() == row.true_times.size());
    const double true_time = c["true_time_ns"].get_double();
    CHECK(std::abs(true_time - plain::median(row.true_times)) <= 2.0);
    CHECK(c["true_busbw_gbps"].get_double().value() ==
          Approx(static_cast<double>(size) / true_time).epsilon(1e-9));
  }
  CHECK(seen == rows.size());
}

TEST_CASE("proto captures: compare's times and best run match a plain recount",
          "[npkt][real][compare]") {
  const std::string ll = npkit::test::require_path(npkit::test::sample_dir("proto-ll"));
  const std::string simple = npkit::test::require_path(npkit::test::sample_dir("proto-simple"));
  const std::vector<std::map<std::uint64_t, PlainRow>> runs = {
      plain_allreduce(plain::read_capture(ll + "/dump")),
      plain_allreduce(plain::read_capture(simple + "/dump"))};
  check_against_driver(ll, runs[0]);
  check_against_driver(simple, runs[1]);

  simdjson::dom::parser parser;
  std::string out;
  const auto doc =
      run_json(parser, out, {"compare", ll + "/dump", simple + "/dump", "--format", "json"});
  std::size_t seen = 0;
  std::vector<std::uint64_t> best_at(2, 0);
  for (simdjson::dom::element row : doc["rows"].get_array()) {
    const std::uint64_t size = row["size_bytes"].get_uint64();
    INFO("size " << size);
    ++seen;
    std::optional<double> best;
    std::size_t best_run = 0;
    bool every_run_timed = true;
    bool every_run_above_floor = true;  // at least half of the instances timed
    std::size_t k = 0;
    for (simdjson::dom::element r : row["runs"].get_array()) {
      INFO("run " << k);
      REQUIRE(runs[k].count(size) == 1);
      const PlainRow& p = runs[k].at(size);
      const std::vector<double> all = pooled(p);
      CHECK(r["choice"].get_string().value() == p.algo + "/" + p.proto);
      CHECK(r["count"].get_uint64().value() == all.size());
      every_run_timed = every_run_timed && !all.empty();
      const std::uint64_t timed = p.instances - p.untimed;
      CHECK(r["instances"].get_uint64().value() == p.instances);
      CHECK(r["timed"].get_uint64().value() == timed);
      every_run_above_floor = every_run_above_floor && 2 * timed >= p.instances;
      if (!all.empty()) {
        const double time = mean_of_medians(p);
        CHECK(std::abs(r["time_ns"].get_double().value() - time) <= 1.0);
        CHECK(r["busbw_gbps"].get_double().value() ==
              Approx(static_cast<double>(size) / time).epsilon(1e-4));
        if (!best || time < *best) {
          best = time;
          best_run = k;
        }
      }
      ++k;
    }
    // A size one run holds without a timed instance, or with fewer than half of its instances
    // timed, is not ranked.
    if (!every_run_timed) {
      CHECK(row["unranked"].get_string().value().find("has no timed instance") !=
            std::string_view::npos);
      continue;
    }
    if (!every_run_above_floor) {
      CHECK(row["unranked"].get_string().value().find("below the quality floor") !=
            std::string_view::npos);
      continue;
    }
    CHECK(row["best_run"].get_uint64().value() == best_run);
    ++best_at[best_run];
  }
  CHECK(seen == runs[0].size());
  std::size_t k = 0;
  for (simdjson::dom::element r : doc["runs"].get_array()) {
    CHECK(r["best_at"].get_uint64().value() == best_at[k++]);
  }
}
