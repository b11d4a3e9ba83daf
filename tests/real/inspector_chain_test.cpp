// samples/inspector-chain-h200: nccl-tests' sendrecv_perf on one H200 (NCCL 2.28.9) three times —
// npkit alone, NCCL's Inspector alone, npkit with the Inspector chained (NPKIT_CHAIN_PLUGIN) — as
// scripts/chain-inspector-h200.sh ran them. Chaining must change neither plugin's output nor the
// job's results: npkit's dump holds the same records chained as alone and names the chained
// Inspector, the Inspector's logs are alike (empty: on one GPU NCCL emits no KernelCh event for a
// Send/Recv to itself, and the analyzer says what an empty log lacks), and nccl-tests printed the
// same rows, every one checked without error.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

const std::string kSample = "samples/inspector-chain-h200/runs/";

// What `info --format json` says of the run's one npkit dump.
struct DumpFacts {
  std::uint64_t written = 0;
  std::uint64_t dropped = 0;
  std::map<std::string, std::uint64_t> started;  // per event type
  std::uint64_t never_stopped = 0;
  std::string chained_plugin;
  std::string live_file;
};

DumpFacts dump_facts(const std::string& run_name) {
  const CliRun run = run_cli(
      {"info", require_path(source_path(kSample + run_name + "/npkit")), "--format", "json"});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(run.out).get(doc) == simdjson::SUCCESS);
  simdjson::dom::array files;
  REQUIRE(doc["details"]["files"].get(files) == simdjson::SUCCESS);
  REQUIRE(files.size() == 1);
  const simdjson::dom::element file = files.at(0);
  DumpFacts f;
  REQUIRE(file["records"]["written"].get(f.written) == simdjson::SUCCESS);
  REQUIRE(file["records"]["dropped"].get(f.dropped) == simdjson::SUCCESS);
  std::string_view text;
  REQUIRE(file["capture"]["chained_plugin"].get(text) == simdjson::SUCCESS);
  f.chained_plugin = text;
  REQUIRE(file["capture"]["live_file"].get(text) == simdjson::SUCCESS);
  f.live_file = text;
  for (simdjson::dom::element e : file["events"].get_array()) {
    std::string_view type;
    std::uint64_t started = 0;
    std::uint64_t never_stopped = 0;
    REQUIRE(e["type"].get(type) == simdjson::SUCCESS);
    REQUIRE(e["started"].get(started) == simdjson::SUCCESS);
    REQUIRE(e["never_stopped"].get(never_stopped) == simdjson::SUCCESS);
    f.started[std::string(type)] = started;
    f.never_stopped += never_stopped;
  }
  return f;
}

// The result rows nccl-tests printed: size, count, type, redop, root and both #wrong columns
// (times differ from run to run).
std::vector<std::string> result_rows(const std::string& run_name) {
  std::ifstream in(require_path(source_path(kSample + run_name + "/nccl-tests.txt")));
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);) {
    std::istringstream cells(line);
    std::vector<std::string> c;
    for (std::string cell; cells >> cell;) c.push_back(cell);
    if (c.size() != 13 || c[0].find_first_not_of("0123456789") != std::string::npos) continue;
    rows.push_back(c[0] + " " + c[1] + " " + c[2] + " " + c[3] + " " + c[4] + " " + c[8] + " " +
                   c[12]);
  }
  return rows;
}

TEST_CASE("inspector chain: npkit records the same with the Inspector chained", "[real]") {
  const DumpFacts alone = dump_facts("npkit-alone");
  const DumpFacts chained = dump_facts("chained");
  // Each sendrecv_perf iteration calls ncclSend and ncclRecv in one group: two P2pApi calls per
  // GroupApi; each group NCCL launches has its Send and Recv as two P2p events and one kernel.
  std::map<std::string, std::uint64_t> n = alone.started;
  CHECK(n.size() == 5);
  CHECK(n["Group"] > 100);
  CHECK(n["P2pApi"] == 2 * n["GroupApi"]);
  CHECK(n["P2p"] == 2 * n["Group"]);
  CHECK(n["KernelLaunch"] == n["Group"]);
  CHECK(alone.never_stopped == 0);
  CHECK(chained.started == alone.started);
  CHECK(chained.never_stopped == 0);
  CHECK(chained.written == alone.written);
  CHECK(alone.dropped == 0);
  CHECK(chained.dropped == 0);
  CHECK(alone.chained_plugin.empty());
  CHECK(chained.chained_plugin.rfind("Inspector (", 0) == 0);
  CHECK(chained.chained_plugin.find("/libnccl-profiler-inspector.so)") != std::string::npos);
  CHECK(alone.live_file == "on");
  CHECK(chained.live_file == "on");
}

TEST_CASE("inspector chain: the job's results do not change", "[real]") {
  const auto alone = result_rows("npkit-alone");
  REQUIRE(alone.size() == 6);  // 8 KiB .. 8 MiB, ×4
  CHECK(alone.front() == "8192 2048 float sum -1 0 N/A");
  CHECK(alone.back() == "8388608 2097152 float sum -1 0 N/A");
  CHECK(result_rows("inspector-alone") == alone);
  CHECK(result_rows("chained") == alone);
}

TEST_CASE("inspector chain: the Inspector logs alike chained and alone", "[real]") {
  for (const char* run_name : {"inspector-alone", "chained"}) {
    INFO(run_name);
    const std::string dir = require_path(source_path(kSample + run_name + "/inspector"));
    std::vector<std::filesystem::path> logs;
    for (const auto& e : std::filesystem::directory_iterator(dir)) logs.push_back(e.path());
    REQUIRE(logs.size() == 1);
    CHECK(logs[0].extension() == ".log");
    CHECK(std::filesystem::file_size(logs[0]) == 0);
    const CliRun run = run_cli({"bandwidth", dir});
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("holds only empty files (" + logs[0].filename().string() +
                       "); an NCCL Inspector log stays empty until the Inspector logs an "
                       "operation") != std::string::npos);
  }
}

}  // namespace
}  // namespace npkit::test
