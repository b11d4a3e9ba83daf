// Lanes keep each trace thread's spans nested or sequential.
#include "output/trace/trace_lanes.hpp"

#include <catch2/catch.hpp>

TEST_CASE("trace lanes: nest, follow, or move to another lane", "[render]") {
  npkit::LanePacker p;
  CHECK(p.place(0, 10) == 0);
  CHECK(p.place(2, 5) == 0);    // nests in [0, 10]
  CHECK(p.place(3, 8) == 1);    // overlaps [2, 5] without nesting
  CHECK(p.place(6, 9) == 0);    // [2, 5] has ended; nests in [0, 10]
  CHECK(p.place(10, 12) == 0);  // everything on lane 0 has ended
  CHECK(p.lanes() == 2);
}

TEST_CASE("trace lanes: a leaf takes no children", "[render]") {
  npkit::LanePacker p;
  CHECK(p.place(20, 30, /*leaf=*/true) == 0);
  CHECK(p.place(21, 22) == 1);
  CHECK(p.place(25, 26, true) == 1);
  CHECK(p.place(30, 31) == 0);
  CHECK(p.place(40, 39) == 0);  // ends before it starts: zero length
  CHECK(p.place(40, 40) == 0);
}

TEST_CASE("trace lanes: past its most lanes a span gets the overflow lane, not kept", "[render]") {
  npkit::LanePacker p(2);
  CHECK(p.place(0, 10, true) == 0);
  CHECK(p.place(1, 11, true) == 1);
  CHECK(p.place(2, 12, true) == 2);  // fits neither: the overflow lane
  CHECK(p.place(3, 13, true) == 2);
  CHECK(p.lanes() == 2);
  CHECK(p.place(10, 20, true) == 0);  // lane 0's span has ended
  CHECK(p.place(11, 12, true) == 1);
}
