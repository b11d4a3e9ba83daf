// NCCL's example profiler plugin traces: a hand-written fixture of two ranks
// (tests/golden/cases/json_plugin_info/trace/nccl_7_{0,1}.json) whose processes started their
// clocks 1000 µs apart (rank 1's ts = the common time + 1000) and where rank 1's pool dropped
// AllReduce seq 2.
//
// Hand-computed (µs; rank 1 as printed):
//   rank 0: seq 0 100..300, seq 1 400..600, seq 2 700..900, seq 3 1000..1200 (durations 200 each)
//   rank 1: seq 0 1150..1305 (155), seq 1 1380..1598 (218), seq 3 2100..2202 (102)
//   S = 1048576 × 4 B = 4194304 B; time = mean of the ranks' medians = (200 + 155) / 2 = 177.5 µs;
//   algbw = 4194304 / 177500 ns = 23.6299 GB/s; busbw = algbw × 2(n−1)/n = algbw (n = 2).
//   Clock offset of rank 1 (added to its times): a collective cannot end on a rank before the
//   other arrived: off ≤ end0 − start1 = min(−850, −780, −900) = −900 and
//   off ≥ start0 − end1 = max(−1205, −1198, −1202) = −1198, so off = −1049 ± 149 µs (the true
//   −1000 inside).
#include <catch2/catch.hpp>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "analysis/report/cross_rank_report.hpp"
#include "import/chrome_json/plugin_trace_decoder.hpp"
#include "import/plugin_join/plugin_cross_rank.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

using namespace npkit;

namespace {

std::string fixture(const char* name) {
  return test::source_path(std::string("tests/golden/cases/json_plugin_info/trace/") + name);
}

std::string warning_lines(const Diagnostics& d) {
  std::string s;
  for (const auto& g : d.warnings()) {
    for (const auto& e : g.examples) s += g.category + ": " + e + "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("example plugin: collectives per rank file", "[chrome_json]") {
  Diagnostics d;
  auto traces = read_profiler_traces({fixture("nccl_7_0.json"), fixture("nccl_7_1.json")}, d);
  REQUIRE(traces);
  REQUIRE(traces->size() == 2);
  const auto& r0 = (*traces)[0];
  CHECK(r0.producer == "NCCL's example profiler plugin");
  CHECK(r0.comm_hash == 7);
  CHECK(r0.rank == 0);
  CHECK(r0.pid == 1001);
  REQUIRE(r0.colls.size() == 4);
  CHECK(r0.name(r0.colls[0].func) == "AllReduce");
  CHECK(r0.name(r0.colls[0].datatype) == "ncclFloat32");
  CHECK(r0.name(r0.colls[0].algo) == "RING");
  CHECK(r0.name(r0.colls[0].proto) == "SIMPLE");
  CHECK(r0.colls[0].count == 1048576);
  CHECK(r0.colls[0].channels == 2);
  CHECK(r0.colls[3].start_ns == 1000000);
  CHECK(r0.colls[3].end_ns == 1200000);
  CHECK(r0.events_by_category.at("COLL") == 8);
  CHECK(r0.events_by_category.at("GROUP") == 2);
  CHECK(r0.events_by_category.at("PROXY") == 2);
  const auto& r1 = (*traces)[1];
  CHECK(r1.rank == 1);
  CHECK(r1.pid == 1002);
  REQUIRE(r1.colls.size() == 3);
  CHECK(r1.colls[2].seq == 3);
  CHECK(r1.events_by_category.at("KERNEL_LAUNCH") == 2);  // its unquoted pointer is tolerated
  CHECK(d.warnings().empty());
}

TEST_CASE("example plugin: join, SeqNum gap, rows and clock alignment", "[chrome_json]") {
  Diagnostics d;
  auto traces = read_profiler_traces({fixture("nccl_7_0.json"), fixture("nccl_7_1.json")}, d);
  REQUIRE(traces);
  const auto comms = join_plugin_traces(*traces, "test clocks", d);
  REQUIRE(comms.size() == 1);
  const auto& c = comms[0];
  CHECK(c.nranks == 2);
  const CrossRankInput input = cross_rank_input(c.run);
  CHECK(input.scope == "comm 0000000000000007");
  CHECK(input.hosts_known);
  REQUIRE(input.ranks.size() == 2);
  CHECK(input.ranks[0].host == "process 1001 (rank 0)");
  CHECK(input.ranks[1].host == "process 1002 (rank 1)");
  REQUIRE(input.instances.size() == 4);
  CHECK(input.instances[2].label == "AllReduce seq 2");
  CHECK(input.instances[2].ranks.size() == 1);
  CHECK(input.instances[0].bytes == 4194304);
  CHECK(c.run.instances[2].missing_ranks == std::vector<std::int32_t>{1});
  REQUIRE(input.gaps.size() == 2);
  CHECK(input.gaps[0].kind == "seq jump");
  CHECK(input.gaps[1].kind == "missing ranks");
  CHECK(warning_lines(d) ==
        "seq gaps: comm 0000000000000007: rank 1 AllReduce: 1 seq number(s) missing (2): "
        "events the plugin dropped\n"
        "missing ranks: comm 0000000000000007: 1 instance(s) lack ranks that have data (AllReduce "
        "seq 2 lacks rank 1); analysed with the ranks present\n");

  Run run;
  run.comms.push_back(c.run);
  const auto rows = bandwidth_rows(run, "all");
  REQUIRE(rows.size() == 1);
  const auto& row = rows[0];
  CHECK(row.func == "AllReduce");
  CHECK(row.bytes == 4194304);
  CHECK(row.instances == 4);
  CHECK(row.ranks.size() == 2);
  CHECK(row.channels == 2);
  CHECK(row.time_ns == Approx(177500));
  CHECK(row.algbw_gbps == Approx(4194304.0 / 177500));
  CHECK(row.busbw_gbps == Approx(4194304.0 / 177500));

  const CrossRankAnalysis a = analyze_cross_rank(input, Thresholds{});
  CHECK(a.alignment.status == AlignmentStatus::kAligned);
  CHECK(a.alignment.offset_of(0) == 0);
  CHECK(a.alignment.offset_of(1) == Approx(-1049000));
  REQUIRE(a.alignment.hosts.size() == 2);
  CHECK(a.alignment.hosts[1].uncertainty_ns == Approx(149000));
  CHECK(a.alignment.hosts[1].lower_ns == Approx(-1198000));
  CHECK(a.alignment.hosts[1].upper_ns == Approx(-900000));
}

TEST_CASE("example plugin: the rank from the file name, a collective never ended",
          "[chrome_json]") {
  test::TempDir tmp;
  const std::string path = tmp.write_file(
      "run_12715772615376301750_3.json",
      "[\n{\"name\": \"Group\", \"cat\": \"GROUP\", \"ph\": \"b\", \"id\": 0, \"pid\": 5, "
      "\"tid\": 1, \"ts\": 1.000000},\n"
      "{\"name\": \"AllGather\", \"cat\": \"COLL\", \"ph\": \"b\", \"id\": 0, \"pid\": 5, "
      "\"tid\": 1, \"ts\": 2.000000, \"args\": {\"SeqNum\": 4}},\n{}]\n");
  Diagnostics d;
  auto traces = read_profiler_traces({path}, d);
  REQUIRE(traces);
  REQUIRE(traces->size() == 1);
  CHECK((*traces)[0].comm_hash == 12715772615376301750ull);
  CHECK((*traces)[0].rank == 3);
  CHECK((*traces)[0].never_ended == 1);
  CHECK(warning_lines(d) == "never ended: " + path +
                                ": 1 collective(s) began (b) and never "
                                "ended (e)\n");
}

TEST_CASE("plugin traces: a second trace of a rank is ignored, differing sizes take the larger",
          "[chrome_json]") {
  std::vector<PluginRankTrace> traces(3);
  for (std::size_t i = 0; i < traces.size(); ++i) {
    traces[i].path = "t" + std::to_string(i) + ".json";
    traces[i].comm_hash = 0xab;
  }
  traces[0].rank = 0;
  traces[0].nranks = 2;
  traces[1].rank = 1;
  traces[1].nranks = 4;
  traces[2].rank = 0;
  traces[2].nranks = 4;
  Diagnostics d;
  const auto comms = join_plugin_traces(traces, "test clocks", d);
  REQUIRE(comms.size() == 1);
  CHECK(comms[0].nranks == 4);
  CHECK(comms[0].ranks[0] == &traces[0]);
  CHECK(comms[0].run.absent_ranks == std::vector<std::int32_t>{2, 3});
  CHECK(warning_lines(d) ==
        "differing sizes: t1.json: comm 00000000000000ab has 4 ranks here, 2 in another file; "
        "the larger is used\n"
        "duplicate rank: t2.json: comm 00000000000000ab rank 0 is also in t0.json; this file is "
        "ignored\n");
}
