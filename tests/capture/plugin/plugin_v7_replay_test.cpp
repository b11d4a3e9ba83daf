// A job of two ranks under NCCL 2.31's profiler API v7, replayed through the plugin's
// ncclProfiler_v7 in the order NCCL 2.31.2's src/plugin/profiler.cc and src/enqueue.cc make the
// calls (v7_driver.hpp): per call, the application thread's GroupApi/CollApi/KernelLaunch/Group/
// Coll events, then the profiler thread's KernelCh events with their KernelPhase children. Three
// AllReduce of 4 MiB (two tagged 7, one untagged) and a symmetric AllGather (variant AGxLL_R,
// tagged 9). The analyzer runs in-process on the dumps the plugin wrote, and its kernel-phase
// table, compute-only busbw, tag filter and instance tags are checked against the stamps below,
// worked out by hand; so is the phase table of a job captured with NPKIT_EVENTS=phase alone whose
// kernels left inner instants unstamped (folded as NCCL folds them). No NCCL 2.31 ran: the call
// order is read from NCCL's source.
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <simdjson.h>
#include <catch2/catch.hpp>

#include "capture/plugin/host_clock.hpp"
#include "capture/plugin/other_thread.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/v7_driver.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

constexpr uint64_t kHash = 0x7e57000000000e31ull;

// NCCL's four instants of a channel, ns after the kernel's begin on the GPU clock.
struct Offsets {
  uint64_t begin, after_open, before_close, end;
};

// Per rank, per channel. AllReduce, rank 0: channel 0 {0, 1000, 9000, 9500}, channel 1 {200, 1500,
// 8800, 10000}: initial_sync = 1000 - 0, compute = 9000 - 1000 = 8000, final_sync = 10000 - 9000
// = 1000, GPU span 10000. Rank 1: {0, 2000, 10000, 10500}, {100, 2500, 10200, 11000}: 2000, 8200,
// 800, span 11000.
constexpr Offsets kAllReduce[2][2] = {{{0, 1000, 9000, 9500}, {200, 1500, 8800, 10000}},
                                      {{0, 2000, 10000, 10500}, {100, 2500, 10200, 11000}}};
// The symmetric AllGather, both ranks: {0, 300, 3300, 3500}, {50, 350, 3250, 3600}: 300, 3000,
// 300, span 3600.
constexpr Offsets kAllGather[2] = {{0, 300, 3300, 3500}, {50, 350, 3250, 3600}};

// The GPU clock as these tests can have it: the host clock plus the 0.13 ms an H200's
// %globaltimer ran ahead of it (docs/format.md, Clocks), read when the kernel "ran".
uint64_t gpu_now() {
  return static_cast<uint64_t>(realtime_ns()) + 130'000;
}

// Runs a kernel that began on the GPU at `g`.
void run_kernel(V7Comm& comm, void* coll, const Offsets (&channels)[2], uint64_t g) {
  run_on_other_thread("profiler", [&] {
    for (uint8_t c = 0; c < 2; ++c) {
      const Offsets& o = channels[c];
      run_kernel_channel(comm, coll,
                         {c, g + o.begin, g + o.after_open, g + o.before_close, g + o.end});
    }
  });
}

void run_job() {
  V7Comm rank0(kHash, 0, 2, "v7-job");
  V7Comm rank1(kHash, 1, 2, "v7-job");
  V7Comm* ranks[2] = {&rank0, &rank1};
  const uint64_t tags[3] = {7, 7, 0};
  // Both ranks enqueue a call before its kernels run, and their kernels begin together, as the
  // two ranks of one collective do: no rank completes before the other arrives.
  for (uint64_t seq = 0; seq < 3; ++seq) {
    void* colls[2];
    for (int r = 0; r < 2; ++r) {
      colls[r] = enqueue_v7_call(
          *ranks[r], {.func = "AllReduce", .seq = seq, .count = 1048576, .tag = tags[seq]});
    }
    const uint64_t g = gpu_now();
    for (int r = 0; r < 2; ++r) run_kernel(*ranks[r], colls[r], kAllReduce[r], g);
  }
  void* colls[2];
  for (int r = 0; r < 2; ++r) {
    colls[r] = enqueue_v7_call(*ranks[r], {.func = "AllGather",
                                           .seq = 0,
                                           .count = 1048576,
                                           .datatype = "ncclInt8",
                                           .tag = 9,
                                           .sym_variant = "AGxLL_R"});
  }
  const uint64_t g = gpu_now();
  for (int r = 0; r < 2; ++r) run_kernel(*ranks[r], colls[r], kAllGather, g);
  rank0.finalize();
  rank1.finalize();
}

simdjson::dom::element parse(simdjson::dom::parser& parser, const std::string& text) {
  return parser.parse(text);
}

// The kernel_phases row of `rank` (and `tag`, when given) in report's JSON.
simdjson::dom::element phase_row(simdjson::dom::element comm, int64_t rank, int64_t tag = -1) {
  for (simdjson::dom::element row : comm["kernel_phases"].get_array()) {
    if (row["rank"].get_int64().value() != rank) continue;
    if (tag >= 0 && row["tag"].get_int64().value() != tag) continue;
    return row;
  }
  FAIL("no kernel_phases row for rank " << rank << " tag " << tag);
  return {};
}

TEST_CASE("plugin v7 replay: report shows NCCL's kernel phases per rank", "[plugin]") {
  PluginEnv env;
  run_job();

  const CliRun json = run_cli({"report", env.dir.path(), "--format", "json"});
  INFO(json.out << json.err);
  REQUIRE(json.exit_code == 0);
  simdjson::dom::parser parser;
  const simdjson::dom::element comm = parse(parser, json.out)["communicators"].at(0);
  // Rank 0: three AllReduce (1000, 8000, 1000; span 10000) and the AllGather (300, 3000, 300;
  // span 3600). Rank 1: three AllReduce (2000, 8200, 800; span 11000) and the AllGather.
  const simdjson::dom::element r0 = phase_row(comm, 0);
  CHECK(r0["operations"].get_uint64().value() == 4);
  CHECK(r0["without_phases"].get_uint64().value() == 0);
  CHECK(r0["initial_sync_ns"].get_int64().value() == 3 * 1000 + 300);
  CHECK(r0["compute_ns"].get_int64().value() == 3 * 8000 + 3000);
  CHECK(r0["final_sync_ns"].get_int64().value() == 3 * 1000 + 300);
  CHECK(r0["gpu_ns"].get_int64().value() == 3 * 10000 + 3600);
  const simdjson::dom::element r1 = phase_row(comm, 1);
  CHECK(r1["initial_sync_ns"].get_int64().value() == 3 * 2000 + 300);
  CHECK(r1["compute_ns"].get_int64().value() == 3 * 8200 + 3000);
  CHECK(r1["final_sync_ns"].get_int64().value() == 3 * 800 + 300);
  CHECK(r1["gpu_ns"].get_int64().value() == 3 * 11000 + 3600);

  // The text table: us and the share of the GPU time (rank 0: 3300 / 33600 = 9.8 %, 27000 /
  // 33600 = 80.4 %; rank 1: 6300 / 36600 = 17.2 %, 27600 / 36600 = 75.4 %, 2700 / 36600 = 7.4 %).
  const CliRun text = run_cli({"report", env.dir.path()});
  INFO(text.out);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("No phase split") == std::string::npos);
  CHECK(text.out.find("Phases: none") == std::string::npos);
  CHECK(text.out.find("Kernel phases per rank") != std::string::npos);
  CHECK(text.out.find("3.300 (9.8%)") != std::string::npos);
  CHECK(text.out.find("27.000 (80.4%)") != std::string::npos);
  CHECK(text.out.find("6.300 (17.2%)") != std::string::npos);
  CHECK(text.out.find("27.600 (75.4%)") != std::string::npos);
  CHECK(text.out.find("2.700 (7.4%)") != std::string::npos);

  // The HTML page draws them as bars per rank beside the table.
  const TempDir pages;
  const std::string page_path = pages.file("report.html");
  const CliRun html =
      run_cli({"report", env.dir.path(), "--format", "html", "-o", page_path, "-q"});
  REQUIRE(html.exit_code == 0);
  std::ifstream page_file(page_path);
  const std::string page((std::istreambuf_iterator<char>(page_file)),
                         std::istreambuf_iterator<char>());
  CHECK(page.find("GPU time per rank by kernel phase") != std::string::npos);
  CHECK(page.find("No phase split") == std::string::npos);

  // --by tag: one row per (tag, rank). Tag 7, rank 1: two AllReduce: 4000, 16400, 1600.
  const CliRun by_tag = run_cli({"report", env.dir.path(), "--by", "tag", "--format", "json"});
  INFO(by_tag.out << by_tag.err);
  REQUIRE(by_tag.exit_code == 0);
  simdjson::dom::parser tag_parser;
  const simdjson::dom::element tagged = parse(tag_parser, by_tag.out)["communicators"].at(0);
  CHECK(tagged["kernel_phases"].get_array().size() == 6);
  const simdjson::dom::element t7 = phase_row(tagged, 1, 7);
  CHECK(t7["operations"].get_uint64().value() == 2);
  CHECK(t7["initial_sync_ns"].get_int64().value() == 4000);
  CHECK(t7["compute_ns"].get_int64().value() == 16400);
  CHECK(t7["final_sync_ns"].get_int64().value() == 1600);
  CHECK(phase_row(tagged, 0, 0)["operations"].get_uint64().value() == 1);
  CHECK(phase_row(tagged, 0, 9)["compute_ns"].get_int64().value() == 3000);
}

// The rows of bandwidth's JSON of `func`.
std::vector<simdjson::dom::element> rows_of(simdjson::dom::element doc, const std::string& func) {
  std::vector<simdjson::dom::element> out;
  for (simdjson::dom::element row : doc["collectives"].get_array()) {
    if (std::string(row["collective"].get_string().value()) == func) out.push_back(row);
  }
  return out;
}

TEST_CASE("plugin v7 replay: bandwidth's compute-only busbw and --tag", "[plugin]") {
  PluginEnv env;
  run_job();

  const CliRun all = run_cli({"bandwidth", env.dir.path(), "--format", "json"});
  INFO(all.out << all.err);
  REQUIRE(all.exit_code == 0);
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = parse(parser, all.out);
  const auto allreduce = rows_of(doc, "AllReduce");
  REQUIRE(allreduce.size() == 1);
  // S = 1048576 x 4 B; time = mean of the ranks' medians 10000 and 11000 ns; compute = mean of
  // 8000 and 8200; n = 2: busbw factor 2(n-1)/n = 1.
  CHECK(allreduce[0]["size_bytes"].get_uint64().value() == 4194304);
  CHECK(allreduce[0]["instances"].get_uint64().value() == 3);
  CHECK(allreduce[0]["time_ns"].get_double().value() == Approx(10500.0));
  CHECK(allreduce[0]["compute_ns"].get_double().value() == Approx(8100.0));
  CHECK(allreduce[0]["compute_busbw_gbps"].get_double().value() == Approx(4194304.0 / 8100.0));
  const auto allgather = rows_of(doc, "AllGather");
  REQUIRE(allgather.size() == 1);
  // S = 1048576 B per rank x 2 ranks; compute 3000 ns on both; factor (n-1)/n = 1/2.
  CHECK(allgather[0]["size_bytes"].get_uint64().value() == 2097152);
  CHECK(std::string(allgather[0]["algo"].get_string().value()) == "R");
  CHECK(allgather[0]["compute_ns"].get_double().value() == Approx(3000.0));
  CHECK(allgather[0]["compute_busbw_gbps"].get_double().value() ==
        Approx(2097152.0 / 3000.0 * 0.5));

  const CliRun text = run_cli({"bandwidth", env.dir.path()});
  INFO(text.out);
  CHECK(text.out.find("compute busbw") != std::string::npos);
  CHECK(text.out.find("517.82") != std::string::npos);  // 4194304 / 8100

  // --tag 7: the two tagged AllReduce only.
  const CliRun tagged = run_cli({"bandwidth", env.dir.path(), "--tag", "7", "--format", "json"});
  INFO(tagged.out << tagged.err);
  REQUIRE(tagged.exit_code == 0);
  simdjson::dom::parser tag_parser;
  const simdjson::dom::element tag_doc = parse(tag_parser, tagged.out);
  REQUIRE(tag_doc["collectives"].get_array().size() == 1);
  const auto seven = rows_of(tag_doc, "AllReduce");
  REQUIRE(seven.size() == 1);
  CHECK(seven[0]["instances"].get_uint64().value() == 2);
  CHECK(seven[0]["compute_ns"].get_double().value() == Approx(8100.0));
  const CliRun none = run_cli({"bandwidth", env.dir.path(), "--tag", "8", "--format", "json"});
  simdjson::dom::parser none_parser;
  CHECK(parse(none_parser, none.out)["collectives"].get_array().size() == 0);
}

TEST_CASE("plugin v7 replay: instances carry the tag and each member's kernel phases", "[plugin]") {
  PluginEnv env;
  run_job();
  const CliRun run = run_cli({"instances", env.dir.path()});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::vector<std::pair<std::string, uint64_t>> seen;  // (label, tag)
  simdjson::dom::parser parser;
  std::size_t from = 0;
  while (from < run.out.size()) {
    const std::size_t end = run.out.find('\n', from);
    const std::string line = run.out.substr(from, end - from);
    from = end == std::string::npos ? run.out.size() : end + 1;
    const simdjson::dom::element inst = parser.parse(line);
    seen.emplace_back(std::string(inst["label"].get_string().value()),
                      inst["tag"].get_uint64().value());
    if (std::string(inst["func"].get_string().value()) != "AllReduce") continue;
    const simdjson::dom::element m1 = inst["members"].at(1);
    CHECK(m1["kernel_phases"]["initial_sync_ns"].get_int64().value() == 2000);
    CHECK(m1["kernel_phases"]["compute_ns"].get_int64().value() == 8200);
    CHECK(m1["kernel_phases"]["final_sync_ns"].get_int64().value() == 800);
  }
  const std::vector<std::pair<std::string, uint64_t>> expected = {{"AllReduce seq 0", 7},
                                                                  {"AllReduce seq 1", 7},
                                                                  {"AllReduce seq 2", 0},
                                                                  {"AllGather seq 0", 9}};
  CHECK(seen == expected);
}

TEST_CASE("plugin v7 replay: diff keys its rows by user tag and judges the kernel phases",
          "[plugin]") {
  PluginEnv env;
  run_job();
  // The capture against itself: one row per (collective, size, tag), none changed.
  const CliRun run = run_cli({"diff", env.dir.path(), env.dir.path(), "--format", "json"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = parse(parser, run.out);
  std::vector<std::pair<std::string, uint64_t>> rows;  // (collective, tag; 0 when absent)
  for (simdjson::dom::element row : doc["collectives"].get_array()) {
    uint64_t tag = 0;
    if (row["tag"].error() == simdjson::SUCCESS) tag = row["tag"].get_uint64().value();
    rows.emplace_back(std::string(row["collective"].get_string().value()), tag);
    // Without a GPU each rank's clock note gives its own GPU-to-host offset (tens of us apart),
    // so the ranks' aligned times disagree and a row is not comparable; never a change.
    const std::string verdict(row["verdict"].get_string().value());
    CHECK((verdict == "unchanged" || verdict == "not comparable"));
  }
  const std::vector<std::pair<std::string, uint64_t>> expected = {
      {"AllGather", 9}, {"AllReduce", 0}, {"AllReduce", 7}};
  CHECK(rows == expected);
  // NCCL's kernel phases are phase rows of source "kernel".
  std::vector<std::string> kernel_phases;
  for (simdjson::dom::element row : doc["phases"].get_array()) {
    if (std::string(row["source"].get_string().value()) != "kernel") continue;
    kernel_phases.emplace_back(row["phase"].get_string().value());
  }
  CHECK(kernel_phases == std::vector<std::string>{"compute", "final_sync", "initial_sync"});
  const CliRun text = run_cli({"diff", env.dir.path(), env.dir.path()});
  CHECK(text.out.find("AllReduce [tag 7]") != std::string::npos);
}

// A stamp NCCL's kernel did not write (profilerFireKernelPhaseEvents folds it onto its outer
// neighbour).
constexpr uint64_t kUnstamped = ~uint64_t{0};

TEST_CASE("plugin v7 replay: only KernelPhase asked for, and unstamped inner instants folded",
          "[plugin]") {
  // NPKIT_EVENTS=phase: the plugin asks for KernelPhase alone; NCCL 2.31 adds KernelCh (and the
  // plugin records the KernelCh, Coll and API events above the phases, emitted_events.hpp).
  PluginEnv env("phase");
  V7Comm rank0(kHash, 0, 2, "v7-phase");
  V7Comm rank1(kHash, 1, 2, "v7-phase");
  CHECK(rank0.mask() == 32768);
  // Rank 0, channel 1 lacks "after open": NCCL folds it onto its begin, so that channel has no
  // initial_sync and its compute runs 200 -> 8800. Rank 1, channel 1 lacks "before close": its
  // compute runs 2500 -> 11000 and it has no final_sync.
  const Offsets stamps[2][2] = {{{0, 1000, 9000, 9500}, {200, kUnstamped, 8800, 10000}},
                                {{0, 2000, 10000, 10500}, {100, 2500, kUnstamped, 11000}}};
  V7Comm* ranks[2] = {&rank0, &rank1};
  for (int r = 0; r < 2; ++r) {
    void* coll = enqueue_v7_call(*ranks[r], {.func = "AllReduce", .count = 1048576, .tag = 5});
    const uint64_t g = gpu_now();
    auto at = [g](uint64_t offset) { return offset == kUnstamped ? 0 : g + offset; };
    run_on_other_thread("profiler", [&] {
      for (uint8_t c = 0; c < 2; ++c) {
        const Offsets& o = stamps[r][c];
        run_kernel_channel(*ranks[r], coll,
                           {c, at(o.begin), at(o.after_open), at(o.before_close), at(o.end)});
      }
    });
  }
  rank0.finalize();
  rank1.finalize();

  const CliRun json = run_cli({"report", env.dir.path(), "--by", "tag", "--format", "json"});
  INFO(json.out << json.err);
  REQUIRE(json.exit_code == 0);
  simdjson::dom::parser parser;
  const simdjson::dom::element comm = parse(parser, json.out)["communicators"].at(0);
  CHECK(comm["kernel_phases"].get_array().size() == 2);
  // Rank 0: first begin 0, first compute start min(1000, 200) = 200, last compute end
  // max(9000, 8800) = 9000, last end max(9500, 10000) = 10000: 200, 8800, 1000.
  const simdjson::dom::element r0 = phase_row(comm, 0, 5);
  CHECK(r0["operations"].get_uint64().value() == 1);
  CHECK(r0["initial_sync_ns"].get_int64().value() == 200);
  CHECK(r0["compute_ns"].get_int64().value() == 8800);
  CHECK(r0["final_sync_ns"].get_int64().value() == 1000);
  CHECK(r0["gpu_ns"].get_int64().value() == 10000);
  // Rank 1: begin 0, compute start min(2000, 2500) = 2000, compute end max(10000, 11000) =
  // 11000, end max(10500, 11000) = 11000: 2000, 9000, 0.
  const simdjson::dom::element r1 = phase_row(comm, 1, 5);
  CHECK(r1["initial_sync_ns"].get_int64().value() == 2000);
  CHECK(r1["compute_ns"].get_int64().value() == 9000);
  CHECK(r1["final_sync_ns"].get_int64().value() == 0);
  CHECK(r1["gpu_ns"].get_int64().value() == 11000);
}

}  // namespace
}  // namespace npkit::test
