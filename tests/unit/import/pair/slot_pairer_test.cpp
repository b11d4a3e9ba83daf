// SlotPairer: CPU proxy events paired by (name, slot), laid out on the lowest free lane.
#include "import/pair/slot_pairer.hpp"

#include <catch2/catch.hpp>

#include "run/phase_map.hpp"

using npkit::kInheritPhase;
using npkit::SlotPairer;
using npkit::Span;

namespace {

enum : std::uint16_t { SEND, RECV, OTHER };
const std::vector<std::uint16_t> kPhases = {3, 4, kInheritPhase};

Span close_ok(SlotPairer& p, std::uint16_t base, std::int64_t ns, std::uint32_t slot,
              std::uint64_t record = 0, std::uint32_t size = 0) {
  Span s;
  REQUIRE(p.close(base, ns, size, slot, record, s));
  return s;
}

}  // namespace

TEST_CASE("slot: lanes are the lowest free one, reused after an EXIT", "[pair][slot]") {
  SlotPairer p(kPhases, 0);
  p.open(SEND, 0, 0, 5, 0);   // lane 0
  p.open(SEND, 10, 0, 6, 1);  // lane 1
  const Span s5 = close_ok(p, SEND, 20, 5);
  CHECK(s5.lane == 0);
  CHECK(s5.start_ns == 0);
  CHECK(s5.end_ns == 20);
  p.open(SEND, 30, 0, 7, 3);  // lane 0 is free again
  p.open(SEND, 35, 0, 8, 4);  // lanes 0 and 1 busy -> lane 2
  CHECK(close_ok(p, SEND, 40, 6).lane == 1);
  CHECK(close_ok(p, SEND, 50, 7).lane == 0);
  const Span s8 = close_ok(p, SEND, 60, 8);
  CHECK(s8.lane == 2);
  CHECK(s8.start_ns == 35);
}

TEST_CASE("slot: pairs on name and slot together", "[pair][slot]") {
  SlotPairer p(kPhases, 0);
  p.open(SEND, 0, 100, 5, 0);
  p.open(RECV, 10, 200, 5, 1);  // same slot, other name
  const Span send = close_ok(p, SEND, 20, 5, 2, 101);
  CHECK(send.base == SEND);
  CHECK(send.start_ns == 0);
  CHECK(send.entry_size == 100);
  CHECK(send.exit_size == 101);
  CHECK(send.entry_rsvd == 5);
  CHECK(send.exit_rsvd == 5);
  CHECK(send.entry_record == 0);
  CHECK(send.exit_record == 2);
  const Span recv = close_ok(p, RECV, 30, 5);
  CHECK(recv.start_ns == 10);
  CHECK(recv.lane == 1);
}

TEST_CASE("slot: a reused slot closes the most recent ENTRY", "[pair][slot]") {
  SlotPairer p(kPhases, 0);
  p.open(SEND, 0, 0, 9, 0);
  p.open(SEND, 10, 0, 9, 1);
  const Span first = close_ok(p, SEND, 20, 9);
  CHECK(first.start_ns == 10);
  CHECK(first.seq == 1);
  const Span second = close_ok(p, SEND, 30, 9);
  CHECK(second.start_ns == 0);
  CHECK(second.seq == 0);
}

TEST_CASE("slot: unmatched EXIT and ENTRY", "[pair][slot]") {
  SlotPairer p(kPhases, 0);
  Span s;
  CHECK_FALSE(p.close(SEND, 5, 0, 1, 0, s));
  p.open(SEND, 10, 64, 1, 1);
  p.open(RECV, 11, 0, 2, 2);
  CHECK_FALSE(p.close(SEND, 12, 0, 2, 3, s));  // slot 2 belongs to RECV
  const auto left = p.drain_unmatched();
  REQUIRE(left.size() == 2);
  CHECK(left[0].base == SEND);
  CHECK(left[0].record == 1);
  CHECK(left[0].size == 64);
  CHECK(left[1].base == RECV);
  // After a drain, lanes and sequence numbers start over.
  p.open(SEND, 20, 0, 3, 4);
  const Span again = close_ok(p, SEND, 30, 3);
  CHECK(again.lane == 0);
  CHECK(again.seq == 0);
}

TEST_CASE("slot: phases, depth and child time", "[pair][slot]") {
  SlotPairer p(kPhases, 0);
  p.open(SEND, 0, 0, 1, 0);
  p.open(OTHER, 1, 0, 2, 1);
  const Span other = close_ok(p, OTHER, 2, 2);
  CHECK(other.phase == 0);  // inherit -> other: no nesting on CPU tracks
  const Span send = close_ok(p, SEND, 3, 1);
  CHECK(send.phase == 3);
  CHECK(send.depth == 0);
  CHECK(send.child_ns == 0);
}
