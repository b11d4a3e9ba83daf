// A windowed trace holds exactly the slices of the whole trace that overlap the window, with the
// same times: the window is computed here from the whole trace (a time span after its first event,
// or the GPU time of chosen AllReduce instances: their KernelCh slices, earliest start to latest
// end), the whole trace filtered by it, and compared with `trace --from/--to` and `trace
// --during --seq`. A trace past --max-size is refused and leaves no file.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "support/cli_runner.hpp"
#include "support/json_trace_slices.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace {

using npkit::test::PerfettoSlice;

std::vector<PerfettoSlice> overlapping(const std::vector<PerfettoSlice>& all, std::uint64_t from,
                                       std::uint64_t to) {
  std::vector<PerfettoSlice> out;
  for (const auto& s : all) {
    if (s.start_ns <= to && s.end_ns >= from) out.push_back(s);
  }
  return out;
}

void sort_slices(std::vector<PerfettoSlice>& v) {
  std::sort(v.begin(), v.end(), [](const PerfettoSlice& a, const PerfettoSlice& b) {
    return std::tie(a.pid, a.tid, a.start_ns, a.end_ns, a.name, a.args) <
           std::tie(b.pid, b.tid, b.start_ns, b.end_ns, b.name, b.args);
  });
}

void check_same(std::vector<PerfettoSlice> want, std::vector<PerfettoSlice> got) {
  REQUIRE(got.size() == want.size());
  sort_slices(want);
  sort_slices(got);
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("slice " << i << ": " << want[i].name << " at " << want[i].start_ns);
    REQUIRE(got[i].pid == want[i].pid);
    REQUIRE(got[i].tid == want[i].tid);
    REQUIRE(got[i].name == want[i].name);
    REQUIRE(got[i].start_ns == want[i].start_ns);
    REQUIRE(got[i].end_ns == want[i].end_ns);
    REQUIRE(got[i].args == want[i].args);
  }
}

npkit::test::JsonTrace trace_of(const std::vector<std::string>& args, const std::string& out) {
  std::vector<std::string> cmd = {"trace"};
  cmd.insert(cmd.end(), args.begin(), args.end());
  cmd.insert(cmd.end(), {"-o", out, "--quiet"});
  const auto run = npkit::test::run_cli(cmd);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return npkit::test::read_json_trace(out);
}

void check_time_window(const std::string& input) {
  INFO(input);
  npkit::test::TempDir tmp;
  const auto whole = trace_of({input}, tmp.file("whole.json"));
  std::vector<std::uint64_t> starts;
  for (const auto& s : whole.slices) starts.push_back(s.start_ns);
  std::sort(starts.begin(), starts.end());
  const std::uint64_t from = starts[starts.size() / 2];
  const std::uint64_t to = from + 200'000;
  const auto want = overlapping(whole.slices, from, to);
  REQUIRE(want.size() > 10);
  REQUIRE(want.size() < whole.slices.size());
  // --from and --to count from the trace's first event, which lies after a wall-clock origin.
  const auto first = static_cast<std::uint64_t>(whole.first_event_ns - whole.origin_ns);
  const std::uint64_t from_arg = from - first;
  const std::uint64_t to_arg = to - first;
  const auto part =
      trace_of({input, "--from", std::to_string(from_arg) + "ns", "--to",
                std::to_string(to_arg / 1000) + "." + std::to_string(to_arg % 1000 / 100) +
                    std::to_string(to_arg % 100 / 10) + std::to_string(to_arg % 10) + "us"},
               tmp.file("part.json"));
  CHECK(part.origin_ns == whole.origin_ns);
  check_same(want, part.slices);
}

}  // namespace

TEST_CASE("trace window: --from/--to keep the overlapping slices (legacy dump, capture)",
          "[real]") {
  check_time_window(npkit::test::source_path("samples/npkit-h200/ring_simple/dump"));
  check_time_window(npkit::test::source_path("samples/nccl-h200/agree/dump"));
}

TEST_CASE("trace window: --during --seq keep the instances' GPU time (H200 capture)", "[real]") {
  const std::string input = npkit::test::source_path("samples/nccl-h200/agree/dump");
  npkit::test::TempDir tmp;
  const auto whole = trace_of({input}, tmp.file("whole.json"));
  std::uint64_t lo = UINT64_MAX;
  std::uint64_t hi = 0;
  std::size_t kernels = 0;
  for (const auto& s : whole.slices) {
    if (s.category != "gpu" || s.args.count("func") == 0 || s.args.at("func") != "AllReduce")
      continue;
    const auto seq = std::stoull(s.args.at("seq"));
    if (seq < 10 || seq > 12) continue;
    lo = std::min(lo, s.start_ns);
    hi = std::max(hi, s.end_ns);
    ++kernels;
  }
  REQUIRE(kernels >= 3);
  const auto want = overlapping(whole.slices, lo, hi);
  const auto part =
      trace_of({input, "--during", "allreduce", "--seq", "10:12"}, tmp.file("part.json"));
  check_same(want, part.slices);
}

TEST_CASE("trace window: a trace past --max-size is refused and leaves no file", "[real]") {
  npkit::test::TempDir tmp;
  const std::string out = tmp.file("big.json");
  const auto run = npkit::test::run_cli(
      {"trace", npkit::test::source_path("samples/npkit-h200/ring_simple/dump"), "-o", out,
       "--max-size", "100K", "--quiet"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("grew past --max-size 100K") != std::string::npos);
  CHECK(run.err.find("--during allreduce --seq") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK_FALSE(std::filesystem::exists(out + ".tmp"));
}
