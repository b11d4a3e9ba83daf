// diff_runs with user tags (NCCL 2.31+): rows keyed by tag when both runs carry tags, tags folded
// when only one does; summarize_run's tag keys and NCCL's kernel phases as "kernel" phase rows;
// a tagged row through the summary JSON. Expected values are the hand-made durations below.
#include <catch2/catch.hpp>

#include "analysis/diff/run_diff.hpp"
#include "analysis/summary/summarize_run.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/summary_json_writer.hpp"
#include "unit/run/summary/summary_test_support.hpp"

namespace {

using namespace npkit;
using npkit::test::synthetic_row;

// 20 durations around `center` ns: center − 95, −85, ..., +95 (median = center).
std::vector<std::int64_t> around(std::int64_t center) {
  std::vector<std::int64_t> v;
  for (int i = 0; i < 20; ++i) v.push_back(center - 95 + 10 * i);
  return v;
}

CollectiveRow tagged(std::uint64_t tag, std::int64_t center) {
  CollectiveRow r = synthetic_row("AllReduce", 1 << 20, "RING", "LL", {around(center)});
  r.key.tag = tag;
  return r;
}

RunSummary run(std::vector<CollectiveRow> rows) {
  RunSummary s;
  s.inputs = {"run"};
  s.collectives = std::move(rows);
  std::sort(s.collectives.begin(), s.collectives.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  return s;
}

}  // namespace

TEST_CASE("tagged diff: both runs tagged, one row per tag", "[diff]") {
  // Tag 7 went from 10000 to 12000 ns (+20 %); tag 9 stayed at 20000 ns.
  const RunSummary base = run({tagged(7, 10000), tagged(9, 20000)});
  const RunSummary cand = run({tagged(7, 12000), tagged(9, 20000)});
  const RunDiff d = diff_runs(base, cand, NoiseRule{});
  REQUIRE(d.collectives.size() == 2);
  CHECK(d.collectives[0].tag == 7);
  CHECK(d.collectives[0].label() == "AllReduce [tag 7]");
  CHECK(d.collectives[0].judgement.verdict == Verdict::kRegression);
  CHECK(d.collectives[0].judgement.deciding_change == Approx(0.2).margin(0.001));
  CHECK(d.collectives[1].tag == 9);
  CHECK(d.collectives[1].judgement.verdict == Verdict::kUnchanged);
}

TEST_CASE("tagged diff: a tag only one run has is missing or only in the candidate", "[diff]") {
  const RunDiff d = diff_runs(run({tagged(7, 10000), tagged(8, 10000)}),
                              run({tagged(7, 10000), tagged(9, 10000)}), NoiseRule{});
  REQUIRE(d.collectives.size() == 3);
  CHECK(d.collectives[0].tag == 7);
  CHECK(d.collectives[0].judgement.verdict == Verdict::kUnchanged);
  CHECK(d.collectives[1].tag == 8);
  CHECK(d.collectives[1].judgement.verdict == Verdict::kMissing);
  CHECK(d.collectives[2].tag == 9);
  CHECK(d.collectives[2].judgement.verdict == Verdict::kNotComparable);
}

TEST_CASE("tagged diff: tags are folded when only one run carries them", "[diff]") {
  // The candidate's two tags pool into one untagged row of 40 durations per rank, median 10000
  // (both halves are the same 20 values); the baseline's untagged row has the same median.
  const RunSummary base = run({tagged(0, 10000)});
  const RunSummary cand = run({tagged(7, 10000), tagged(9, 10000)});
  CHECK_FALSE(has_tags(base.collectives));
  CHECK(has_tags(cand.collectives));
  const std::vector<CollectiveRow> folded = untagged(cand.collectives);
  REQUIRE(folded.size() == 1);
  CHECK(folded[0].key.tag == 0);
  CHECK(folded[0].ranks[0].time_ns.count() == 40);
  const RunDiff d = diff_runs(base, cand, NoiseRule{});
  REQUIRE(d.collectives.size() == 1);
  CHECK(d.collectives[0].tag == 0);
  CHECK(d.collectives[0].label() == "AllReduce");
  CHECK(d.collectives[0].judgement.verdict == Verdict::kUnchanged);
  CHECK(d.collectives[0].judgement.ranks.size() == 1);
}

TEST_CASE("summarize_run: user tags key the rows, kernel phases become kernel phase rows",
          "[summary]") {
  // Two ranks, three AllReduce of 1 KiB: tags 7, 7, 0. Rank 0's members have kernel phases
  // {10, 30, 10} (span 50), {5, 10, 5} (span 20) and none; rank 1's none.
  Run r;
  r.path = "tagged";
  RunCommunicator c;
  c.hash = 0xabc;
  c.nranks = 2;
  const std::int64_t spans[3][2] = {{100, 150}, {300, 320}, {500, 540}};
  const std::uint64_t tags[3] = {7, 7, 0};
  for (int i = 0; i < 3; ++i) {
    RunInstance inst;
    inst.func = "AllReduce";
    inst.bytes = 1024;
    inst.tag = tags[i];
    for (std::int32_t rank = 0; rank < 2; ++rank) {
      RunMember m;
      m.rank = rank;
      m.timed = true;
      m.start_ns = spans[i][0];
      m.end_ns = spans[i][1];
      m.tag = tags[i];
      inst.members.push_back(m);
    }
    c.instances.push_back(inst);
  }
  c.instances[0].members[0].kernel_phases = KernelPhaseTimes{{10, 30, 10}, 1};
  c.instances[1].members[0].kernel_phases = KernelPhaseTimes{{5, 10, 5}, 1};
  r.comms.push_back(c);
  const PhaseAssignment phases = assign_phases(PhaseMap{}, EventTable{});
  const RunSummary s = summarize_run(r, SummarySpanSink(phases));

  REQUIRE(s.collectives.size() == 2);
  CHECK(s.collectives[0].key.tag == 0);
  CHECK(s.collectives[0].instances == 1);
  CHECK(s.collectives[1].key.tag == 7);
  CHECK(s.collectives[1].instances == 2);
  // Phase rows sorted by key: kernel/gpu/compute, final_sync, initial_sync; rank 0 only.
  REQUIRE(s.phases.size() == 3);
  const PhaseRow& compute = s.phases[0];
  CHECK(compute.key.source == "kernel");
  CHECK(compute.key.domain == "gpu");
  CHECK(compute.key.phase == "compute");
  REQUIRE(compute.ranks.size() == 1);
  CHECK(compute.ranks[0].rank == 0);
  CHECK(compute.ranks[0].ns == 40);            // 30 + 10
  CHECK(compute.ranks[0].reference_ns == 70);  // spans 50 + 20
  CHECK(compute.ranks[0].count == 2);
  CHECK(compute.ranks[0].span_ns.median() == Approx(20.0));  // of 30 and 10
  CHECK(s.phases[1].key.phase == "final_sync");
  CHECK(s.phases[1].ranks[0].ns == 15);
  CHECK(s.phases[2].key.phase == "initial_sync");
  CHECK(s.phases[2].ranks[0].ns == 15);
}

TEST_CASE("summary json: a tagged row reads back with its tag, an untagged one writes none",
          "[summary][json]") {
  const RunSummary s = run({tagged(0, 10000), tagged(7, 10000)});
  std::string text;
  write_summary_json(s, text);
  CHECK(text.find("\"tag\": 7") != std::string::npos);
  CHECK(text.find("\"tag\": 0") == std::string::npos);
  auto back = parse_summary("x", text);
  REQUIRE(back.ok());
  CHECK(*back == s);
}
