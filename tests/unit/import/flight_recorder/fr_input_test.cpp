// PyTorch Flight Recorder dumps: the fixtures of tests/data/flight_recorder, written by Python's
// pickle and json modules from the spec in make_fixtures.py (SPEC comments there). From the spec:
// 4 ranks; groups "0" (default_pg, global ranks 0-3), "1" (0, 1) and "2" (2, 3), each rank
// recording the world group and its pair group; each rank's ring
// holds all_reduce #59 on of default_pg, of [[1024, 1024]] Float, completed, then #62 scheduled on
// ranks 0, 1 and 3 (rank 2 ends at #61), then all_reduce #7 of its pair group, of [[8]]. Every
// entry has the same three frames, innermost all_reduce (distributed_c10d.py:2696), outermost
// train_step (train.py:141).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "import/flight_recorder/fr_file.hpp"
#include "import/flight_recorder/fr_input.hpp"
#include "import/run_input.hpp"
#include "support/find_warning.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

using namespace npkit;

namespace {

std::string fixture(const std::string& dir) {
  return test::require_path(test::data_path("flight_recorder/" + dir));
}

Run read(const std::string& path, Diagnostics* warnings = nullptr) {
  ImportOptions o;
  o.path = path;
  o.env_file = "none";
  auto input = open_run_input(o);
  REQUIRE(input);
  REQUIRE((*input)->kind() == InputKind::kFlightRecorder);
  auto run = (*input)->read({});
  REQUIRE(run);
  if (warnings != nullptr) *warnings = (*input)->diagnostics();
  return std::move(*run);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr std::int64_t kTime0 = 1'700'000'000'000'000'000;

// What the spec says of rank `rank`'s dump, in either form; `frames`: whether the form holds them.
void check_rank(const FlightRecorderDump& d, std::int32_t rank, bool frames) {
  CHECK(d.rank == rank);
  CHECK(d.version == "2.10");
  CHECK(d.comm_lib_version == "2.28.9");
  // A rank records the world group and its pair group.
  REQUIRE(d.groups.size() == 2);
  CHECK(d.groups[0].name == "0");
  CHECK(d.groups[0].desc == "default_pg");
  CHECK(d.groups[0].ranks == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(d.groups[1].name == (rank < 2 ? "1" : "2"));
  CHECK(d.groups[1].desc == "undefined");
  CHECK(d.groups[1].ranks ==
        (rank < 2 ? std::vector<std::int64_t>{0, 1} : std::vector<std::int64_t>{2, 3}));
  const bool stopped = rank == 2;
  REQUIRE(d.entries.size() == (stopped ? 4u : 5u));
  for (std::size_t i = 0; i + 1 < d.entries.size(); ++i) {
    const FrEntry& e = d.entries[i];
    CHECK(e.record_id == static_cast<std::int64_t>(i));
    CHECK(e.pg_name == "0");
    CHECK(e.pg_desc == "default_pg");
    CHECK(e.collective_seq_id == 59 + static_cast<std::int64_t>(i));
    CHECK(e.op_id == e.collective_seq_id);
    CHECK(e.profiling_name == "nccl:all_reduce");
    CHECK(e.time_created_ns == kTime0 + static_cast<std::int64_t>(i) * 1000);
    CHECK(e.input_sizes == std::vector<std::vector<std::int64_t>>{{1024, 1024}});
    CHECK(e.output_sizes == e.input_sizes);
    CHECK(e.input_dtypes == std::vector<std::string>{"Float"});
    CHECK(e.timeout_ms == 600000);
    CHECK_FALSE(e.is_p2p);
    CHECK(e.thread_name == "pt_main_thread");
    CHECK(e.thread_id == "140234");
    CHECK(e.frames.size() == (frames ? 3u : 0u));
  }
  const FrEntry& last_world = d.entries[d.entries.size() - 2];
  if (stopped) {
    CHECK(last_world.collective_seq_id == 61);
    CHECK(last_world.state == FrState::kCompleted);
    CHECK(last_world.duration_ms == 0.25);
    CHECK(last_world.time_discovered_completed_ns == kTime0 + 2 * 1000 + 500);
    CHECK(last_world.retired);
  } else {
    CHECK(last_world.collective_seq_id == 62);
    CHECK(last_world.state == FrState::kScheduled);
    CHECK_FALSE(last_world.duration_ms);
    CHECK_FALSE(last_world.time_discovered_started_ns);
    CHECK_FALSE(last_world.time_discovered_completed_ns);
    CHECK_FALSE(last_world.retired);
  }
  const FrEntry& pair = d.entries.back();
  CHECK(pair.pg_name == (rank < 2 ? "1" : "2"));
  CHECK(pair.pg_desc == "undefined");
  CHECK(pair.collective_seq_id == 7);
  CHECK(pair.input_sizes == std::vector<std::vector<std::int64_t>>{{8}});
  CHECK(pair.state == FrState::kCompleted);
  REQUIRE(d.status.size() == 1);
  CHECK(d.status[0].pg_id == "0");
  CHECK(d.status[0].last_enqueued == (stopped ? 61 : 62));
  CHECK(d.status[0].last_completed == 61);
}

}  // namespace

TEST_CASE("Flight Recorder pickles (format 2.10) are read by the spec of every rank") {
  const Run run = read(fixture("pickle_2_10"));
  CHECK(run.kind == InputKind::kFlightRecorder);
  CHECK(run.comms.empty());
  CHECK(run.config.nccl_versions == std::set<std::string>{"2.28.9"});
  const FlightRecorderDumps& fr = run.flight_recorder;
  CHECK(fr.prefix == "nccl_trace_rank_");
  REQUIRE(fr.ranks.size() == 4);
  for (std::int32_t r = 0; r < 4; ++r) {
    INFO("rank " << r);
    check_rank(fr.ranks[r], r, true);
    CHECK(fr.ranks[r].format == "pickle");
  }
  // One frames list shared by every entry (the pickle's memo): three frames in all.
  const FlightRecorderDump& d = fr.ranks[0];
  REQUIRE(d.frames.size() == 3);
  const FrFrame& inner = d.frames[d.entries[0].frames[0]];
  CHECK(inner.name == "all_reduce");
  CHECK(inner.filename == "torch/distributed/distributed_c10d.py");
  CHECK(inner.line == 2696);
  const FrFrame& outer = d.frames[d.entries[4].frames[2]];
  CHECK(outer.name == "train_step");
  CHECK(outer.filename == "train.py");
  CHECK(outer.line == 141);
}

TEST_CASE("Flight Recorder JSON dumps give the same record, without frames") {
  const Run run = read(fixture("json_2_10"));
  REQUIRE(run.flight_recorder.ranks.size() == 4);
  for (std::int32_t r = 0; r < 4; ++r) {
    INFO("rank " << r);
    check_rank(run.flight_recorder.ranks[r], r, false);
    CHECK(run.flight_recorder.ranks[r].format == "JSON");
  }
}

TEST_CASE("format 2.7 names the library version nccl_version and has no thread fields") {
  Diagnostics warnings;
  const Run run = read(fixture("pickle_2_7"), &warnings);
  REQUIRE(run.flight_recorder.ranks.size() == 1);
  const FlightRecorderDump& d = run.flight_recorder.ranks[0];
  CHECK(d.version == "2.7");
  CHECK(d.comm_lib_version == "2.28.9");
  REQUIRE(d.entries.size() == 5);
  CHECK(d.entries[0].thread_name.empty());
  CHECK(d.entries[0].thread_id.empty());
  CHECK(test::find_warning(warnings, "Flight Recorder version") == nullptr);
  // Rank 0 alone, while its groups name ranks 0-3.
  const WarningGroup* missing = test::find_warning(warnings, "missing ranks");
  REQUIRE(missing != nullptr);
  CHECK(missing->examples.front() ==
        fixture("pickle_2_7") +
            ": no Flight Recorder dump of global rank(s) 1-3, which the dumps' process groups "
            "name");
}

TEST_CASE("hand-written pickles: build_intlist + REDUCE, LONG1, BINFLOAT, memo by LONG_BINGET") {
  const Run intlist = read(fixture("handmade/intlist"));
  REQUIRE(intlist.flight_recorder.ranks.size() == 1);
  REQUIRE(intlist.flight_recorder.ranks[0].entries.size() == 1);
  const FrEntry& e = intlist.flight_recorder.ranks[0].entries[0];
  CHECK(e.input_sizes == std::vector<std::vector<std::int64_t>>{{4, 4464, -3}});
  CHECK(e.output_sizes == std::vector<std::vector<std::int64_t>>{{}});
  CHECK(e.collective_seq_id == std::int64_t{1} << 40);
  CHECK(e.time_created_ns == kTime0);
  CHECK(e.duration_ms == 1.5);
  CHECK(e.state == FrState::kStarted);
  CHECK(e.profiling_name == "nccl:broadcast");

  const Run memo = read(fixture("handmade/memo"));
  const auto& entries = memo.flight_recorder.ranks.at(0).entries;
  REQUIRE(entries.size() == 2);
  CHECK(entries[1].profiling_name == "nccl:all_reduce");
  CHECK(entries[1].pg_name == "1");
  CHECK(entries[1].pg_desc == "undefined");
  CHECK(entries[1].collective_seq_id == 2);
}

TEST_CASE("a directory of Flight Recorder dumps is detected by content - one dump alone is not") {
  auto d = detect_input(fixture("pickle_2_10"));
  REQUIRE(d);
  CHECK(d->kind == DetectedKind::kFlightRecorder);
  auto j = detect_input(fixture("json_2_10"));
  REQUIRE(j);
  CHECK(j->kind == DetectedKind::kFlightRecorder);
  const std::string one = fixture("pickle_2_10") + "/nccl_trace_rank_1";
  auto file = detect_input(one);
  REQUIRE_FALSE(file);
  CHECK(file.error().message ==
        one +
            ": a PyTorch Flight Recorder dump: the input is the directory that holds every "
            "rank's dump (" +
            fixture("pickle_2_10") + ")");
  // Content decides: the same bytes under a name without a rank are not a dump.
  test::TempDir tmp;
  tmp.write_file("dumps/trace", file_bytes(one));
  CHECK_FALSE(detect_input(tmp.path() + "/dumps"));
}

TEST_CASE("two dumps of one rank, or two prefixes, are errors - --ranks selects dumps") {
  test::TempDir tmp;
  const std::string bytes0 = file_bytes(fixture("pickle_2_10") + "/nccl_trace_rank_0");
  const std::string bytes1 = file_bytes(fixture("pickle_2_10") + "/nccl_trace_rank_1");
  tmp.write_file("dup/fr_1", bytes1);
  tmp.write_file("dup/fr_01", bytes1);
  ImportOptions o;
  o.env_file = "none";
  o.path = tmp.path() + "/dup";
  auto dup = open_run_input(o);
  REQUIRE_FALSE(dup);
  CHECK(dup.error().message == o.path + ": two Flight Recorder dumps of rank 1: fr_01 and fr_1");

  tmp.write_file("two/a_0", bytes0);
  tmp.write_file("two/b_1", bytes1);
  o.path = tmp.path() + "/two";
  auto two = open_run_input(o);
  REQUIRE_FALSE(two);
  CHECK(two.error().message == o.path +
                                   ": holds Flight Recorder dumps of 2 prefixes (a_, b_): give a "
                                   "directory of one job's dumps");

  o.path = fixture("pickle_2_10");
  o.ranks = "1,3";
  auto input = open_run_input(o);
  REQUIRE(input);
  auto run = (*input)->read({});
  REQUIRE(run);
  REQUIRE(run->flight_recorder.ranks.size() == 2);
  CHECK(run->flight_recorder.ranks[0].rank == 1);
  CHECK(run->flight_recorder.ranks[1].rank == 3);
}

TEST_CASE("info's details: each group's ranks with their last entry") {
  const Run run = read(fixture("pickle_2_10"));
  REQUIRE(run.details.csv);
  const TextTable& t = *run.details.csv;
  REQUIRE(t.columns == std::vector<std::string>{"group", "desc", "global ranks", "rank", "entries",
                                                "last seq", "operation", "state"});
  // Group 0 on ranks 0-3, group 1 on 0-1, group 2 on 2-3.
  REQUIRE(t.rows.size() == 8);
  CHECK(t.rows[0] == std::vector<std::string>{"0", "default_pg", "0,1,2,3", "0", "4", "62",
                                              "nccl:all_reduce", "scheduled"});
  CHECK(t.rows[2] == std::vector<std::string>{"0", "default_pg", "0,1,2,3", "2", "3", "61",
                                              "nccl:all_reduce", "completed"});
  CHECK(t.rows[4] == std::vector<std::string>{"1", "undefined", "0,1", "0", "1", "7",
                                              "nccl:all_reduce", "completed"});
  CHECK(t.rows[7] == std::vector<std::string>{"2", "undefined", "2,3", "3", "1", "7",
                                              "nccl:all_reduce", "completed"});
}
