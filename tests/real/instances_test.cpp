// `instances` and `bandwidth` tell one story: from the exported JSON lines alone, grouping the
// instances into bandwidth's rows (func, S, algo, proto, type) and taking per rank the median
// member time, averaged over ranks, gives bandwidth's time; the median of the instances' true
// times its true time; and every member's time is its end minus its start. Checked on a plugin
// capture and a legacy NPKit dump of the H200 samples.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

using RowKey = std::tuple<std::string, std::uint64_t, std::string, std::string, std::string>;

struct Row {
  std::map<std::int64_t, std::vector<double>> rank_times;
  std::vector<double> true_times;
  std::uint64_t instances = 0;
};

void check_against_bandwidth(const std::string& input) {
  INFO(input);
  const auto exported = npkit::test::run_cli({"instances", input, "--quiet"});
  REQUIRE(exported.exit_code == 0);
  std::map<RowKey, Row> rows;
  simdjson::dom::parser parser;
  std::istringstream lines(exported.out);
  std::string line;
  std::size_t records = 0;
  while (std::getline(lines, line)) {
    simdjson::dom::element r = parser.parse(line);
    REQUIRE(std::string_view(r["schema"].get_string()) == "npkit-analyze.instance");
    ++records;
    Row& row = rows[{std::string(r["func"].get_string().value()), r["bytes"].get_uint64(),
                     std::string(r["algo"].get_string().value()),
                     std::string(r["proto"].get_string().value()),
                     std::string(r["type"].get_string().value())}];
    ++row.instances;
    for (simdjson::dom::element m : r["members"].get_array()) {
      if (!m["timed"].get_bool()) continue;
      const std::int64_t time = m["time_ns"].get_int64();
      CHECK(time == m["end_ns"].get_int64().value() - m["start_ns"].get_int64().value());
      row.rank_times[m["rank"].get_int64()].push_back(static_cast<double>(time));
    }
    if (!r["true_time_ns"].is_null()) {
      row.true_times.push_back(static_cast<double>(r["true_time_ns"].get_int64().value()));
    }
  }
  REQUIRE(records > 10);

  const auto bw = npkit::test::run_cli({"bandwidth", input, "--format", "json", "--quiet"});
  REQUIRE(bw.exit_code == 0);
  simdjson::dom::parser bw_parser;
  simdjson::dom::element doc = bw_parser.parse(bw.out);
  std::size_t compared = 0;
  for (simdjson::dom::element c : doc["collectives"].get_array()) {
    const RowKey key{std::string(c["collective"].get_string().value()),
                     c["size_bytes"].get_uint64(), std::string(c["algo"].get_string().value()),
                     std::string(c["proto"].get_string().value()),
                     std::string(c["type"].get_string().value())};
    INFO(std::get<0>(key) << " " << std::get<1>(key));
    REQUIRE(rows.count(key) == 1);
    const Row& row = rows.at(key);
    CHECK(row.instances == c["instances"].get_uint64().value());
    double sum = 0;
    for (const auto& [rank, times] : row.rank_times) sum += median(times);
    CHECK(sum / static_cast<double>(row.rank_times.size()) ==
          Approx(c["time_ns"].get_double().value()).epsilon(1e-9));
    if (!row.true_times.empty()) {
      CHECK(median(row.true_times) == Approx(c["true_time_ns"].get_double().value()));
    }
    ++compared;
  }
  CHECK(compared == rows.size());
}

}  // namespace

TEST_CASE("instances agree with bandwidth: H200 plugin capture", "[real]") {
  check_against_bandwidth(npkit::test::source_path("samples/nccl-h200/agree/dump"));
  check_against_bandwidth(npkit::test::source_path("samples/nccl-h200/proto-simple/dump"));
}

TEST_CASE("instances agree with bandwidth: H200 legacy NPKit dump", "[real]") {
  check_against_bandwidth(npkit::test::source_path("samples/npkit-h200/ring_simple/dump"));
}
