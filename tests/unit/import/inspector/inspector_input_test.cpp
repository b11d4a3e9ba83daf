// NCCL Inspector logs: the hand-made fixtures of tests/data/inspector (README.md there gives the
// spec they were written from).
//
// Hand-computed from the spec (µs after T = 1764680000000000 µs; n = 2, one host):
//   AllReduce 1 MiB, seq 0-2: rank 0 starts 100, 300, 500 and runs 40, 44, 42; rank 1 starts 130,
//     320, 530 and runs 10, 24, 12. time = mean of the ranks' medians = (42 + 12) / 2 = 27 µs;
//     algbw = busbw = 1048576 B / 27000 ns = 38.8361 GB/s (factor 2(n−1)/n = 1). True time: last
//     start → last end = 10, 24, 12 → median 12 µs. Period: rank 0 200, 200; rank 1 190, 210
//     (median 200) → 200 µs (no launch before the previous end: every pair counts).
//   AllReduce 4 MiB, seq 3-5: rank 0 110, 100, 120 (median 110), rank 1 50 → 80 µs, 52.4288 GB/s;
//     true time 50 µs; period rank 0 200, rank 1 median(190, 220) = 205 → 202.5 µs.
//   AllGather, 524288 B per rank, seq 0-1: S = 2 × 524288 = 1048576 B; rank 0 31, rank 1 20 →
//     25.5 µs, algbw 41.1206, busbw × (n−1)/n = 20.5603 GB/s; true time 20 µs (52.4288, 26.2144);
//     period rank 0 100, rank 1 102 → 101 µs.
//   Formats v4.1-v4.3 (v4_1_drops, v4_2_algo, v4_3_header_once: the same operations and times,
//   durations only):
//   v4.1: rank 1's ring dropped AllReduce seq 1 (dump_stats: coll_dropped_since_last_dump 1 in the
//     first dump, coll_dropped_total 1 in both): lost 1 collective on rank 1, so every instance
//     of the communicator is incomplete. AllReduce 1 MiB: rank 0 40, 44, 42 (median 42); rank 1
//     10, 12 (median 11) → (42 + 11) / 2 = 26.5 µs.
//   v4.3: rank 0 sends two steps of AllReduce seq 3: total 40 = 10 (gpu_produce) + 20
//     (peer_credit) + 5 (wire) + 5 before the first state, and 30 = 4 + 5 + 20 + 1 → step time
//     70 µs, sync 39, net_send 25, other 6. Rank 1 receives two steps: 30 = 20 (wire) + 2
//     (flush) + 7 (gpu_consume) + 1, and 15 = 10 + 1 + 4 + 0 → 45 µs, net_recv 33, sync 11,
//     other 1.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "import/inspector/inspector_input.hpp"
#include "import/inspector/inspector_record.hpp"
#include "import/run_input.hpp"
#include "support/test_data.hpp"

using namespace npkit;

namespace {

constexpr std::int64_t kT = 1764680000000000;  // µs

std::string fixture(const char* name) {
  return test::source_path(std::string("tests/data/inspector/") + name);
}

Run read(const std::string& path, Diagnostics* warnings = nullptr) {
  ImportOptions o;
  o.path = path;
  o.env_file = "none";
  auto input = open_run_input(o);
  REQUIRE(input);
  REQUIRE((*input)->kind() == InputKind::kInspector);
  auto run = (*input)->read({});
  REQUIRE(run);
  if (warnings != nullptr) *warnings = (*input)->diagnostics();
  return std::move(*run);
}

const BandwidthRow& row(const std::vector<BandwidthRow>& rows, const char* func,
                        std::uint64_t bytes) {
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const BandwidthRow& r) {
    return r.func == func && r.bytes == bytes;
  });
  REQUIRE(it != rows.end());
  return *it;
}

const RunInstance& instance(const RunCommunicator& c, const std::string& label) {
  const auto it = std::find_if(c.instances.begin(), c.instances.end(),
                               [&](const RunInstance& i) { return i.label == label; });
  REQUIRE(it != c.instances.end());
  return *it;
}

}  // namespace

TEST_CASE("inspector: one record line, every member read", "[inspector]") {
  const std::string line =
      R"({"header":{"id":"0xe62dedaa97644a","comm_name":"tp","rank":4,"n_ranks":8,"nnodes":1},)"
      R"("metadata":{"inspector_output_format_version":"v4.0","git_rev":"9019a19",)"
      R"("rec_mechanism":"nccl_profiler_interface","dump_timestamp_us":1752867229276385,)"
      R"("hostname":"h1","pid":438776},"coll_perf":{"coll":"ReduceScatter","coll_sn":1231,)"
      R"("coll_msg_size_bytes":2147483648,"coll_exec_time_us":41057,"coll_timing_source":)"
      R"("kernel_gpu","coll_algobw_gbs":418.439467,"coll_busbw_gbs":366.134533,)"
      R"("event_trace_ts":{"coll_start_ts":1752867229235059,"coll_stop_ts":1752867229235064,)"
      R"("kernel_events":[{"channel_id":0,"kernel_start_ts":1752867229235181,)"
      R"("kernel_stop_ts":1752867229275811,"kernel_record_ts":1752867229275811}]}}})";
  InspectorLineParser parser;
  InspectorRecord r;
  REQUIRE(parser.parse(line, r));
  CHECK(r.comm_hash == 0xe62dedaa97644aull);
  CHECK(r.comm_name == "tp");
  CHECK(r.rank == 4);
  CHECK(r.nranks == 8);
  CHECK(r.version == "v4.0");
  CHECK(r.host == "h1");
  CHECK(r.pid == 438776);
  CHECK(r.kind == InspectorRecordKind::kColl);
  CHECK(r.func == "ReduceScatter");
  CHECK(r.seq == 1231);
  CHECK(r.bytes == 2147483648ull);
  CHECK(r.exec_time_us == 41057);
  CHECK(r.timing_source == "kernel_gpu");
  CHECK(r.verbose);
  CHECK(r.op_start_us == 1752867229235059ull);
  REQUIRE(r.channels.size() == 1);
  CHECK(r.channels[0].start_us == 1752867229235181ull);
  CHECK(r.channels[0].stop_us == 1752867229275811ull);
  CHECK(looks_like_inspector_log(line + "\n" + line));
  CHECK_FALSE(looks_like_inspector_log(R"({"traceEvents":[]})"));
  CHECK_FALSE(looks_like_inspector_log("[{\"ph\":\"X\"}]"));
}

TEST_CASE("inspector: what a bad line is expected to hold", "[inspector]") {
  InspectorLineParser parser;
  InspectorRecord r;
  const auto error = [&](const std::string& line) {
    auto s = parser.parse(line, r);
    REQUIRE_FALSE(s);
    return s.error().message;
  };
  const std::string head = R"({"header":{"id":"0x1","rank":0,"n_ranks":2},)"
                           R"("metadata":{"inspector_output_format_version":"v4.0"})";
  CHECK(error(head + R"(,"coll_perf":{"coll":"AllReduce","coll_sn":1,"coll_msg_size_bytes":8,)"
                     R"("coll_exec_time_us":-3}})") ==
        "coll_perf.coll_exec_time_us: expected an integer of 0 or more, found a negative one");
  CHECK(error(head + R"(,"coll_perf":{"coll":"AllReduce","coll_sn":1.5}})") ==
        "coll_perf.coll_sn: expected an integer, found a fractional number");
  CHECK(error(head + R"(,"p2p_perf":{"p2p":"Send","p2p_sn":1,"p2p_msg_size_bytes":8,)"
                     R"("p2p_exec_time_us":3}})") ==
        "p2p_perf: missing member p2p_peer (expected an integer)");
  CHECK(error(head + "}") ==
        "record: missing member coll_perf, p2p_perf, dump_stats or proxy_trace (expected an "
        "object)");
  CHECK(error(R"({"header":{"id":"7","rank":0,"n_ranks":2}})") ==
        "header.id '7': expected the communicator hash as 0x and 1 to 16 hex digits");
  CHECK(error(R"({"header":{"id":"0x7","rank":2,"n_ranks":2}})") ==
        "header: rank 2 of n_ranks 2: expected 0 <= rank < n_ranks");
  CHECK(error("[1,2]") == "record: expected an object, found an array");
}

TEST_CASE("inspector: two verbose ranks join by coll and coll_sn on one host clock",
          "[inspector]") {
  Diagnostics warnings;
  const Run run = read(fixture("two_ranks_verbose"), &warnings);
  CHECK(warnings.warnings().empty());
  CHECK(run.kind == InputKind::kInspector);
  CHECK(run.config.files == 2);
  CHECK(run.config.hosts == std::set<std::string>{"gpu-node-01"});
  REQUIRE(run.comms.size() == 1);
  const RunCommunicator& c = run.comms[0];
  CHECK(c.hash == 0x1a2b3c4d5e6f7081ull);
  CHECK(c.name == "world");
  CHECK(c.nranks == 2);
  CHECK(c.no_start_times.empty());
  CHECK(c.one_clock());
  REQUIRE(c.instances.size() == 8);
  const RunInstance& ar0 = c.instances[0];
  CHECK(ar0.label == "AllReduce seq 0");
  CHECK(ar0.bytes == 1048576);
  CHECK(ar0.count == 0);
  CHECK(ar0.type.empty());
  REQUIRE(ar0.members.size() == 2);
  CHECK(ar0.members[0].start_ns == (kT + 100) * 1000);
  CHECK(ar0.members[0].end_ns == (kT + 140) * 1000);
  CHECK(ar0.members[0].launch_ns == (kT + 90) * 1000);
  CHECK(ar0.members[0].channels == 2);
  CHECK(ar0.members[1].start_ns == (kT + 130) * 1000);
  CHECK(ar0.members[1].end_ns == (kT + 140) * 1000);
  const RunInstance& ag1 = c.instances[7];
  CHECK(ag1.label == "AllGather seq 1");
  CHECK(ag1.bytes == 1048576);
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0] ==
        "2 Send/Recv record(s) (p2p_perf) are not joined: their p2p_sn counts every Send and "
        "Recv of a rank, so it does not match across ranks");

  const auto rows = bandwidth_rows(run, "all");
  REQUIRE(rows.size() == 3);
  const BandwidthRow& small = row(rows, "AllReduce", 1048576);
  CHECK(small.instances == 3);
  CHECK(small.time_ns == Approx(27000));
  CHECK(small.busbw_gbps == Approx(1048576.0 / 27000));
  REQUIRE(small.true_time_ns);
  CHECK(*small.true_time_ns == Approx(12000));
  REQUIRE(small.period_ns);
  CHECK(*small.period_ns == Approx(200000));
  const BandwidthRow& large = row(rows, "AllReduce", 4194304);
  CHECK(large.time_ns == Approx(80000));
  CHECK(large.algbw_gbps == Approx(52.4288));
  CHECK(*large.true_time_ns == Approx(50000));
  CHECK(*large.period_ns == Approx(202500));
  const BandwidthRow& gather = row(rows, "AllGather", 1048576);
  CHECK(gather.time_ns == Approx(25500));
  CHECK(gather.algbw_gbps == Approx(41.1206).epsilon(1e-5));
  CHECK(gather.busbw_gbps == Approx(20.5603).epsilon(1e-5));
  CHECK(gather.true_busbw_gbps == Approx(26.2144));
  CHECK(*gather.period_ns == Approx(101000));

  const CrossRankInput cross = cross_rank_input(c);
  CHECK(cross.instances.size() == 8);
  CHECK(cross.gaps.empty());
}

TEST_CASE("inspector: records without event traces give times, no starts", "[inspector]") {
  const Run run = read(fixture("durations_only/gpu-node-01-pid3001.log"));
  REQUIRE(run.comms.size() == 1);
  const RunCommunicator& c = run.comms[0];
  CHECK(c.name.empty());
  REQUIRE(c.ranks.size() == 2);
  CHECK_FALSE(c.no_start_times.empty());
  REQUIRE(c.instances.size() == 8);
  // Without starts, instances keep the join's order: by function, then seq.
  CHECK(c.instances[0].label == "AllGather seq 0");
  CHECK(c.instances[0].members[1].duration_ns() == 20000);
  CHECK(c.instances[2].label == "AllReduce seq 0");
  CHECK(c.instances[2].members[1].duration_ns() == 10000);
  CHECK(c.instances[2].members[1].launch_ns == kUnknownTime);
  const auto rows = bandwidth_rows(run, "all");
  const BandwidthRow& small = row(rows, "AllReduce", 1048576);
  CHECK(small.time_ns == Approx(27000));
  CHECK_FALSE(small.true_time_ns);
  CHECK_FALSE(small.period_ns);
  CHECK(row(rows, "AllGather", 1048576).busbw_gbps == Approx(20.5603).epsilon(1e-5));
  const CrossRankInput cross = cross_rank_input(c);
  REQUIRE(cross.instances.size() == 8);
  CHECK(std::all_of(cross.instances.begin(), cross.instances.end(),
                    [](const JoinedInstance& i) { return i.ranks.empty(); }));
  REQUIRE(cross.gaps.size() == 1);
  CHECK(cross.gaps[0].kind == "no start times");
}

TEST_CASE("inspector: seq numbers no rank logged are its size filter, one rank's hole is a loss",
          "[inspector]") {
  // tests/data/inspector/min_size_gaps: AllReduce seq 0-5 logged by no rank (below the
  // Inspector's minimum size), seq 9 missing on rank 1 only.
  Diagnostics warnings;
  const Run run = read(fixture("min_size_gaps"), &warnings);
  REQUIRE(run.comms.size() == 1);
  const RunCommunicator& c = run.comms[0];
  std::vector<std::string> filtered;
  std::vector<std::string> jumps;
  for (const auto& gap : c.gaps) {
    if (gap.kind == "seq filtered") filtered.push_back(gap.detail);
    if (gap.kind == "seq jump" || gap.kind == "seq start") jumps.push_back(gap.detail);
  }
  CHECK(filtered == std::vector<std::string>{
                        "AllReduce: 6 seq number(s) absent on every rank (0-5): not logged by "
                        "design: below NCCL_INSPECTOR_DUMP_MIN_SIZE_BYTES (8192 B by default), "
                        "or without GPU timing (NCCL_INSPECTOR_REQUIRE_KERNEL_TIMING)"});
  CHECK(jumps == std::vector<std::string>{
                     "rank 1 AllReduce: 1 seq number(s) other ranks have are missing (9): lost: "
                     "the Inspector's ring overflowed, or the log was cut"});
  REQUIRE(warnings.warnings().size() == 2);  // the seq gap and the instance that lacks rank 1
  CHECK(warnings.warnings()[0].category == "seq gaps");
  CHECK(warnings.warnings()[0].count == 1);
  CHECK(warnings.warnings()[1].category == "missing ranks");
}

TEST_CASE("inspector v4.1: dropped records are a warning and make the communicator incomplete",
          "[inspector]") {
  Diagnostics warnings;
  const Run run = read(fixture("v4_1_drops/gpu-node-01-pid4001.log"), &warnings);
  REQUIRE(run.comms.size() == 1);
  const RunCommunicator& c = run.comms[0];
  CHECK(c.name == "world");
  REQUIRE(c.ranks.size() == 2);
  CHECK_FALSE(c.ranks[0].lost.any());
  CHECK(c.ranks[1].lost.collectives == 1);
  CHECK(c.ranks[1].lost.p2p == 0);
  CHECK(c.ranks[1].lost.proxy == 0);
  CHECK(c.collectives_incomplete());
  CHECK(std::find_if(c.notes.begin(), c.notes.end(), [](const std::string& n) {
          return n.rfind("the Inspector lost collective records", 0) == 0;
        }) != c.notes.end());
  REQUIRE(c.instances.size() == 8);
  CHECK(instance(c, "AllReduce seq 1").members.size() == 1);
  CHECK(row(bandwidth_rows(run, "all"), "AllReduce", 1048576).time_ns == Approx(26500));
  const auto lost = std::find_if(warnings.warnings().begin(), warnings.warnings().end(),
                                 [](const auto& w) { return w.category == "records lost"; });
  REQUIRE(lost != warnings.warnings().end());
  CHECK(lost->count == 1);
  REQUIRE(lost->examples.size() == 1);
  CHECK(lost->examples[0].find("gpu-node-01-pid4001.log: comm 1a2b3c4d5e6f7081 rank 1: the "
                               "Inspector lost 1 collective, 0 Send/Recv and 0 proxy record(s)") !=
        std::string::npos);
  CHECK(run.config.capture.at("inspector.format_version") == std::set<std::string>{"v4.1"});
}

TEST_CASE("inspector v4.2: algorithm and protocol fill the instances' columns", "[inspector]") {
  Diagnostics warnings;
  const Run run = read(fixture("v4_2_algo"), &warnings);
  CHECK(warnings.warnings().empty());
  REQUIRE(run.comms.size() == 1);
  const RunCommunicator& c = run.comms[0];
  CHECK(c.name == "world");
  CHECK_FALSE(c.collectives_incomplete());
  REQUIRE(c.instances.size() == 8);
  CHECK(instance(c, "AllReduce seq 0").algo == "RING");
  CHECK(instance(c, "AllReduce seq 0").proto == "LL");
  CHECK(instance(c, "AllReduce seq 5").proto == "SIMPLE");
  CHECK(instance(c, "AllGather seq 1").proto == "LL128");
  const auto rows = bandwidth_rows(run, "all");
  CHECK(row(rows, "AllReduce", 1048576).time_ns == Approx(27000));
  CHECK(row(rows, "AllGather", 1048576).busbw_gbps == Approx(20.5603).epsilon(1e-5));
}

TEST_CASE("inspector v4.3: one header per dump, and the proxy steps per rank", "[inspector]") {
  Diagnostics warnings;
  const Run run = read(fixture("v4_3_header_once"), &warnings);
  CHECK(warnings.warnings().empty());
  REQUIRE(run.comms.size() == 1);
  const RunCommunicator& c = run.comms[0];
  CHECK(c.name == "world");
  CHECK(c.hash == 0x1a2b3c4d5e6f7081ull);
  REQUIRE(c.ranks.size() == 2);
  CHECK(c.ranks[1].host == "gpu-node-01");
  REQUIRE(c.instances.size() == 8);
  CHECK(instance(c, "AllReduce seq 3").algo == "RING");
  CHECK(instance(c, "AllReduce seq 3").members.size() == 2);
  CHECK(row(bandwidth_rows(run, "all"), "AllReduce", 1048576).time_ns == Approx(27000));

  REQUIRE(c.ranks[0].proxy.has_value());
  const ProxyStepBreakdown& send = *c.ranks[0].proxy;
  CHECK(send.steps == 2);
  CHECK(send.step_ns == 70000);
  CHECK(send.sync_ns == 39000);
  CHECK(send.net_send_ns == 25000);
  CHECK(send.other_ns == 6000);
  REQUIRE(c.ranks[1].proxy.has_value());
  const ProxyStepBreakdown& recv = *c.ranks[1].proxy;
  CHECK(recv.steps == 2);
  CHECK(recv.step_ns == 45000);
  CHECK(recv.net_recv_ns == 33000);
  CHECK(recv.sync_ns == 11000);
  CHECK(recv.other_ns == 1000);
  CHECK(run.config.capture.at("inspector.format_version") == std::set<std::string>{"v4.3"});
}
