// Proxy step time by state and phase, ring positions of AllReduce steps, clamping of marks.
#include "import/npkt/proxy_step_breakdown.hpp"

#include <catch2/catch.hpp>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::test::captures_from_spec;

namespace {

// Rank 0 of 3. Coll 1 is a ring AllReduce with LL: one transfer per ring step, loop of 2(n-1)
// = 4, so steps 0,1,4,5 reduce_scatter and 2,3 all_gather. Each of its 6 send steps lasts
// 1000 ns: SendGPUWait 400, SendWait 600.
// P2p 3's op has: step 20, 10000..11000, whose marks lie partly outside it (RecvWait at 9500
// clamps to 10000, RecvGPUWait at 12000 clamps to 11000): RecvWait 300, RecvFlushWait 700,
// RecvGPUWait 0; step 21 never stops; step 22, 12000..13000: SendGPUWait 500 then an unknown
// state 30 for 500 (other).
std::string spec() {
  std::string s = R"(
comm hash=0x1 rank=0 nranks=3
start 1 Coll host={B+1} seq=0 count=1 func=AllReduce datatype=ncclFloat32 algo=RING proto=LL
start 2 ProxyOp host={B+2} parent=1 channel=0 send=1 steps=6
start 3 P2p host={B+3} count=1 peer=1 func=Send datatype=ncclFloat32
start 4 ProxyOp host={B+4} parent=3 channel=1 send=0 steps=1
)";
  for (int i = 0; i < 6; ++i) {
    const std::string id = std::to_string(10 + i);
    const std::string t = std::to_string(1000 * (i + 1));
    const std::string mid = std::to_string(1000 * (i + 1) + 400);
    const std::string end = std::to_string(1000 * (i + 2));
    s += "start " + id + " ProxyStep host={B+" + t + "} parent=2 step=" + std::to_string(i) +
         "\nstate " + id + " ProxyStep host={B+" + t + "} state=8\nstate " + id +
         " ProxyStep host={B+" + mid + "} state=9 value=4096\nstop " + id + " ProxyStep host={B+" +
         end + "}\n";
  }
  s += R"(
start 20 ProxyStep host={B+10000} parent=4 step=0
state 20 ProxyStep host={B+9500} state=10
state 20 ProxyStep host={B+10300} state=11 value=4096
state 20 ProxyStep host={B+12000} state=12
stop 20 ProxyStep host={B+11000}
start 21 ProxyStep host={B+11000} parent=4 step=1
start 22 ProxyStep host={B+12000} parent=4 step=2
state 22 ProxyStep host={B+12000} state=8
state 22 ProxyStep host={B+12500} state=30
stop 22 ProxyStep host={B+13000}
)";
  return s;
}

}  // namespace

TEST_CASE("proxy steps: phases, states, explained share", "[npkt][proxy]") {
  const auto captures = captures_from_spec(spec());
  const auto b = npkit::proxy_step_breakdown(*captures[0]);
  CHECK(b.steps == 9);
  CHECK(b.steps_never_stopped == 1);
  CHECK(b.step_ns == 8000);
  CHECK(b.net_send_ns == 3600);
  CHECK(b.net_recv_ns == 1000);
  CHECK(b.sync_ns == 2400 + 500);
  CHECK(b.other_ns == 500);
  CHECK(b.explained() == Approx(7500.0 / 8000.0));
  REQUIRE(b.states.count(8) == 1);
  CHECK(b.states.at(8).ns == 2900);
  CHECK(b.states.at(8).intervals == 7);
  CHECK(b.states.at(9).ns == 3600);
  CHECK(b.states.at(10).ns == 300);
  CHECK(b.states.at(11).ns == 700);
  CHECK(b.states.at(12).ns == 0);
  CHECK(b.states.at(30).ns == 500);
}

TEST_CASE("proxy steps: ring AllReduce positions", "[npkt][proxy]") {
  const auto captures = captures_from_spec(spec());
  const auto b = npkit::proxy_step_breakdown(*captures[0]);
  CHECK(b.ring_allreduce_steps == 6);
  CHECK(b.reduce_scatter_ns == 4000);
  CHECK(b.all_gather_ns == 2000);
  CHECK(b.not_ring_allreduce_ns == 2000);
}

TEST_CASE("proxy steps: none", "[npkt][proxy]") {
  const auto captures = captures_from_spec("comm hash=0x1 rank=0 nranks=2\n");
  const auto b = npkit::proxy_step_breakdown(*captures[0]);
  CHECK(b.steps == 0);
  CHECK(b.explained() == 0.0);
}
