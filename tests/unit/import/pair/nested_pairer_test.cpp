// NestedPairer: name-keyed stack pairing on a GPU track. Times are plain ns.
#include "import/pair/nested_pairer.hpp"

#include <catch2/catch.hpp>

#include "run/phase_map.hpp"

using npkit::kInheritPhase;
using npkit::NestedPairer;
using npkit::Span;

namespace {

// Base ids of this test and their phases: A has phase 1, C phase 2, the rest inherit.
enum : std::uint16_t { A, B, C, D, E };
constexpr std::uint16_t kOther = 0;
const std::vector<std::uint16_t> kPhases = {1, kInheritPhase, 2, kInheritPhase, kInheritPhase};

struct Pairer {
  NestedPairer p{kPhases, kOther};
  std::uint64_t record = 0;
  void open(std::uint16_t base, std::int64_t ns, std::uint32_t size = 0) {
    p.open(base, ns, size, 0, record++);
  }
  Span close(std::uint16_t base, std::int64_t ns, std::uint32_t size = 0, std::uint32_t rsvd = 0) {
    Span s;
    const bool ok = p.close(base, ns, size, rsvd, record++, s);
    REQUIRE(ok);
    return s;
  }
};

}  // namespace

TEST_CASE("nested: depth 4, child time of direct children only", "[pair][nested]") {
  Pairer t;
  t.open(A, 0);
  t.open(B, 10);
  t.open(C, 20);
  t.open(D, 30);
  const Span d = t.close(D, 40);
  CHECK(d.depth == 3);
  CHECK(d.start_ns == 30);
  CHECK(d.end_ns == 40);
  CHECK(d.child_ns == 0);
  const Span c = t.close(C, 50);
  CHECK(c.depth == 2);
  CHECK(c.child_ns == 10);  // D: 30..40
  const Span b = t.close(B, 70);
  CHECK(b.depth == 1);
  CHECK(b.child_ns == 30);  // C: 20..50 (D is not B's direct child)
  const Span a = t.close(A, 100);
  CHECK(a.depth == 0);
  CHECK(a.duration_ns() == 100);
  CHECK(a.child_ns == 60);  // B: 10..70
  CHECK(a.entry_record == 0);
  CHECK(a.exit_record == 7);
}

TEST_CASE("nested: several children add up", "[pair][nested]") {
  Pairer t;
  t.open(A, 0);
  t.open(B, 10);
  t.close(B, 20);
  t.open(C, 30);
  t.close(C, 45);
  const Span a = t.close(A, 100);
  CHECK(a.child_ns == 10 + 15);
  CHECK(a.duration_ns() - a.child_ns == 75);  // exclusive time
}

TEST_CASE("nested: the same name inside itself pairs innermost first", "[pair][nested]") {
  Pairer t;
  t.open(A, 0, 111);   // record 0
  t.open(A, 10, 222);  // record 1
  const Span inner = t.close(A, 20, 333);
  CHECK(inner.start_ns == 10);
  CHECK(inner.depth == 1);
  CHECK(inner.entry_record == 1);
  CHECK(inner.exit_record == 2);
  CHECK(inner.entry_size == 222);
  CHECK(inner.exit_size == 333);
  CHECK(inner.seq == 1);
  const Span outer = t.close(A, 30);
  CHECK(outer.start_ns == 0);
  CHECK(outer.depth == 0);
  CHECK(outer.child_ns == 10);
  CHECK(outer.entry_size == 111);
  CHECK(outer.seq == 0);
}

TEST_CASE("nested: interleaved names pair by name, not by position", "[pair][nested]") {
  Pairer t;
  t.open(A, 0);
  t.open(B, 10);
  const Span a = t.close(A, 20);  // A closes while B is still open above it
  CHECK(a.base == A);
  CHECK(a.start_ns == 0);
  CHECK(a.end_ns == 20);
  CHECK(a.depth == 0);
  const Span b = t.close(B, 30);
  CHECK(b.base == B);
  CHECK(b.start_ns == 10);
  CHECK(b.end_ns == 30);
  CHECK(b.depth == 0);  // nothing is open below B any more
  CHECK(t.p.drain_unmatched().empty());
}

TEST_CASE("nested: EXIT without ENTRY is refused and leaves the stack alone", "[pair][nested]") {
  Pairer t;
  Span s;
  CHECK_FALSE(t.p.close(B, 5, 0, 0, 99, s));
  t.open(A, 10);
  CHECK_FALSE(t.p.close(B, 15, 0, 0, 100, s));
  const Span a = t.close(A, 20);
  CHECK(a.start_ns == 10);
}

TEST_CASE("nested: ENTRY without EXIT is drained innermost last", "[pair][nested]") {
  Pairer t;
  t.open(A, 0, 1);   // record 0
  t.open(B, 10, 2);  // record 1
  t.open(C, 20, 3);  // record 2
  t.open(D, 25);     // record 3
  t.close(D, 30);    // record 4
  const auto left = t.p.drain_unmatched();
  REQUIRE(left.size() == 3);
  CHECK(left[0].base == A);
  CHECK(left[0].record == 0);
  CHECK(left[1].base == B);
  CHECK(left[1].start_ns == 10);
  CHECK(left[2].base == C);
  CHECK(left[2].record == 2);
  CHECK(left[2].size == 3);
  CHECK(left[2].child_ns == 5);
  CHECK(t.p.drain_unmatched().empty());
}

TEST_CASE("nested: phases are own or inherited from the enclosing span", "[pair][nested]") {
  Pairer t;
  const Span top_b = [&] {
    t.open(B, 0);
    return t.close(B, 1);
  }();
  CHECK(top_b.phase == kOther);  // inherit at top level -> other
  t.open(A, 10);                 // phase 1
  t.open(B, 11);                 // inherits 1
  t.open(E, 12);                 // inherits B's effective phase 1
  CHECK(t.close(E, 13).phase == 1);
  CHECK(t.close(B, 14).phase == 1);
  t.open(C, 15);  // own phase 2 inside A
  t.open(D, 16);  // inherits 2 from C
  CHECK(t.close(D, 17).phase == 2);
  CHECK(t.close(C, 18).phase == 2);
  CHECK(t.close(A, 19).phase == 1);
}

TEST_CASE("nested: seq counts ENTRYs per name and restarts after a drain", "[pair][nested]") {
  Pairer t;
  for (std::uint64_t k = 0; k < 3; ++k) {
    t.open(A, static_cast<std::int64_t>(10 * k));
    t.open(B, static_cast<std::int64_t>(10 * k + 1));
    CHECK(t.close(B, static_cast<std::int64_t>(10 * k + 2)).seq == k);
    CHECK(t.close(A, static_cast<std::int64_t>(10 * k + 3)).seq == k);
  }
  t.open(C, 100);
  CHECK(t.close(C, 101).seq == 0);
  t.p.drain_unmatched();
  t.open(A, 200);
  CHECK(t.close(A, 201).seq == 0);
}

TEST_CASE("nested: sizes and rsvd of both ends are kept", "[pair][nested]") {
  NestedPairer p(kPhases, kOther);
  p.open(A, 5, 1024, 0, 7);
  Span s;
  REQUIRE(p.close(A, 9, 2048, 0xABCDEF, 8, s));
  CHECK(s.base == A);
  CHECK(s.entry_size == 1024);
  CHECK(s.exit_size == 2048);
  CHECK(s.entry_rsvd == 0);
  CHECK(s.exit_rsvd == 0xABCDEF);
  CHECK(s.lane == 0);
  CHECK(s.entry_record == 7);
  CHECK(s.exit_record == 8);
}

// Interleaved children that overlap: covered time counts once, so child_ns never exceeds the
// duration (B's share of C, 20..90, stays with B).
TEST_CASE("nested: overlapping interleaved children count covered time once", "[pair][nested]") {
  Pairer t;
  t.open(A, 0);
  t.open(B, 10);
  t.open(C, 20);
  t.close(B, 90);  // B: 10..90, a direct child of A
  t.close(C, 95);  // C: 20..95, now directly above A
  const Span a = t.close(A, 100);
  // Covered by children: 10..95 = 85 ns (not 80 + 75 = 155 > 100).
  CHECK(a.child_ns == 85);
  CHECK(a.child_ns <= a.duration_ns());
}
