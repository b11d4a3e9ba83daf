// hang on PyTorch Flight Recorder dumps alone: the fixtures of tests/data/flight_recorder (spec in
// make_fixtures.py: global rank 2 stopped calling; ranks 0, 1, 3 hold all_reduce #62 of
// default_pg scheduled, rank 2 ends at #61 completed; each pair group completed its #7; the
// frames' innermost one outside torch/ is train_step in train.py:141), and dumps built here.
#include <catch2/catch.hpp>

#include "analysis/hang/fr_hang.hpp"
#include "import/run_input.hpp"
#include "support/test_data.hpp"

using namespace npkit;

namespace {

FlightRecorderDumps read_fixture(const std::string& dir) {
  ImportOptions o;
  o.path = test::require_path(test::data_path("flight_recorder/" + dir));
  o.env_file = "none";
  auto input = open_run_input(o);
  REQUIRE(input);
  auto run = (*input)->read({});
  REQUIRE(run);
  return run->flight_recorder;
}

FrEntry collective(const std::string& group, std::int64_t seq, FrState state,
                   const std::string& name = "nccl:all_reduce") {
  FrEntry e;
  e.pg_name = group;
  e.pg_desc = "g";
  e.collective_seq_id = seq;
  e.profiling_name = name;
  e.state = state;
  e.input_sizes = {{4}};
  e.input_dtypes = {"Float"};
  return e;
}

FlightRecorderDump rank_dump(std::int32_t rank, std::vector<FrEntry> entries) {
  FlightRecorderDump d;
  d.rank = rank;
  d.groups.push_back(FrGroup{"g", "g", {0, 1, 2}});
  d.entries = std::move(entries);
  return d;
}

}  // namespace

TEST_CASE("fr hang: the rank that never called default_pg's all_reduce #62 is named") {
  const FrHangAnalysis hang = analyze_fr_hang(read_fixture("pickle_2_10"));
  CHECK(hang.stalled());
  CHECK_FALSE(hang.cannot_tell());
  REQUIRE(hang.groups.size() == 3);
  const FrGroupHang& world = hang.groups[0];
  CHECK(world.name == "0");
  CHECK(world.desc == "default_pg");
  CHECK(world.members == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(world.seq == 62);
  CHECK(world.operation == "all_reduce");
  CHECK(world.input_sizes == std::vector<std::vector<std::int64_t>>{{1024, 1024}});
  CHECK(world.missing == std::vector<std::int64_t>{2});
  CHECK(world.waiting == std::vector<std::int64_t>{0, 1, 3});
  CHECK(world.without_dump.empty());
  CHECK(world.mismatches.empty());
  CHECK(world.called_from == "train.py:141 (train_step)");
  for (const FrGroupHang* pair : {&hang.groups[1], &hang.groups[2]}) {
    CHECK_FALSE(pair->stalled());
    CHECK(pair->seq == 7);
    CHECK(pair->missing.empty());
  }
}

TEST_CASE("fr hang: JSON dumps (no frames) give the same verdict without a calling frame") {
  const FrHangAnalysis hang = analyze_fr_hang(read_fixture("json_2_10"));
  REQUIRE(hang.groups.size() == 3);
  CHECK(hang.groups[0].missing == std::vector<std::int64_t>{2});
  CHECK(hang.groups[0].called_from.empty());
}

TEST_CASE("fr hang: another operation or other sizes at the same seq are mismatches") {
  FlightRecorderDumps dumps;
  dumps.ranks.push_back(rank_dump(0, {collective("g", 5, FrState::kStarted)}));
  dumps.ranks.push_back(rank_dump(1, {collective("g", 5, FrState::kScheduled, "nccl:all_gather")}));
  FrEntry bigger = collective("g", 5, FrState::kStarted);
  bigger.input_sizes = {{8}};
  dumps.ranks.push_back(rank_dump(2, {bigger}));
  const FrHangAnalysis hang = analyze_fr_hang(dumps);
  REQUIRE(hang.groups.size() == 1);
  const FrGroupHang& g = hang.groups[0];
  CHECK(g.waiting == std::vector<std::int64_t>{0, 1, 2});
  CHECK(g.missing.empty());
  CHECK(g.mismatches == std::vector<std::string>{"global rank 1: all_gather, not all_reduce",
                                                 "global rank 2: input sizes [8], not [4]"});
}

TEST_CASE("fr hang: point-to-point entries are left out - members without a dump make it unknown") {
  FlightRecorderDumps dumps;
  FrEntry send = collective("g", 9, FrState::kScheduled, "nccl:send 0->1");
  send.is_p2p = true;
  dumps.ranks.push_back(rank_dump(0, {collective("g", 3, FrState::kCompleted), send}));
  dumps.ranks.push_back(rank_dump(1, {collective("g", 3, FrState::kCompleted)}));
  const FrHangAnalysis hang = analyze_fr_hang(dumps);
  REQUIRE(hang.groups.size() == 1);
  CHECK(hang.groups[0].seq == 3);
  CHECK_FALSE(hang.stalled());
  CHECK(hang.groups[0].without_dump == std::vector<std::int64_t>{2});
  CHECK(hang.cannot_tell());
}
