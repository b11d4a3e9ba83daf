// Every command × every input kind of the committed samples (docs/cli.md, "Inputs × commands"):
// legacy NPKit dumps (ring, tree, AlltoAll), .npkt plugin captures (agree, socket, torch), a
// device-recorder capture, NPKit's own generator trace, and npkit-analyze's trace of each;
// nccl-tests results files (samples/nccl-tests-h200); NCCL Inspector logs (the hand-made
// fixtures: verbose, and durations only).
// A cell passes when the command exits 0 with output and no warning text under -q, its JSON
// parses with the command's schema, and a file it writes is not empty. The refusals — `trace`
// of a trace of profiler events, which is a Chrome trace already, of nccl-tests results, which
// hold no timestamps, and of Inspector logs without start times — must say so; `diff` of a run
// with nothing to compare fails the gate and must say so. Across commands, a collective row has
// one time: the summary's time_ns, compare's and diff's equal the time `bandwidth` shows for that
// row (for nccl-tests results: the out-of-place time of its table).
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/dump_bytes_reader.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace {

using npkit::test::run_cli;

std::string input_path(const std::string& relative) {
  return npkit::test::require_path(npkit::test::source_path(relative));
}

std::uintmax_t file_size(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : n;
}

// Runs one cell; `schema` is the JSON schema the output must carry ("" for text).
void check_cell(std::vector<std::string> args, const std::string& schema = "") {
  args.push_back("-q");
  std::string cell;
  for (const auto& a : args) cell += a + " ";
  INFO("cell: " << cell);
  const auto run = run_cli(args);
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.empty());
  const auto o = std::find(args.begin(), args.end(), "-o");
  if (o != args.end()) {
    CHECK(file_size(*(o + 1)) > 0);
    return;
  }
  CHECK_FALSE(run.out.empty());
  if (schema.empty()) return;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(run.out).get(doc) == simdjson::SUCCESS);
  std::string_view name;
  REQUIRE(doc["schema"].get(name) == simdjson::SUCCESS);
  CHECK(name == schema);
}

simdjson::dom::element json_of(simdjson::dom::parser& parser, std::string& keep,
                               std::vector<std::string> args) {
  args.push_back("-q");
  const auto run = run_cli(args);
  REQUIRE(run.exit_code == 0);
  keep = run.out;
  return parser.parse(keep);
}

using RowKey = std::tuple<std::string, std::uint64_t, std::string, std::string>;

// bandwidth's time per (collective, S, algo, proto); a key two rows share is left out, and so is
// a row with host-disagree or short instances: summaries keep clean members only, bandwidth all.
std::map<RowKey, double> bandwidth_times(const std::string& input) {
  simdjson::dom::parser parser;
  std::string keep;
  const auto doc = json_of(parser, keep, {"bandwidth", input, "--format", "json"});
  std::map<RowKey, double> out;
  std::map<RowKey, int> seen;
  for (simdjson::dom::element r : doc["collectives"].get_array()) {
    double time = 0;
    if (r["time_ns"].get(time) != simdjson::SUCCESS) continue;
    bool flagged = false;
    for (simdjson::dom::element f : r["flags"].get_array()) {
      const std::string_view flag = f.get_string().value();
      flagged = flagged || flag.ends_with(" host-disagree") || flag.ends_with(" short");
    }
    const RowKey key{
        std::string(r["collective"].get_string().value()), r["size_bytes"].get_uint64().value(),
        std::string(r["algo"].get_string().value()), std::string(r["proto"].get_string().value())};
    if (++seen[key] == 1 && !flagged) out[key] = time;
  }
  for (const auto& [key, n] : seen) {
    if (n > 1) out.erase(key);
  }
  return out;
}

// The summary's, diff's and compare's time of each row equals bandwidth's.
void check_one_time_per_row(const std::string& input, const npkit::test::TempDir& dir) {
  INFO("input: " << input);
  const auto expected = bandwidth_times(input);
  const std::string summary = dir.file("summary.json");
  REQUIRE(run_cli({"summarize", input, "-o", summary, "-q"}).exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.load(summary);
  std::size_t compared = 0;
  for (simdjson::dom::element r : doc["collectives"].get_array()) {
    double time = 0;
    if (r["time_ns"].get(time) != simdjson::SUCCESS) continue;
    if (r["size_kind"].get_string().value() != "exact") continue;
    const RowKey key{
        std::string(r["collective"].get_string().value()), r["size_bytes"].get_uint64().value(),
        std::string(r["algo"].get_string().value()), std::string(r["proto"].get_string().value())};
    const auto it = expected.find(key);
    if (it == expected.end()) continue;
    INFO(std::get<0>(key) << " " << std::get<1>(key));
    CHECK(time == Approx(it->second).epsilon(1e-9));
    ++compared;
  }
  if (!expected.empty()) CHECK(compared > 0);

  simdjson::dom::parser diff_parser;
  std::string diff_text;
  const auto diff = json_of(
      diff_parser, diff_text,
      {"diff", summary, summary, "--format", "json", "--fail-on", "never", "--allow-empty"});
  for (simdjson::dom::element r : diff["collectives"].get_array()) {
    double time = 0;
    if (r["baseline_time_ns"].get(time) != simdjson::SUCCESS) continue;
    const RowKey key{std::string(r["collective"].get_string().value()),
                     r["size_bytes"].get_uint64().value(), "", ""};
    std::string_view choice = r["baseline_choice"].get_string().value();
    const auto slash = choice.find('/');
    const RowKey full{std::get<0>(key), std::get<1>(key), std::string(choice.substr(0, slash)),
                      slash == std::string_view::npos ? "" : std::string(choice.substr(slash + 1))};
    const auto it = expected.find(full);
    if (it != expected.end()) CHECK(time == Approx(it->second).epsilon(1e-9));
  }
}

// diff of a run against itself passes, unless the run holds nothing to test: then the gate
// fails (exit 1) and says so, and no row of the diff was tested (a results file's rows carry no
// iterations; flagged rows are not comparable).
void check_diff_cell(const std::string& input) {
  const auto run = run_cli({"diff", input, input, "-q"});
  INFO("diff " << input << ": " << run.out << run.err);
  if (run.exit_code == 0) {
    CHECK(run.err.empty());
    return;
  }
  REQUIRE(run.exit_code == 1);
  CHECK(run.out.find("nothing was compared") != std::string::npos);
  const auto json = run_cli({"diff", input, input, "--format", "json", "-q"});
  REQUIRE(json.exit_code == 1);
  simdjson::dom::parser parser;
  const simdjson::dom::element diff = parser.parse(json.out);
  for (const char* rows : {"collectives", "phases"}) {
    for (simdjson::dom::element r : diff[rows].get_array()) {
      const std::string_view verdict = r["verdict"].get_string().value();
      CHECK((verdict == "not tested" || verdict == "not comparable"));
    }
  }
}

// instances writes one line per instance bandwidth counts; none (no instance joined) only where
// bandwidth has no collective row either.
void check_instances_cell(const std::string& input) {
  INFO("cell: instances " << input);
  const auto run = run_cli({"instances", input, "-q"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.empty());
  std::size_t lines = 0;
  for (char c : run.out) lines += c == '\n' ? 1 : 0;
  simdjson::dom::parser parser;
  std::string keep;
  const auto bw = json_of(parser, keep, {"bandwidth", input, "--format", "json"});
  std::uint64_t instances = 0;
  for (simdjson::dom::element r : bw["collectives"].get_array()) {
    instances += r["instances"].get_uint64().value();
  }
  CHECK(lines == instances);
}

// The matrix for one input: every command and format. `trace_refusal`: what `trace` must say
// when it refuses the input ("" where it writes a trace).
void check_matrix(const std::string& input, const npkit::test::TempDir& dir,
                  const std::string& trace_refusal) {
  for (const std::string format : {"table", "csv", "md"}) {
    check_cell({"info", input, "--format", format});
    check_cell({"report", input, "--format", format});
    check_cell({"bandwidth", input, "--format", format});
  }
  check_cell({"info", input, "--format", "json"}, "npkit-analyze.info");
  check_cell({"report", input, "--format", "json"}, "npkit-analyze.report");
  check_cell({"bandwidth", input, "--format", "json"}, "npkit-analyze.bandwidth");
  check_cell({"bandwidth", input, "--view", "events"});
  check_cell({"bandwidth", input, "--per-rank"});
  check_cell({"report", input, "--format", "html", "-o", dir.file("report.html")});
  check_cell({"summarize", input});
  check_diff_cell(input);
  check_cell({"compare", input, input});
  check_instances_cell(input);
  const std::string trace = dir.file("again.json");
  if (!trace_refusal.empty()) {
    const auto run = run_cli({"trace", input, "-o", trace, "-q"});
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(trace_refusal) != std::string::npos);
  } else {
    check_cell({"trace", input, "-o", trace});
    check_cell({"trace", input, "-o", dir.file("again.pftrace")});
  }
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The input, then npkit-analyze's trace of it. A trace of profiler events is traced again as its
// collectives: one slice per timed member of the instances `instances` lists.
void check_input_and_its_trace(const std::string& relative, bool trace_of_profiler_events) {
  const std::string input = input_path(relative);
  const npkit::test::TempDir dir;
  check_matrix(input, dir, "");
  check_one_time_per_row(input, dir);
  const std::string trace = dir.file("trace.json");
  REQUIRE(run_cli({"trace", input, "-o", trace, "-q"}).exit_code == 0);
  check_matrix(trace, dir, "");
  check_one_time_per_row(trace, dir);
  if (trace_of_profiler_events) {
    const std::string again = dir.file("collectives.json");
    REQUIRE(run_cli({"trace", trace, "-o", again, "-q"}).exit_code == 0);
    const auto instances = run_cli({"instances", trace, "-q"});
    REQUIRE(instances.exit_code == 0);
    const std::size_t timed = occurrences(instances.out, "\"timed\":true");
    CHECK(timed > 0);
    CHECK(occurrences(npkit::test::read_whole_file(again), "\"cat\":\"collective\"") == timed);
  }
}

// A nccl-tests results file: its matrix, and the summary's time of each size is the out-of-place
// time of bandwidth's nccl-tests table (rounded to ns), which diff shows as the baseline's.
void check_nccl_tests_results(const std::string& relative) {
  const std::string input = input_path(relative);
  const npkit::test::TempDir dir;
  check_matrix(input, dir, "no timestamps to trace");
  simdjson::dom::parser bw_parser;
  std::string bw_text;
  const auto bw = json_of(bw_parser, bw_text, {"bandwidth", input, "--format", "json"});
  CHECK(bw["collectives"].get_array().size() == 0);
  std::map<std::uint64_t, double> driver;
  for (simdjson::dom::element r : bw["driver"]["rows"].get_array()) {
    driver[r["size_bytes"].get_uint64().value()] =
        r["out_of_place"]["time_ns"].get_double().value();
  }
  REQUIRE_FALSE(driver.empty());
  simdjson::dom::parser diff_parser;
  std::string diff_text;
  // A results file's rows carry no iterations, so nothing is tested: --allow-empty lets the gate
  // pass on the rows' times alone.
  const auto diff =
      json_of(diff_parser, diff_text, {"diff", input, input, "--format", "json", "--allow-empty"});
  std::size_t compared = 0;
  for (simdjson::dom::element r : diff["collectives"].get_array()) {
    const std::uint64_t size = r["size_bytes"].get_uint64().value();
    INFO("size " << size);
    CHECK(r["baseline_time_ns"].get_double().value() == std::round(driver.at(size)));
    ++compared;
  }
  CHECK(compared == driver.size());
}

}  // namespace

TEST_CASE("matrix: legacy NPKit ring dump and its trace", "[real][matrix]") {
  check_input_and_its_trace("samples/npkit-h200/ring_simple/dump", false);
}

TEST_CASE("matrix: legacy NPKit tree dump and its trace", "[real][matrix]") {
  check_input_and_its_trace("samples/npkit-h200/tree_simple/dump", false);
}

TEST_CASE("matrix: legacy NPKit AlltoAll dump and its trace", "[real][matrix]") {
  check_input_and_its_trace("samples/npkit-h200/alltoall/dump", false);
}

TEST_CASE("matrix: .npkt capture agree and its trace", "[real][matrix]") {
  check_input_and_its_trace("samples/nccl-h200/agree/dump", true);
}

TEST_CASE("matrix: .npkt capture socket and its trace", "[real][matrix]") {
  check_input_and_its_trace("samples/nccl-h200/socket/dump", true);
}

TEST_CASE("matrix: .npkt capture torch and its trace", "[real][matrix]") {
  check_input_and_its_trace("samples/nccl-h200/torch/dump", true);
}

TEST_CASE("matrix: device-recorder capture and its trace", "[real][matrix]") {
  check_input_and_its_trace("samples/device-h200/collectives/dump", false);
}

TEST_CASE("matrix: NPKit generator trace and our trace of it", "[real][matrix]") {
  check_input_and_its_trace(
      "tests/data/npkit-real/B_nccl2.20port-ring_2rank_cpu18B/npkit_event_trace.json", false);
}

TEST_CASE("matrix: nccl-tests results of all_reduce_perf", "[real][matrix]") {
  check_nccl_tests_results("samples/nccl-tests-h200/all_reduce_perf.json");
}

TEST_CASE("matrix: nccl-tests results of all_gather_perf", "[real][matrix]") {
  check_nccl_tests_results("samples/nccl-tests-h200/all_gather_perf.json");
}

TEST_CASE("matrix: NCCL Inspector logs, verbose and durations only", "[real][matrix]") {
  const npkit::test::TempDir dir;
  const std::string verbose = input_path("tests/data/inspector/two_ranks_verbose");
  check_matrix(verbose, dir, "");
  check_one_time_per_row(verbose, dir);
  const std::string durations = input_path("tests/data/inspector/durations_only");
  check_matrix(durations, dir, "no operation with a start time to trace");
  check_one_time_per_row(durations, dir);
}
