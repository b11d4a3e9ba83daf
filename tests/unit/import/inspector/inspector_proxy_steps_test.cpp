// Inspector proxy steps into the run model's proxy breakdown
// (import/inspector/inspector_proxy_steps.hpp). Hand-computed from the step times below.
#include <catch2/catch.hpp>

#include "import/inspector/inspector_proxy_steps.hpp"

using namespace npkit;
using npkit::InspectorProxyStep;
using npkit::InspectorProxyTrace;

TEST_CASE("inspector proxy steps: phases go to their states, the rest is other", "[inspector]") {
  // Send: step 0 total 40 = gpu_produce 10 + peer_credit 20 + wire 5 + 5 before the first state;
  // step 1 total 30 = 4 + 5 + 20 + 1. Sync = 10 + 20 + 4 + 5 = 39, net_send = 25, other = 6.
  InspectorProxyTrace send;
  send.send = true;
  send.steps = {InspectorProxyStep{40, {10, 20, 5}}, InspectorProxyStep{30, {4, 5, 20}}};
  ProxyStepBreakdown b;
  add_proxy_steps(b, send);
  CHECK(b.steps == 2);
  CHECK(b.steps_never_stopped == 0);
  CHECK(b.step_ns == 70000);
  CHECK(b.sync_ns == 39000);
  CHECK(b.net_send_ns == 25000);
  CHECK(b.net_recv_ns == 0);
  CHECK(b.other_ns == 6000);
  CHECK(b.not_ring_allreduce_ns == 70000);
  CHECK(b.ring_allreduce_steps == 0);
  REQUIRE(b.states.size() == 3);
  CHECK(b.states[8].name == "ProxyStepSendGPUWait");
  CHECK(b.states[8].ns == 14000);
  CHECK(b.states[8].intervals == 2);
  CHECK(b.states[20].ns == 25000);
  CHECK(b.states[9].name == "ProxyStepSendWait");
  CHECK(b.states[9].ns == 25000);
  CHECK(b.explained() == Approx(64.0 / 70.0));

  // Recv: one step total 30 = wire 20 + flush 2 + gpu_consume 7 + 1; one never stopped; one
  // whose phases (wire 9 + gpu_consume 3 = 12) exceed its total 10: other gains nothing.
  InspectorProxyTrace recv;
  recv.steps = {InspectorProxyStep{30, {20, 2, 7}}, InspectorProxyStep{{}, {3, {}, {}}},
                InspectorProxyStep{10, {9, {}, 3}}};
  ProxyStepBreakdown r;
  add_proxy_steps(r, recv);
  CHECK(r.steps == 3);
  CHECK(r.steps_never_stopped == 1);
  CHECK(r.step_ns == 40000);
  CHECK(r.net_recv_ns == 31000);  // 20 + 2 + 9
  CHECK(r.sync_ns == 10000);      // 7 + 3
  CHECK(r.other_ns == 1000);
  CHECK(r.states[10].ns == 29000);
  CHECK(r.states[11].ns == 2000);
  CHECK(r.states[12].name == "ProxyStepRecvGPUWait");
  CHECK(r.states[12].ns == 10000);
}
