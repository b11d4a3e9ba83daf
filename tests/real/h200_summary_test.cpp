// `summarize` of the real H200 legacy dumps against a second reading of their raw records
// (h200_raw_spans.hpp, no analyzer code):
//  - one AllReduce row per size the driver ran (17), 6 instances each (1 warm-up + 5 timed,
//    samples/npkit-h200/SOURCE.txt), and each rank's sample holds exactly the rank's durations;
//  - the sync rows: per instance, each rank's start minus the earliest start, and how often the
//    rank started last — in ring_simple rank 0 starts last at 95 of the 102 instances (93 %, as
//    the cross-rank report of the same dump shows).
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "real/h200_raw_spans.hpp"
#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace {

std::vector<std::int64_t> sample_values(simdjson::dom::element sample) {
  std::vector<std::int64_t> out;
  for (simdjson::dom::element v : sample["values"].get_array()) out.push_back(v.get_int64());
  std::sort(out.begin(), out.end());
  return out;
}

struct RankSync {
  std::uint64_t instances = 0;
  std::uint64_t arrived_last = 0;
  std::vector<std::int64_t> skew;
};

void check_summary(const std::string& set, const std::string& algo, int entry_id,
                   std::optional<std::uint64_t> rank0_last) {
  const std::string dump =
      npkit::test::require_path(npkit::test::source_path("samples/npkit-h200/" + set + "/dump"));
  const auto raw = npkit::test::h200_raw_spans_by_size(dump, entry_id);
  REQUIRE(raw.size() == 17);
  std::map<int, RankSync> sync;
  for (const auto& [size, ranks] : raw) {
    REQUIRE(ranks.size() == 2);
    for (std::size_t k = 0; k < ranks.at(0).size(); ++k) {
      const std::int64_t first = std::min(ranks.at(0)[k].start, ranks.at(1)[k].start);
      const std::int64_t last = std::max(ranks.at(0)[k].start, ranks.at(1)[k].start);
      for (const int r : {0, 1}) {
        RankSync& s = sync[r];
        ++s.instances;
        if (ranks.at(r)[k].start == last) ++s.arrived_last;
        s.skew.push_back(ranks.at(r)[k].start - first);
      }
    }
  }

  const auto run = npkit::test::run_cli({"summarize", dump, "--quiet"});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(run.out);
  std::size_t rows = 0;
  for (simdjson::dom::element row : doc["collectives"].get_array()) {
    const std::uint64_t size = row["size_bytes"].get_uint64();
    INFO(set << " size " << size);
    REQUIRE(raw.count(size) == 1);
    CHECK(row["collective"].get_string().value() == "AllReduce");
    CHECK(row["algo"].get_string().value() == algo);
    CHECK(row["instances"].get_uint64().value() == 6);
    for (simdjson::dom::element rank : row["ranks"].get_array()) {
      const int r = static_cast<int>(rank["rank"].get_int64().value());
      std::vector<std::int64_t> expected;
      for (const auto& span : raw.at(size).at(r)) expected.push_back(span.end - span.start);
      std::sort(expected.begin(), expected.end());
      CHECK(sample_values(rank["time_ns"]) == expected);
    }
    ++rows;
  }
  CHECK(rows == 17);

  std::size_t sync_rows = 0;
  for (simdjson::dom::element s : doc["sync"].get_array()) {
    const int r = static_cast<int>(s["rank"].get_int64().value());
    INFO(set << " rank " << r);
    CHECK(s["nranks"].get_int64().value() == 2);
    CHECK(s["instances"].get_uint64().value() == sync.at(r).instances);
    CHECK(s["arrived_last"].get_uint64().value() == sync.at(r).arrived_last);
    std::sort(sync.at(r).skew.begin(), sync.at(r).skew.end());
    CHECK(sample_values(s["skew_ns"]) == sync.at(r).skew);
    ++sync_rows;
  }
  CHECK(sync_rows == 2);
  CHECK(sync.at(0).instances == 102);
  if (rank0_last) CHECK(sync.at(0).arrived_last == *rank0_last);
}

}  // namespace

TEST_CASE("summarize of the H200 ring dump: rows and sync equal a raw recount", "[real][summary]") {
  check_summary("ring_simple", "RING", 0x01, 95);
}

TEST_CASE("summarize of the H200 tree dump: rows and sync equal a raw recount", "[real][summary]") {
  check_summary("tree_simple", "TREE_SPLIT", 0x05, std::nullopt);
}
