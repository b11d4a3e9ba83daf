// The real nccl-tests results files of samples/nccl-tests-h200 (nccl-tests 2.19.6 on one H200),
// read through the CLI and checked against the same runs' text tables (<test>.txt, what
// nccl-tests printed): every size, count, type, redop, root, time, algbw, busbw and #wrong,
// within the rounding of the printed digits. And `bandwidth --driver` on the 2×H200 agree
// capture with its driver's table (driver.csv) written as a results file.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

// A printed number and half a unit of its last digit.
struct Printed {
  double value = 0;
  double tolerance = 0;
};

Printed printed(const std::string& token) {
  const std::size_t dot = token.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(token.size() - dot - 1);
  return {std::stod(token), 0.5 * std::pow(10.0, -decimals) + 1e-9};
}

struct TextRow {
  std::vector<std::string> cells;  // size count type redop root, then time algbw busbw #wrong ×2
};

// The result lines of a nccl-tests text table (the lines that do not start with '#').
std::vector<TextRow> text_rows(const std::string& path) {
  std::ifstream in(require_path(path));
  std::vector<TextRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.find('#') != std::string::npos) continue;
    std::istringstream cells(line);
    TextRow r;
    for (std::string c; cells >> c;) r.cells.push_back(c);
    if (r.cells.size() == 13) rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::istringstream s(line);
    for (std::string c; std::getline(s, c, ',');) cells.push_back(c);
    if (line.back() == ',') cells.push_back("");
    rows.push_back(std::move(cells));
  }
  return rows;
}

void check_close(const std::string& ours, const std::string& theirs, double scale) {
  INFO("ours " << ours << " × " << scale << ", printed " << theirs);
  const Printed p = printed(theirs);
  CHECK(std::abs(std::stod(ours) * scale - p.value) <= p.tolerance);
}

void check_sample(const std::string& test, const std::string& collective) {
  const std::string base = "samples/nccl-tests-h200/" + test;
  const auto text = text_rows(source_path(base + ".txt"));
  REQUIRE(text.size() == 12);
  const CliRun run = run_cli({"bandwidth", source_path(base + ".json"), "--format", "csv"});
  REQUIRE(run.exit_code == 0);
  const auto rows = csv_rows(run.out);
  REQUIRE(rows.size() == text.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& ours = rows[i];
    const auto& theirs = text[i].cells;
    INFO("row " << i);
    REQUIRE(ours.size() == 15);
    CHECK(ours[0] == collective);
    CHECK(ours[1] == theirs[0]);  // size (B)
    CHECK(ours[2] == theirs[1]);  // count
    CHECK(ours[3] == "ncclFloat32");
    CHECK(theirs[2] == "float");
    CHECK(ours[4] == theirs[3]);  // redop
    CHECK(ours[5] == theirs[4]);  // root
    CHECK(ours[6] == "1");        // one pass
    for (int p = 0; p < 2; ++p) {
      const std::size_t o = 7 + 4 * p;
      const std::size_t t = 5 + 4 * p;
      check_close(ours[o], theirs[t], 1e-3);  // ns -> the printed us
      check_close(ours[o + 1], theirs[t + 1], 1.0);
      check_close(ours[o + 2], theirs[t + 2], 1.0);
      CHECK(ours[o + 3] == theirs[t + 3]);  // #wrong
    }
  }
}

TEST_CASE("nccl-tests samples: every row equals the text table nccl-tests printed", "[real]") {
  check_sample("all_reduce_perf", "AllReduce");
  check_sample("all_gather_perf", "AllGather");
}

TEST_CASE("nccl-tests samples: summarize holds each size's printed out-of-place time", "[real]") {
  const std::string base = "samples/nccl-tests-h200/all_reduce_perf";
  const auto text = text_rows(source_path(base + ".txt"));
  const CliRun run = run_cli({"summarize", source_path(base + ".json")});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(run.out);
  simdjson::dom::array rows = doc["collectives"];
  REQUIRE(rows.size() == text.size());
  std::size_t i = 0;
  for (simdjson::dom::element row : rows) {
    INFO("row " << i);
    CHECK(std::string_view(row["collective"]) == "AllReduce");
    CHECK(int64_t(row["nranks"]) == 1);
    CHECK(std::to_string(uint64_t(row["size_bytes"])) == text[i].cells[0]);
    CHECK(uint64_t(row["instances"]) == 1);
    simdjson::dom::array ranks = row["ranks"];
    REQUIRE(ranks.size() == 1);
    simdjson::dom::array values = (*ranks.begin())["time_ns"]["values"];
    REQUIRE(values.size() == 1);
    // The rounded ns; the printed us has two decimals (6.57 for 6565 ns).
    check_close(std::to_string(int64_t(*values.begin())), text[i].cells[5], 1e-3);
    ++i;
  }
}

TEST_CASE("nccl-tests --driver: the agree capture beside its driver's own table", "[real]") {
  // tests/data/nccl-tests/agree-driver.json holds driver.csv's times for 1..64 MiB (and an 8 B
  // row the capture lacks); the capture's 256 MiB has no driver row.
  std::map<std::uint64_t, double> driver_us;
  std::ifstream csv(require_path(source_path("samples/nccl-h200/agree/driver.csv")));
  std::string line;
  std::getline(csv, line);
  while (std::getline(csv, line)) {
    std::vector<std::string> c;
    std::istringstream s(line);
    for (std::string x; std::getline(s, x, ',');) c.push_back(x);
    driver_us[std::stoull(c[1])] = std::stod(c[5]);
  }
  REQUIRE(driver_us.size() == 5);
  const CliRun run = run_cli({"bandwidth", source_path("samples/nccl-h200/agree/dump"), "--driver",
                              data_path("nccl-tests/agree-driver.json"), "--format", "json"});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(run.out);
  std::map<std::uint64_t, double> our_time;
  for (simdjson::dom::element r : simdjson::dom::array(doc["collectives"])) {
    our_time[uint64_t(r["size_bytes"])] = double(r["time_ns"]);
  }
  simdjson::dom::element cmp = doc["driver_comparison"];
  std::size_t matched = 0;
  for (simdjson::dom::element r : simdjson::dom::array(cmp["rows"])) {
    const std::uint64_t size = uint64_t(r["size_bytes"]);
    INFO("size " << size);
    if (size == 268435456) {
      CHECK(uint64_t(r["driver_rows"]) == 0);
      continue;
    }
    ++matched;
    CHECK(uint64_t(r["driver_rows"]) == 1);
    CHECK(double(r["driver_time_ns"]) == Approx(driver_us.at(size) * 1e3));
    CHECK(double(r["time_ratio"]) == Approx(driver_us.at(size) * 1e3 / our_time.at(size)));
  }
  CHECK(matched == 4);
  simdjson::dom::array unmatched = cmp["unmatched_driver"];
  REQUIRE(unmatched.size() == 1);
  CHECK(uint64_t((*unmatched.begin())["size_bytes"]) == 8);
}

}  // namespace
}  // namespace npkit::test
