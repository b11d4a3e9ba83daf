// `report` on the real H200 dumps against a second, deliberately simple computation made here:
// these dumps nest at most one level and alternate ENTRY/EXIT per buffer, so each phase's time
// is the sum of (EXIT ticks − ENTRY ticks) of its events, converted at the 1,980,000 kHz rate
// of gpu_clock_rate (ours converts each endpoint to integer ns, so totals may differ by up
// to 1 ns per span). What the report must hold comes from the dump's own files, not from the
// report: exactly the ranks that have gpu_events_rank_<R>_buf_<B> files, and for each rank
// every phase whose event ids occur in its buffers (and no other phase but "other"); and the
// waiting inside the phases (check_waits).
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

constexpr double kTicksPerNs = 1.98;  // 1,980,000 kHz

struct Expected {
  std::map<std::string, double> phase_ns;  // per phase whose ids occur in the rank's buffers
  std::map<std::string, std::uint64_t> spans;
  double collective_ns = 0;
};

std::uint64_t le64(const std::string& b, std::size_t off) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b[off + i]);
  return v;
}

// rank → expected totals; `phase_of` maps an ENTRY id to its phase ("" for the envelope).
std::map<int, Expected> independent(const std::string& dump,
                                    const std::map<int, std::string>& phase_of,
                                    int envelope_entry) {
  std::map<int, Expected> out;
  for (const auto& e : fs::directory_iterator(dump)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("gpu_events_rank_", 0) != 0) continue;
    const int rank = std::stoi(name.substr(16));
    std::ifstream in(e.path(), std::ios::binary);
    const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    out[rank];  // a rank with buffer files is expected in the report, even with no pair
    std::map<int, std::uint64_t> open;
    for (std::size_t off = 0; off + 16 <= b.size(); off += 16) {
      const int id = static_cast<unsigned char>(b[off]);
      const std::uint64_t ts = le64(b, off + 8);
      const bool is_entry = phase_of.count(id) || id == envelope_entry;
      const bool is_exit = phase_of.count(id - 1) || id - 1 == envelope_entry;
      if (is_entry) open[id] = ts;
      if (!is_exit) continue;
      const double ns = static_cast<double>(ts - open.at(id - 1)) / kTicksPerNs;
      Expected& x = out[rank];
      if (id - 1 == envelope_entry) {
        x.collective_ns += ns;
      } else {
        x.phase_ns[phase_of.at(id - 1)] += ns;
        x.spans[phase_of.at(id - 1)] += 1;
      }
    }
  }
  return out;
}

// Waiting inside phases: with every instance on both ranks compared, a rank's phase time there is
// its whole phase time (the independent sum); with two ranks, the least of each instance is one
// of them, so rank 1's waiting minus rank 0's is rank 1's time minus rank 0's, exactly (a phase
// only one rank runs has no waiting); the rows per size add up to the rank's.
void check_waits(simdjson::dom::element doc, const std::map<int, Expected>& expected,
                 bool collectives) {
  simdjson::dom::element w = doc["phase_waits"];
  if (!collectives) {
    CHECK(w["instances"].get_uint64().value() == 0);
    return;
  }
  CHECK(w["instances"].get_uint64().value() > 0);
  std::map<std::pair<int, std::string>, std::pair<std::int64_t, std::int64_t>> rows;
  for (simdjson::dom::element r : w["ranks"].get_array()) {
    rows[{static_cast<int>(r["rank"].get_int64().value()),
          std::string(r["phase"].get_string().value())}] = {r["time_ns"].get_int64().value(),
                                                            r["wait_ns"].get_int64().value()};
  }
  std::map<std::pair<int, std::string>, std::pair<std::int64_t, std::int64_t>> sums;
  for (simdjson::dom::element r : w["sizes"].get_array()) {
    auto& sum = sums[{static_cast<int>(r["rank"].get_int64().value()),
                      std::string(r["phase"].get_string().value())}];
    sum.first += r["time_ns"].get_int64().value();
    sum.second += r["wait_ns"].get_int64().value();
  }
  CHECK(sums == rows);
  for (const auto& [phase, ns] : expected.at(0).phase_ns) {
    INFO("phase " << phase);
    REQUIRE(rows.count({0, phase}) == 1);
    if (expected.at(1).phase_ns.count(phase) == 0) {
      CHECK(rows.at({0, phase}).second == 0);  // only rank 0 runs it: nothing to compare with
      continue;
    }
    REQUIRE(rows.count({1, phase}) == 1);
    for (const int rank : {0, 1}) {
      const double tolerance = 2.0 * static_cast<double>(expected.at(rank).spans.at(phase)) + 2;
      CHECK(std::abs(static_cast<double>(rows.at({rank, phase}).first) -
                     expected.at(rank).phase_ns.at(phase)) <= tolerance);
    }
    const auto [t0, w0] = rows.at({0, phase});
    const auto [t1, w1] = rows.at({1, phase});
    CHECK(w1 - w0 == t1 - t0);
    CHECK(std::min(w0, w1) >= 0);
  }
}

void compare(const std::string& set, const std::map<int, std::string>& phase_of,
             int envelope_entry) {
  const std::string dump =
      npkit::test::require_path(npkit::test::source_path("samples/npkit-h200/" + set + "/dump"));
  const auto expected = independent(dump, phase_of, envelope_entry);
  std::set<int> expected_ranks;
  for (const auto& [rank, x] : expected) expected_ranks.insert(rank);
  REQUIRE(expected_ranks == std::set<int>{0, 1});  // 2 × H200: both ranks wrote buffers
  const auto run = npkit::test::run_cli({"report", dump, "--format", "json", "--quiet"});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(run.out);
  std::set<int> reported_ranks;
  for (simdjson::dom::element r : doc["ranks"].get_array()) {
    reported_ranks.insert(static_cast<int>(r["rank"].get_int64().value()));
  }
  REQUIRE(reported_ranks == expected_ranks);
  check_waits(doc, expected, envelope_entry >= 0);
  for (simdjson::dom::element r : doc["ranks"].get_array()) {
    const int rank = static_cast<int>(r["rank"].get_int64().value());
    const Expected& x = expected.at(rank);
    std::set<std::string> expected_phases;
    for (const auto& [phase, ns] : x.phase_ns) expected_phases.insert(phase);
    REQUIRE_FALSE(expected_phases.empty());
    std::set<std::string> reported_phases;
    for (simdjson::dom::element p : r["phases"].get_array()) {
      const std::string name(p["name"].get_string().value());
      if (name != "other") reported_phases.insert(name);
    }
    INFO(set << " rank " << rank);
    REQUIRE(reported_phases == expected_phases);
    std::uint64_t total_spans = 0;
    double explained = 0;
    for (const auto& [phase, n] : x.spans) total_spans += n;
    const double tolerance = 2.0 * static_cast<double>(total_spans) + 2;
    for (simdjson::dom::element p : r["phases"].get_array()) {
      const std::string name(p["name"].get_string().value());
      const double ns = static_cast<double>(p["ns"].get_int64().value());
      INFO(set << " rank " << rank << " phase " << name);
      if (name == "other") continue;
      REQUIRE(x.phase_ns.count(name) == 1);
      CHECK(std::abs(ns - x.phase_ns.at(name)) <= tolerance);
      CHECK(p["count"].get_uint64().value() == x.spans.at(name));
      explained += ns;
    }
    const double collective = static_cast<double>(r["gpu_collective_ns"].get_int64().value());
    if (envelope_entry >= 0) {
      INFO(set << " rank " << rank << " collective time");
      CHECK(std::abs(collective - x.collective_ns) <= tolerance);
    } else {
      CHECK(std::abs(collective - explained) <= tolerance);  // p2p events are the top level
    }
  }
}

}  // namespace

TEST_CASE("H200 ring report matches an independent sum of step events", "[real][phases]") {
  compare("ring_simple", {{0x35, "reduce_scatter"}, {0x39, "reduce_scatter"}, {0x3D, "all_gather"}},
          0x01);
}

TEST_CASE("H200 tree report matches an independent sum of split-tree events", "[real][phases]") {
  compare("tree_simple", {{0x43, "reduce_broadcast"}, {0x45, "reduce"}, {0x47, "broadcast"}}, 0x05);
}

TEST_CASE("H200 alltoall report matches an independent sum of send/recv events", "[real][phases]") {
  compare("alltoall", {{0x49, "local_copy"}, {0x4B, "p2p_send"}, {0x4D, "p2p_recv"}}, -1);
}
