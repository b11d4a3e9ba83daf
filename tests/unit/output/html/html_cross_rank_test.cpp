#include <catch2/catch.hpp>

#include <cmath>
#include <variant>

#include "analysis/report/cross_rank_report.hpp"
#include "output/html/cross_rank_blocks.hpp"
#include "output/html/legacy_timeline.hpp"

using namespace npkit;
using namespace npkit::html;

namespace {

// Three ranks on one clock: instance 0 with all three (rank 2 arrives 2 us after rank 0),
// instance 1 without rank 2, instance 2 with rank 0 only.
CrossRankAnalysis three_ranks() {
  CrossRankInput in;
  in.scope = "comm test";
  in.time_source = "GPU spans";
  in.nranks = 3;
  in.ranks = {RankInfo{0, "", 0, {}, {}, {}}, RankInfo{1, "", 0, {}, {}, {}},
              RankInfo{2, "", 0, {}, {}, {}}};
  in.instances = {
      {"AllReduce", "AllReduce seq 0", 1024, {{0, 1000, 5000}, {1, 1200, 5100}, {2, 3000, 5200}}},
      {"AllReduce", "AllReduce seq 1", 2048, {{0, 10000, 10500}, {1, 12000, 13000}}},
      {"AllReduce", "AllReduce seq 2", 4096, {{0, 20000, 21000}}}};
  return analyze_cross_rank(in, Thresholds{});
}

std::vector<const Heatmap*> heatmaps_of(const std::vector<Block>& blocks) {
  std::vector<const Heatmap*> out;
  for (const auto& b : blocks) {
    if (const auto* h = std::get_if<Heatmap>(&b)) out.push_back(h);
  }
  return out;
}

}  // namespace

TEST_CASE("html: lateness and wait per rank and instance, by hand", "[html]") {
  const CrossRankAnalysis a = three_ranks();
  std::vector<std::string> reduction;
  const auto blocks = cross_rank_blocks(a, reduction);
  CHECK(reduction.empty());
  const auto maps = heatmaps_of(blocks);
  REQUIRE(maps.size() == 2);
  const Heatmap& late = *maps[0];
  const Heatmap& wait = *maps[1];
  REQUIRE(late.rows.size() == 3);
  REQUIRE(late.columns.size() == 3);
  // Instance 0: first arrival 1000, last 3000. Lateness 0, 200, 2000; waits: rank 0
  // min(3000 - 1000, 5000 - 1000) = 2000, rank 1 min(1800, 3900) = 1800, rank 2 0.
  CHECK(late.values[0][0] == 0);
  CHECK(late.values[1][0] == 200);
  CHECK(late.values[2][0] == 2000);
  CHECK(wait.values[0][0] == 2000);
  CHECK(wait.values[1][0] == 1800);
  CHECK(wait.values[2][0] == 0);
  // Instance 1: rank 0 would wait 2000 but runs only 500: capped. Rank 2 is not there.
  CHECK(late.values[1][1] == 2000);
  CHECK(wait.values[0][1] == 500);
  CHECK(wait.values[1][1] == 0);
  CHECK(std::isnan(late.values[2][1]));
  // Instance 2 has one rank: nothing to compare.
  CHECK(std::isnan(late.values[0][2]));
  CHECK(std::isnan(wait.values[0][2]));
  CHECK(late.columns[0] == "#0 AllReduce seq 0, 1 KiB");
}

TEST_CASE("html: cross-rank heatmaps bucket columns and say so", "[html]") {
  const CrossRankAnalysis a = three_ranks();
  std::vector<std::string> reduction;
  const auto maps_blocks = cross_rank_blocks(a, reduction, 2);
  const auto maps = heatmaps_of(maps_blocks);
  REQUIRE(maps.size() == 2);
  // 3 instances into at most 2 columns: 2 per column, {0, 1} and {2}; the largest value wins.
  REQUIRE(maps[0]->columns.size() == 2);
  CHECK(maps[0]->values[1][0] == 2000);  // max(200, 2000)
  CHECK(maps[0]->values[2][0] == 2000);  // max(2000, none)
  CHECK(maps[0]->items_per_column == 2);
  REQUIRE(reduction.size() == 1);
  CHECK(reduction[0].find("3 instances into 2 columns of 2") != std::string::npos);
  CHECK(maps[0]->note.find("a column is 2 consecutive instances") != std::string::npos);
}

TEST_CASE("html: diagnosis findings become a list with their numbers", "[html]") {
  npkit::Finding f;
  f.rule = "straggler";
  f.scope = "comm 1";
  f.summary = "rank 3 arrives last in 90% of 20 instances";
  f.next_step = "look at rank 3's host";
  f.numbers = {
      {"share", 0.9}, {"instances", 20}, {"margin_median_ns", 2254298}, {"busbw_gbps", 12.5}};
  const FindingList list = finding_list({f});
  REQUIRE(list.findings.size() == 1);
  CHECK(list.findings[0].severity == "straggler");
  CHECK(list.findings[0].title == f.summary);
  CHECK(list.findings[0].evidence ==
        std::vector<std::string>{"scope: comm 1", "share: 90.0%", "instances: 20",
                                 "margin median: 2.254 ms", "busbw: 12.50 GB/s"});
  CHECK(list.findings[0].next_step == f.next_step);
  CHECK(finding_list({}).findings.empty());
  CHECK(!finding_list({}).empty_text.empty());
}

TEST_CASE("html: a legacy timeline keeps the window's host-clock spans", "[html]") {
  PhaseAssignment phases;
  phases.phase_names = {"other", "reduce_scatter"};
  const std::vector<std::string> names = {"ALL_REDUCE_RING", "RING_SEND"};
  WindowSpans w(1000, 2000);
  TrackFile gpu0{TrackRef{0, TrackKind::kGpu, 0}, "", 0};
  TrackFile gpu3{TrackRef{1, TrackKind::kGpu, 3}, "", 0};
  w.begin_track(gpu0, TimeDomain::kHost);
  Span outer;
  outer.track = gpu0.track;
  outer.start_ns = 900;
  outer.end_ns = 1900;
  Span inner = outer;
  inner.base = 1;
  inner.phase = 1;
  inner.depth = 1;
  inner.start_ns = 1000;
  inner.end_ns = 1500;
  inner.exit_size = 1000;
  Span outside = outer;
  outside.start_ns = 2500;
  outside.end_ns = 2600;
  w.on_span(outer);
  w.on_span(inner);
  w.on_span(outside);
  w.begin_track(gpu3, TimeDomain::kGpuCounter);
  Span other_clock = outer;
  other_clock.track = gpu3.track;
  w.on_span(other_clock);
  REQUIRE(w.spans().size() == 2);
  CHECK(w.unplaced() == 1);
  const Timeline t = legacy_timeline(w, names, phases, InstanceWindow{1000, 2000}, "t", "c.");
  // The nested span shares its parent's row: one row, two spans, coloured by phase.
  REQUIRE(t.rows.size() == 1);
  CHECK(t.rows[0].label == "buf 0");
  CHECK(t.groups == std::vector<std::string>{"rank 0"});
  REQUIRE(t.spans.size() == 2);
  CHECK(t.spans[0].category == "other");
  CHECK(t.spans[1].category == "reduce_scatter");
  CHECK(t.spans[1].label == "RING_SEND");
  // 1000 bytes over 500 ns = 2 GB/s.
  CHECK(t.spans[1].tooltip.find("size 1000 B, 2 GB/s over the span") != std::string::npos);
  CHECK(t.note.find("1 span(s) of GPU buffers without TIME_SYNC") != std::string::npos);
}
