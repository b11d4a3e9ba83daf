#include "analysis/sync/phase_wait.hpp"

#include <catch2/catch.hpp>

#include "run/event_table.hpp"

namespace {

using namespace npkit;

std::uint16_t phase_id(const PhaseAssignment& a, const std::string& name) {
  for (std::size_t p = 0; p < a.phase_names.size(); ++p) {
    if (a.phase_names[p] == name) return static_cast<std::uint16_t>(p);
  }
  FAIL("no phase " << name);
  return 0;
}

std::uint16_t base_id(const EventTable& t, const std::string& name) {
  for (std::size_t b = 0; b < t.base_names().size(); ++b) {
    if (t.base_names()[b] == name) return static_cast<std::uint16_t>(b);
  }
  FAIL("no event " << name);
  return 0;
}

const PhaseWait& row(const std::vector<PhaseWait>& rows, std::uint32_t rank,
                     const std::string& phase) {
  for (const auto& r : rows) {
    if (r.rank == rank && r.phase == phase) return r;
  }
  FAIL("no row for rank " << rank << " " << phase);
  return rows.front();
}

}  // namespace

TEST_CASE("phase waits: a rank's time beyond the least any rank spent, per instance",
          "[sync][phases]") {
  auto table = builtin_event_table("nccl");
  REQUIRE(table.ok());
  const PhaseAssignment a = assign_phases(PhaseMap::builtin(), *table);
  const std::uint16_t ring = base_id(*table, "ALL_REDUCE_RING");
  const std::uint16_t rs = phase_id(a, "reduce_scatter");
  const std::uint16_t ag = phase_id(a, "all_gather");

  PhaseWaitSink sink(a);
  // On a track: the children (reduce_scatter ns, all_gather ns), then their top-level span, whose
  // own time is 1 ns.
  auto instance = [&](std::uint32_t rank, std::uint32_t size, std::int64_t rs_ns,
                      std::int64_t ag_ns) {
    Span s;
    s.track = TrackRef{rank, TrackKind::kGpu, 0};
    s.depth = 1;
    s.phase = rs;
    s.end_ns = rs_ns;
    sink.on_span(s);
    s.phase = ag;
    s.end_ns = ag_ns;
    sink.on_span(s);
    Span top;
    top.track = s.track;
    top.base = ring;
    top.phase = a.other_phase;
    top.entry_size = size;
    top.end_ns = rs_ns + ag_ns + 1;
    top.child_ns = rs_ns + ag_ns;
    sink.on_span(top);
  };
  instance(0, 1024, 10, 5);  // instance 0 of 1024 B
  instance(0, 1024, 20, 8);  // instance 1
  instance(0, 2048, 40, 4);  // only on rank 0: not compared
  instance(1, 1024, 30, 5);
  instance(1, 1024, 20, 2);

  const PhaseWaits w = phase_waits(sink, a);
  CHECK(w.instances == 2);
  // reduce_scatter: instance 0 least 10 (rank 0), instance 1 least 20 (both).
  CHECK(row(w.ranks, 0, "reduce_scatter").time_ns == 30);
  CHECK(row(w.ranks, 0, "reduce_scatter").wait_ns == 0);
  CHECK(row(w.ranks, 1, "reduce_scatter").time_ns == 50);
  CHECK(row(w.ranks, 1, "reduce_scatter").wait_ns == 20);
  // all_gather: instance 0 least 5 (both), instance 1 least 2 (rank 1).
  CHECK(row(w.ranks, 0, "all_gather").time_ns == 13);
  CHECK(row(w.ranks, 0, "all_gather").wait_ns == 6);
  CHECK(row(w.ranks, 1, "all_gather").wait_ns == 0);
  // The top-level spans' own time: 1 ns each, no waiting.
  CHECK(row(w.ranks, 1, "other").time_ns == 2);
  CHECK(row(w.ranks, 1, "other").wait_ns == 0);
  // Per size: only 1024 B was compared.
  for (const auto& r : w.by_size) CHECK(r.size == 1024);
  CHECK(row(w.by_size, 1, "reduce_scatter").wait_ns == 20);
}
