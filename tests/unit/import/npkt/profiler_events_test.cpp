// Events rebuilt from callback records: ids, first stops, double stops, states, parents, and the
// counts of everything that does not fit. Expected values are read off the spec by hand.
#include "import/npkt/profiler_events.hpp"

#include <catch2/catch.hpp>

#include <limits>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::kNeverStopped;
using npkit::kNoEvent;
using npkit::test::captures_from_spec;
using npkit::test::kBase;

namespace {

// Records deliberately out of id order, with a double stop, stray stops and states, a duplicate
// start, a parent that is not in the file and a flagged (foreign) parent.
const char* const kSpec = R"(
comm hash=0x1 rank=0 nranks=1
start 5 Coll host={B+100} parent=3 seq=0 count=1 func=AllReduce datatype=ncclFloat32
start 3 CollApi host={B+50} count=1 func=AllReduce datatype=ncclFloat32
start 7 KernelCh host={B+200} parent=5 gpu_start=1000 channel=0
start 8 KernelCh host={B+210} parent=5 gpu_start=1000 channel=1
start 9 ProxyOp host={B+220} parent=99 channel=4
start 10 ProxyStep host={B+230} flags=foreign step=2
state 7 KernelCh host={B+300} state=22 value=5000
state 7 KernelCh host={B+290} state=22 value=4000 no_args
stop 7 KernelCh host={B+310}
stop 7 KernelCh host={B+320}
stop 42 Coll host={B+330}
state 43 ProxyStep host={B+340} state=8
start 5 Coll host={B+400} seq=1 count=2 func=AllReduce datatype=ncclFloat32
stop 5 Coll host={B+500}
stop 3 CollApi host=0xFFFFFFFFFFFFFFFF
)";

}  // namespace

TEST_CASE("profiler events: one per start, ordered by id, first start wins", "[npkt][model]") {
  const auto captures = captures_from_spec(kSpec);
  const npkit::ProfilerEvents& ev = captures[0]->events;
  REQUIRE(ev.size() == 6);
  CHECK(ev.id == std::vector<std::uint64_t>{3, 5, 7, 8, 9, 10});
  CHECK(ev.find(5) == 1);
  CHECK(ev.find(4) == kNoEvent);
  CHECK(ev.find(11) == kNoEvent);
  CHECK(ev.type[1] == npkit::format::kTypeColl);
  CHECK(ev.start_ns[1] == static_cast<std::int64_t>(kBase + 100));
  CHECK(ev.payload_as<npkit::format::CollPayload>(1).seq == 0);
  CHECK(ev.counts.duplicate_starts == 1);
}

TEST_CASE("profiler events: first stop kept, double stops and stray records counted",
          "[npkt][model]") {
  const auto captures = captures_from_spec(kSpec);
  const npkit::ProfilerEvents& ev = captures[0]->events;
  CHECK(ev.stop_ns[ev.find(7)] == static_cast<std::int64_t>(kBase + 310));
  CHECK(ev.stop_ns[ev.find(5)] == static_cast<std::int64_t>(kBase + 500));
  // A host time beyond INT64_MAX is clamped, not wrapped.
  CHECK(ev.stop_ns[ev.find(3)] == std::numeric_limits<std::int64_t>::max());
  CHECK_FALSE(ev.stopped(ev.find(8)));
  CHECK(ev.stop_ns[ev.find(8)] == kNeverStopped);
  CHECK(ev.counts.double_stops == 1);
  CHECK(ev.counts.stops_unknown_id == 1);
  CHECK(ev.counts.states_unknown_id == 1);
}

TEST_CASE("profiler events: state marks per event in time order", "[npkt][model]") {
  // Event 7's states are recorded B+300 then B+290 (as two threads' segments of a live file
  // order them): they come back by time.
  const auto captures = captures_from_spec(kSpec);
  const npkit::ProfilerEvents& ev = captures[0]->events;
  const auto marks = ev.marks(ev.find(7));
  REQUIRE(marks.size() == 2);
  CHECK(marks[0].state == 22);
  CHECK(marks[0].value == 4000);
  CHECK_FALSE(marks[0].has_args);
  CHECK(marks[0].host_ns == static_cast<std::int64_t>(kBase + 290));
  CHECK(marks[1].value == 5000);
  CHECK(marks[1].has_args);
  CHECK(marks[1].host_ns == static_cast<std::int64_t>(kBase + 300));
  CHECK(ev.marks(ev.find(8)).empty());
}

TEST_CASE("profiler events: parents, children and what cannot be linked", "[npkt][model]") {
  const auto captures = captures_from_spec(kSpec);
  const npkit::ProfilerEvents& ev = captures[0]->events;
  // The Coll's parent starts later in the file but is linked all the same.
  CHECK(ev.parent[ev.find(5)] == ev.find(3));
  CHECK(std::vector<std::uint32_t>(ev.children_of(ev.find(3)).begin(),
                                   ev.children_of(ev.find(3)).end()) ==
        std::vector<std::uint32_t>{ev.find(5)});
  CHECK(std::vector<std::uint32_t>(ev.children_of(ev.find(5)).begin(),
                                   ev.children_of(ev.find(5)).end()) ==
        std::vector<std::uint32_t>{ev.find(7), ev.find(8)});
  CHECK(ev.parent[ev.find(9)] == kNoEvent);
  CHECK(ev.parent[ev.find(10)] == kNoEvent);
  CHECK(ev.start_flags[ev.find(10)] == npkit::format::kStartParentForeign);
  CHECK(ev.counts.missing_parents == 1);  // id 99; the flagged parent is not "missing"
}

TEST_CASE("profiler events: counts per type", "[npkt][model]") {
  const auto captures = captures_from_spec(kSpec);
  const auto& c = captures[0]->events.counts;
  CHECK(c.started[npkit::format::kTypeKernelCh] == 2);
  CHECK(c.never_stopped[npkit::format::kTypeKernelCh] == 1);
  CHECK(c.started[npkit::format::kTypeProxyOp] == 1);
  CHECK(c.never_stopped[npkit::format::kTypeProxyOp] == 1);
  CHECK(c.never_stopped[npkit::format::kTypeProxyStep] == 1);
  CHECK(c.never_stopped[npkit::format::kTypeColl] == 0);
  CHECK(c.never_stopped[npkit::format::kTypeCollApi] == 0);
}

TEST_CASE("profiler events: names from the dump, else the format's", "[npkt][model]") {
  auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=1
name type 6 GpuChannel
name state 9 Waiting
)");
  const auto& dump = captures[0]->dump;
  CHECK(npkit::profiler_type_name(dump, 6) == "GpuChannel");
  CHECK(npkit::profiler_type_name(dump, 4) == "ProxyStep");
  CHECK(npkit::profiler_type_name(dump, 14) == "CeBatch");
  CHECK(npkit::profiler_type_name(dump, 15) == "KernelPhase");
  CHECK(npkit::profiler_type_name(dump, 16) == "type16");
  CHECK(npkit::profiler_state_name(dump, 9) == "Waiting");
  CHECK(npkit::profiler_state_name(dump, 20) == "ProxyStepSendPeerWait");
  CHECK(npkit::profiler_state_name(dump, 25) == "CeCollStart");
  CHECK(npkit::profiler_state_name(dump, 31) == "KernelPhaseStop");
  CHECK(npkit::profiler_state_name(dump, 40) == "state40");
}

TEST_CASE("profiler events: detail records link the Group and keep CE details", "[npkt][model]") {
  // Coll 4 and P2p 5 name Group 3; Coll 6 names a Group this file never started (missing), P2p 7
  // a flagged one (no link, not missing). CeColl 8 has two CE details (the first wins); a detail
  // of an unknown id and one of an unknown kind are counted.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2 profiler_api=6
start 3 Group host={B+10} flags=null
start 4 Coll host={B+20} seq=0 count=8 func=AllReduce datatype=ncclFloat32
detail 4 Coll host={B+20} kind=parent_group group=3
start 5 P2p host={B+30} count=8 peer=1 func=Send datatype=ncclFloat32
detail 5 P2p host={B+30} kind=parent_group group=3
start 6 Coll host={B+40} seq=1 count=8 func=AllReduce datatype=ncclFloat32
detail 6 Coll host={B+40} kind=parent_group group=77
start 7 P2p host={B+50} count=8 peer=1 func=Recv datatype=ncclFloat32
detail 7 P2p host={B+50} kind=parent_group flags=unknown
start 8 CeColl host={B+60} seq=2 count=1024 func=AllGather datatype=ncclInt8 sync=UC ce_seq=2
detail 8 CeColl host={B+60} kind=ce_coll send=0x1000 recv=0x2000 stream=0x3000 batch_size=4 batches=2
detail 8 CeColl host={B+61} kind=ce_coll send=0x9 recv=0x9 stream=0x9 batch_size=9 batches=9
detail 99 CeColl host={B+62} kind=ce_coll
)");
  const npkit::ProfilerEvents& ev = captures[0]->events;
  CHECK(ev.group[ev.find(4)] == ev.find(3));
  CHECK(ev.group[ev.find(5)] == ev.find(3));
  CHECK(ev.group[ev.find(6)] == kNoEvent);
  CHECK(ev.group[ev.find(7)] == kNoEvent);
  CHECK(ev.group[ev.find(3)] == kNoEvent);
  CHECK(ev.counts.missing_parents == 1);  // Group 77
  CHECK(ev.counts.details_unknown == 1);  // id 99
  const npkit::format::CeCollDetail* detail = ev.ce_detail(ev.find(8));
  REQUIRE(detail != nullptr);
  CHECK(detail->send_buff == 0x1000);
  CHECK(detail->recv_buff == 0x2000);
  CHECK(detail->stream == 0x3000);
  CHECK(detail->batch_size == 4);
  CHECK(detail->num_batches == 2);
  CHECK(ev.ce_detail(ev.find(4)) == nullptr);
  CHECK(ev.counts.started[npkit::format::kTypeCeColl] == 1);
}
