// summarize_run on a benchmark driver's rows (Run::driver): one row per (collective, S), each
// row of the driver an instance, the out-of-place times as rank 0's sample (the per-iteration
// times less the skipped ones where recorded, else the one averaged time).
#include <catch2/catch.hpp>

#include "analysis/summary/summarize_run.hpp"

namespace npkit {
namespace {

DriverResult row(std::uint64_t bytes, std::uint32_t cycle, std::optional<double> oop_ns,
                 std::vector<double> iterations = {}, std::uint32_t skipped = 0) {
  DriverResult r;
  r.func = "AllReduce";
  r.bytes = bytes;
  r.type = "ncclFloat32";
  r.cycle = cycle;
  if (oop_ns) {
    DriverTiming t;
    t.time_ns = *oop_ns;
    t.iteration_ns = std::move(iterations);
    t.skipped_iterations = skipped;
    r.out_of_place = t;
  }
  DriverTiming in_place;
  in_place.time_ns = 1;  // never summarized
  r.in_place = in_place;
  return r;
}

Run driver_run(std::vector<DriverResult> rows) {
  Run run;
  run.path = "results.json";
  run.kind = InputKind::kNcclTests;
  RunCommunicator comm;
  comm.scope = run.path;
  comm.nranks = 8;
  run.comms.push_back(comm);
  run.driver.nranks = 8;
  run.driver.rows = std::move(rows);
  return run;
}

RunSummary summarize(const Run& run) {
  const PhaseAssignment phases = assign_phases(PhaseMap{}, EventTable{});
  return summarize_run(run, SummarySpanSink(phases));
}

TEST_CASE("summarize: a driver's averaged times, one per row and pass, as rank 0's sample",
          "[summary]") {
  const RunSummary s = summarize(driver_run({row(1024, 0, 20000.4), row(1024, 1, 21000.6),
                                             row(4096, 0, 30000.0), row(8192, 0, std::nullopt)}));
  REQUIRE(s.collectives.size() == 3);
  const CollectiveRow& small = s.collectives[0];
  CHECK(small.key == CollectiveKey{"AllReduce", 8, 1024, SizeKind::kExact, "", ""});
  CHECK(small.instances == 2);
  CHECK(small.untimed_instances == 0);
  CHECK(small.bytes_sum == 2048);
  REQUIRE(small.ranks.size() == 1);
  CHECK(small.ranks[0].rank == 0);
  CHECK(small.ranks[0].time_ns.values() == std::vector<std::int64_t>{20000, 21001});
  CHECK(s.collectives[1].ranks[0].time_ns.values() == std::vector<std::int64_t>{30000});
  // Run in place only: an untimed instance, no sample.
  CHECK(s.collectives[2].instances == 1);
  CHECK(s.collectives[2].untimed_instances == 1);
  CHECK(s.collectives[2].ranks.empty());
}

TEST_CASE("summarize: a driver's per-iteration times replace its average, less skipped ones",
          "[summary]") {
  const RunSummary s = summarize(driver_run(
      {row(1024, 0, 20000, {30000, 20000, 21000}, 1), row(1024, 1, 20000, {19000, 22000}, 0)}));
  REQUIRE(s.collectives.size() == 1);
  CHECK(s.collectives[0].ranks[0].time_ns.values() ==
        std::vector<std::int64_t>{19000, 20000, 21000, 22000});
}

}  // namespace
}  // namespace npkit
