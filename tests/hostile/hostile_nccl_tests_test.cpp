// Hostile input, nccl-tests results files: each damaged copy of the real results file
// samples/nccl-tests-h200/all_reduce_perf.json gets one error line naming the file, the byte
// offset (found in the damaged text itself) and the member and what was expected, and exit 2.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "hostile/hostile_run.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

std::string real_results() {
  std::ifstream in(require_path(source_path("samples/nccl-tests-h200/all_reduce_perf.json")));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `text` with the first `from` after `after` replaced by `to`; REQUIREs that it is there.
std::string edit(std::string text, const std::string& from, const std::string& to,
                 std::size_t after = 0) {
  const std::size_t at = text.find(from, after);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// Runs `info` on `text` written to $DIR/r.json; checks exit 2 and returns the error line.
std::string info_error(const TempDir& tmp, const std::string& text) {
  tmp.write_file("r.json", text);
  const CliRun run = run_hostile(tmp, {"info", "$DIR/r.json"});
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  return run.err;
}

std::string error_at(std::size_t offset, const std::string& what) {
  return "npkit-analyze: error: $DIR/r.json: offset " + std::to_string(offset) + ": " + what + "\n";
}

TEST_CASE("hostile nccl-tests: a file cut short names where it ends", "[hostile]") {
  TempDir tmp;
  const std::string text = real_results();
  const std::size_t cut = text.find("{\"size\":512");
  REQUIRE(cut != std::string::npos);
  const std::string err = info_error(tmp, text.substr(0, cut + 10));
  CHECK(err == error_at(cut + 10, "unexpected end of input (is the file cut short?)"));
}

TEST_CASE("hostile nccl-tests: a wrong type names the member and what it should be", "[hostile]") {
  TempDir tmp;
  const std::string text = edit(real_results(), "\"size\":32,", "\"size\":\"32\",");
  const std::size_t at = text.find("\"32\"");
  CHECK(info_error(tmp, text) == error_at(at, "results[1].size: expected a non-negative integer"));
  const std::string bw = edit(real_results(), "\"alg_bw\":0.001219", "\"alg_bw\":[1]");
  CHECK(info_error(tmp, bw) ==
        error_at(bw.find("[1]"), "results[0].out_of_place.alg_bw: expected a number"));
}

TEST_CASE("hostile nccl-tests: a missing member names the object that lacks it", "[hostile]") {
  TempDir tmp;
  const std::string text =
      edit(real_results(), "\"actual_iterations\":20,", "", real_results().find("\"size\":2048"));
  const std::size_t row = text.rfind('{', text.find("\"size\":2048"));
  CHECK(info_error(tmp, text) == error_at(row, "results[4]: missing field \"actual_iterations\""));
  const std::string no_time = edit(real_results(), "\"time\":6.565250,", "");
  const std::size_t placement = no_time.find("{\"alg_bw\"");
  CHECK(info_error(tmp, no_time) ==
        error_at(placement, "results[0].out_of_place: missing field \"time\" (or \"cpu_time\")"));
  const std::string no_config = edit(real_results(), "\"config\":", "\"configuration\":");
  CHECK(info_error(tmp, no_config) == error_at(0, "nccl-tests results: missing field \"config\""));
}

TEST_CASE("hostile nccl-tests: a newer format version is refused with the version named",
          "[hostile]") {
  TempDir tmp;
  CHECK(info_error(tmp, edit(real_results(), "{\"version\":3,", "{\"version\":4,")) ==
        error_at(11,
                 "version 4 is newer than the nccl-tests results versions this reader "
                 "knows (1 to 3)"));
  CHECK(info_error(tmp, edit(real_results(), "{\"version\":3,", "{\"version\":0,")) ==
        error_at(11, "version: expected an integer in [1, 9223372036854775807]"));
}

TEST_CASE("hostile nccl-tests: a root, a #wrong or a key that nccl-tests never writes",
          "[hostile]") {
  TempDir tmp;
  const std::string root = edit(real_results(), "\"root\":\"    -1\"", "\"root\":\"  next\"");
  CHECK(info_error(tmp, root) ==
        error_at(root.find("\"  next\""), "results[0].root: expected an integer (as \"    -1\")"));
  const std::string wrong = edit(real_results(), "\"nwrong\":0.000000", "\"nwrong\":-2.5");
  CHECK(info_error(tmp, wrong) ==
        error_at(wrong.find("-2.5"),
                 "results[0].out_of_place.nwrong: expected a whole number of wrong elements ≥ 0"));
  const std::string twice = edit(real_results(), "\"count\":2,", "\"count\":2,\"count\":2,");
  CHECK(info_error(tmp, twice) ==
        error_at(twice.find("\"count\":2,") + 10, "results[0]: duplicate field \"count\""));
}

TEST_CASE("hostile nccl-tests: garbage bytes and an empty results list", "[hostile]") {
  TempDir tmp;
  std::string garbage = real_results();
  const std::size_t at = garbage.find("NVIDIA H200");
  garbage[at] = static_cast<char>(0xFF);
  CHECK(info_error(tmp, garbage) == error_at(at, "invalid UTF-8"));
  const std::string text = real_results();
  const std::size_t open = text.find("\"results\":[") + 11;
  const std::size_t close = text.find("],\"out_of_bounds\"");
  const std::string empty = text.substr(0, open) + text.substr(close);
  CHECK(info_error(tmp, empty) ==
        "npkit-analyze: error: $DIR/r.json: the results array is empty (nccl-tests ended "
        "before its first size?)\n");
}

TEST_CASE("hostile nccl-tests: options that do not apply, a directory of results, --driver",
          "[hostile]") {
  TempDir tmp;
  tmp.write_file("r.json", real_results());
  CliRun run = run_hostile(tmp, {"report", "$DIR/r.json", "--ranks", "0"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        "npkit-analyze: error: --ranks 0: $DIR/r.json is a nccl-tests results file, whose times "
        "are over all ranks together\n");
  run = run_hostile(tmp, {"info", "$DIR/r.json", "--event-table", "nccl"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        "npkit-analyze: error: --event-table applies to dumps and traces; $DIR/r.json is a "
        "nccl-tests results file\n");
  tmp.write_file("both/a.json", real_results());
  tmp.write_file("both/b.json", real_results());
  run = run_hostile(tmp, {"info", "$DIR/both"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        "npkit-analyze: error: $DIR/both: holds nccl-tests results (a.json, b.json): give one "
        "results file as the input (summarize and compare take several)\n");
  tmp.write_file("trace.json", R"({"traceEvents":[]})");
  run = run_hostile(tmp, {"bandwidth", "$DIR/r.json", "--driver", "$DIR/trace.json"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        "npkit-analyze: error: --driver: $DIR/trace.json: offset 0: nccl-tests results: missing "
        "field \"version\"\n");
  run = run_hostile(tmp, {"trace", "$DIR/r.json", "-o", "$DIR/t.json"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        "npkit-analyze: error: $DIR/r.json is a nccl-tests results file: it holds one averaged "
        "time per size, no timestamps to trace\n");
}

}  // namespace
}  // namespace npkit::test
