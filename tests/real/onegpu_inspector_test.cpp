// NVIDIA's Inspector, alone and chained under npkit (NPKIT_CHAIN_PLUGIN), on the same 4-rank
// NCCL 2.30.7 workload on one H200 (samples/onegpu-h200/nccl-2.30.7/inspector). Outside oracles:
// the Inspector's own logs, read here line by line (not through the analyzer), and the driver's
// calls logs. Chaining must change neither plugin's records: the Inspector logs as many records
// chained as alone, one per call the driver made (every size is above the Inspector's 8192 B
// minimum); and per operation and rank, the Inspector's execution time agrees within 1 % with
// npkit's GPU span of the same run — or within 1.5 µs where 1 % is less: the Inspector times its
// longest channel and writes whole µs (cut, not rounded), npkit spans the first channel's start to
// the last one's stop, and the channels of one kernel start up to a µs apart.
#include <simdjson.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "real/onegpu_logs.hpp"
#include "support/cli_runner.hpp"

namespace npkit::test {
namespace {

namespace fs = std::filesystem;

using OpKey = std::tuple<std::string, std::uint64_t, std::int64_t>;  // func, seq, rank

std::string run_dir(const std::string& run) {
  return onegpu_run_dir("2.30.7", "inspector/" + run);
}

// coll_exec_time_us per (coll, coll_sn, rank) of every coll_perf line of a run's Inspector logs.
std::map<OpKey, double> inspector_times(const std::string& dir) {
  std::map<OpKey, double> out;
  simdjson::dom::parser parser;
  for (const auto& entry : fs::directory_iterator(dir + "/inspector")) {
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      const simdjson::dom::element record = parser.parse(line);
      simdjson::dom::element perf;
      if (record["coll_perf"].get(perf) != simdjson::SUCCESS) continue;
      const OpKey key{std::string(perf["coll"].get_string().value()),
                      perf["coll_sn"].get_uint64().value(),
                      record["header"]["rank"].get_int64().value()};
      out[key] = perf["coll_exec_time_us"].get_double().value();
    }
  }
  return out;
}

// The calls every rank made, from the driver's calls logs (one row per call, a second after its
// stream synchronize).
std::size_t driver_calls(const std::string& dir) {
  std::size_t calls = 0;
  for (const auto& entry : fs::directory_iterator(dir + "/calls")) {
    if (entry.path().filename().string().rfind("calls_rank", 0) != 0) continue;
    std::ifstream in(entry.path());
    std::string line;
    std::getline(in, line);
    std::set<std::string> seen;  // "rank,call"
    while (std::getline(in, line)) seen.insert(line.substr(0, line.find(',', line.find(',') + 1)));
    calls += seen.size();
  }
  return calls;
}

// npkit's GPU time (µs) per (func, seq, rank) of a dump, from `instances`.
std::map<OpKey, double> npkit_times(const std::string& dump) {
  const CliRun run = run_cli({"instances", dump, "--quiet"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  std::map<OpKey, double> out;
  simdjson::dom::parser parser;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    const simdjson::dom::element inst = parser.parse(line);
    const std::string func(inst["func"].get_string().value());
    const std::uint64_t seq = inst["seq"].get_uint64().value();
    for (auto m : inst["members"].get_array()) {
      double ns = 0;
      if (m["time_ns"].get(ns) != simdjson::SUCCESS) continue;
      out[{func, seq, m["rank"].get_int64().value()}] = ns / 1000.0;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("onegpu Inspector: the same records alone and chained, one per driver call",
          "[real][inspector]") {
  const std::string alone = run_dir("inspector-alone");
  const std::string chained = run_dir("chained");
  const auto alone_times = inspector_times(alone);
  const auto chained_times = inspector_times(chained);
  CHECK(alone_times.size() == driver_calls(alone));
  CHECK(chained_times.size() == driver_calls(chained));
  CHECK(alone_times.size() == chained_times.size());
  REQUIRE(alone_times.size() == 96);  // 4 ranks x 2 collectives x 2 sizes x 6 calls
  for (const auto& [key, time] : alone_times) CHECK(chained_times.count(key) == 1);
}

TEST_CASE("onegpu Inspector: its times agree with npkit's within 1 % on the chained run",
          "[real][inspector]") {
  const std::string chained = run_dir("chained");
  const auto theirs = inspector_times(chained);
  const auto ours = npkit_times(chained + "/dump");
  REQUIRE(theirs.size() == 96);
  std::size_t compared = 0;
  for (const auto& [key, inspector_us] : theirs) {
    const auto it = ours.find(key);
    INFO(std::get<0>(key) << " seq " << std::get<1>(key) << " rank " << std::get<2>(key));
    REQUIRE(it != ours.end());
    CHECK(std::abs(it->second - inspector_us) <= std::max(0.01 * inspector_us, 1.5));
    ++compared;
  }
  CHECK(compared == ours.size());
}

TEST_CASE("onegpu Inspector: its communicator id reads as the start of the capture's",
          "[real][inspector]") {
  // The Inspector writes "0x" and the first 14 hex digits of NCCL's hash; the chained run's
  // capture of the same communicator holds all 16. Shown as written, one is a prefix of the other.
  auto comm_of = [](const std::string& path) {
    const CliRun run = run_cli({"bandwidth", path, "--format", "json", "--quiet"});
    REQUIRE(run.exit_code == 0);
    simdjson::dom::parser parser;
    return std::string(parser.parse(run.out)["communicators"].at(0)["comm"].get_string().value());
  };
  const std::string inspector = comm_of(run_dir("chained") + "/inspector");
  const std::string capture = comm_of(run_dir("chained") + "/dump");
  CHECK(inspector.size() == 14);
  CHECK(capture.size() == 16);
  CHECK(capture.substr(0, 14) == inspector);
}

}  // namespace npkit::test
