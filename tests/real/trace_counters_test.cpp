// The busbw counters of `trace` on real captures agree with what `instances` says of the same
// run, computed here from its JSON lines: per rank, each timed member sets the counter to
// S / its time × the nccl-tests factor (AllReduce 2(n−1)/n; AllGather, ReduceScatter (n−1)/n;
// Broadcast, Reduce 1) at its start, back to 0 at its end, where members of a rank do not
// overlap (checked). Processes map to ranks by their names ("rank R ..."). The trace read as an
// input (its counters included, without a warning) gives the same bandwidth tables as the dump
// it came from.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/json_trace_slices.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace {

double factor(std::string_view func, double n) {
  if (func == "AllReduce") return 2 * (n - 1) / n;
  if (func == "AllGather" || func == "ReduceScatter") return (n - 1) / n;
  if (func == "Broadcast" || func == "Reduce") return 1;
  FAIL("no factor for " << func);
  return 0;
}

using Sample = std::pair<std::int64_t, std::int64_t>;  // ns after the origin, thousandths

// Per rank, the samples `instances` implies.
std::map<std::int64_t, std::vector<Sample>> expected_samples(const std::string& jsonl,
                                                             std::int64_t origin) {
  struct Member {
    std::int64_t start, end, thousandths;
  };
  std::map<std::int64_t, std::vector<Member>> by_rank;
  simdjson::dom::parser parser;
  std::istringstream lines(jsonl);
  for (std::string line; std::getline(lines, line);) {
    simdjson::dom::element r = parser.parse(line);
    const std::string_view func = r["func"].get_string();
    const auto bytes = static_cast<double>(r["bytes"].get_uint64().value());
    const auto n = static_cast<double>(r["nranks"].get_int64().value());
    for (simdjson::dom::element m : r["members"].get_array()) {
      if (!m["timed"].get_bool().value()) continue;
      const std::int64_t time = m["time_ns"].get_int64();
      const auto busbw = bytes / static_cast<double>(time) * factor(func, n);
      by_rank[m["rank"].get_int64()].push_back({m["start_ns"].get_int64().value() - origin,
                                                m["end_ns"].get_int64().value() - origin,
                                                std::llround(busbw * 1000)});
    }
  }
  std::map<std::int64_t, std::vector<Sample>> out;
  for (auto& [rank, members] : by_rank) {
    std::sort(members.begin(), members.end(),
              [](const Member& a, const Member& b) { return a.start < b.start; });
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i + 1 < members.size()) REQUIRE(members[i].end < members[i + 1].start);
      out[rank].emplace_back(members[i].start, members[i].thousandths);
      out[rank].emplace_back(members[i].end, 0);
    }
  }
  return out;
}

void check_counters(const std::string& input, std::size_t min_samples) {
  INFO(input);
  npkit::test::TempDir tmp;
  const std::string json = tmp.file("trace.json");
  REQUIRE(npkit::test::run_cli({"trace", input, "-o", json, "--quiet"}).exit_code == 0);
  const npkit::test::JsonTrace trace = npkit::test::read_json_trace(json);
  const auto instances = npkit::test::run_cli({"instances", input});
  REQUIRE(instances.exit_code == 0);
  const auto want = expected_samples(instances.out, trace.origin_ns);

  std::map<std::int64_t, std::vector<Sample>> got;
  for (const auto& c : trace.counters) {
    REQUIRE(c.track == "busbw GB/s");
    const std::string& process = trace.process_names.at(c.pid);
    REQUIRE(process.starts_with("rank "));
    const std::int64_t rank = std::stoll(process.substr(5));
    got[rank].emplace_back(static_cast<std::int64_t>(c.ts), std::llround(c.value * 1000));
  }
  std::size_t samples = 0;
  for (const auto& [rank, v] : got) samples += v.size();
  CHECK(samples >= min_samples);
  CHECK(got == want);
}

}  // namespace

TEST_CASE("trace counters: busbw per rank as instances computes it (plugin capture)", "[real]") {
  check_counters(npkit::test::source_path("samples/nccl-h200/agree/dump"), 400);
}

TEST_CASE("trace counters: busbw per rank as instances computes it (NPKit dump)", "[real]") {
  check_counters(npkit::test::source_path("samples/npkit-h200/ring_simple/dump"), 400);
}

TEST_CASE("trace counters: a trace read back reports as its dump", "[real]") {
  npkit::test::TempDir tmp;
  const std::string dump = npkit::test::source_path("samples/npkit-h200/ring_simple/dump");
  const std::string json = tmp.file("trace.json");
  REQUIRE(npkit::test::run_cli({"trace", dump, "-o", json, "--quiet"}).exit_code == 0);
  const npkit::test::JsonTrace trace = npkit::test::read_json_trace(json);
  REQUIRE(!trace.counters.empty());
  const auto from_dump = npkit::test::run_cli({"bandwidth", dump, "--coll", "allreduce"});
  const auto from_trace = npkit::test::run_cli({"bandwidth", json, "--coll", "allreduce"});
  REQUIRE(from_dump.exit_code == 0);
  INFO(from_trace.err);
  REQUIRE(from_trace.exit_code == 0);
  CHECK(from_trace.err.find("unexpected trace event") == std::string::npos);
  // The tables; the heading names the input and where its times come from.
  const auto tables = [](const std::string& out) { return out.substr(out.find("Collectives (")); };
  REQUIRE(from_dump.out.find("Collectives (") != std::string::npos);
  REQUIRE(from_trace.out.find("Collectives (") != std::string::npos);
  CHECK(tables(from_trace.out) == tables(from_dump.out));
}
