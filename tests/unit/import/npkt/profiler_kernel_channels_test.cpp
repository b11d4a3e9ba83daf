// Stale KernelCh detection: GPU starts before the owner's API call or after the proxy noticed
// them, stops before starts, starts out of channel order; the spans of their collectives.
// Every expectation is computed by hand from the spec (times read as offsets from B).
#include "import/npkt/profiler_kernel_channels.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::KernelChVerdict;
using npkit::test::captures_from_spec;
using npkit::test::kBase;

namespace {

KernelChVerdict verdict(const npkit::RankCapture& c, std::uint64_t id) {
  const std::uint32_t e = c.events.find(id);
  REQUIRE(e != npkit::kNoEvent);
  return c.kernel_channels.verdict[e];
}

const npkit::ProfilerCollective& op_of(const npkit::RankCapture& c, std::uint64_t id) {
  const auto it = std::find_if(c.collectives.begin(), c.collectives.end(),
                               [&](const auto& op) { return c.events.id[op.event] == id; });
  REQUIRE(it != c.collectives.end());
  return *it;
}

}  // namespace

TEST_CASE("kernel channels: a GPU start before the API call is stale", "[npkt][model]") {
  // Clock: one sample, offset = (B+1050) - (B+0 + B+100) / 2 = 1000, uncertainty 50 ns, so the
  // tolerance is 50 + 5000 = 5050 ns and host = gpu - 1000.
  // Coll 11 (CollApi 10 at 1000000): ch 0 gpu 1006000 -> host 1005000, after the call: valid.
  // Coll 21 (CollApi 20 at 2000000): ch 0 gpu 1996000 -> host 1995000 = call - 5000: valid
  // (within the tolerance); ch 1 gpu 1995900 -> host 1994900 = call - 5100: stale.
  // Coll 31 (CollApi 30 at 3000000): its only channel carries 1007000 (4 ms old): stale, so the
  // Broadcast has no GPU span.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+100} gpu={B+1050}
start 10 CollApi host={B+1000000} count=4 func=AllReduce datatype=ncclFloat32
start 11 Coll host={B+1001000} parent=10 seq=0 count=4 func=AllReduce datatype=ncclFloat32 channels=1
start 12 KernelCh host={B+1010000} parent=11 gpu_start={B+1006000} channel=0
state 12 KernelCh host={B+1020000} state=22 value={B+1008000}
start 20 CollApi host={B+2000000} count=4 func=AllReduce datatype=ncclFloat32
start 21 Coll host={B+2001000} parent=20 seq=1 count=4 func=AllReduce datatype=ncclFloat32 channels=2
start 22 KernelCh host={B+2010000} parent=21 gpu_start={B+1996000} channel=0
state 22 KernelCh host={B+2020000} state=22 value={B+1999000}
start 23 KernelCh host={B+2010000} parent=21 gpu_start={B+1995900} channel=1
state 23 KernelCh host={B+2020000} state=22 value={B+2003000}
start 30 CollApi host={B+3000000} count=1024 func=Broadcast datatype=ncclInt8
start 31 Coll host={B+3001000} parent=30 seq=0 count=1024 func=Broadcast datatype=ncclInt8 channels=1
start 32 KernelCh host={B+3010000} parent=31 gpu_start={B+1007000} channel=2
state 32 KernelCh host={B+3020000} state=22 value={B+1008000}
)");
  const auto& c = *captures[0];
  CHECK(c.kernel_channels.tolerance_ns == Approx(5050.0));
  CHECK(verdict(c, 12) == KernelChVerdict::kValid);
  CHECK(verdict(c, 22) == KernelChVerdict::kValid);
  CHECK(verdict(c, 23) == KernelChVerdict::kBeforeApi);
  CHECK(verdict(c, 32) == KernelChVerdict::kBeforeApi);
  CHECK(c.kernel_channels.kernel_channels == 4);
  CHECK(c.kernel_channels.before_api == 2);
  CHECK(c.kernel_channels.stale() == 2);

  // Coll 21 has one valid and one stale channel: untimed, since its valid channel alone
  // (gpu 1996000..1999000) would understate the collective.
  const auto& partial = op_of(c, 21);
  CHECK_FALSE(partial.has_gpu_span);
  CHECK(partial.kernel_channels == 2);
  CHECK(partial.channels_stale == 1);
  CHECK(partial.channels_seen == 2);
  CHECK(partial.has_stale_channel());

  const auto& broadcast = op_of(c, 31);
  CHECK_FALSE(broadcast.has_gpu_span);
  CHECK(broadcast.channels_stale == 1);
  CHECK(broadcast.has_stale_channel());
  CHECK(broadcast.api_start_ns == static_cast<std::int64_t>(kBase + 3000000));
}

TEST_CASE("kernel channels: a GPU start after the proxy noticed it, a stop before the start",
          "[npkit][model]") {
  // Offset 0, uncertainty 0: tolerance 5000 ns. API call at 1000.
  //   KernelCh 3: gpu start 20000, noticed at 15000 = 20000 - 5000: valid (at the tolerance).
  //   KernelCh 4: gpu start 20000, noticed at 14999: stale (after noticed).
  //   KernelCh 5: gpu 30000 .. stop 29000: stale (stop before start).
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 CollApi host={B+1000} count=4 func=AllReduce datatype=ncclFloat32
start 2 Coll host={B+2000} parent=1 seq=0 count=4 func=AllReduce datatype=ncclFloat32 channels=3
start 3 KernelCh host={B+15000} parent=2 gpu_start={B+20000} channel=0
state 3 KernelCh host={B+40000} state=22 value={B+25000}
start 4 KernelCh host={B+14999} parent=2 gpu_start={B+20000} channel=1
state 4 KernelCh host={B+40000} state=22 value={B+25000}
start 5 KernelCh host={B+35000} parent=2 gpu_start={B+30000} channel=2
state 5 KernelCh host={B+40000} state=22 value={B+29000}
)");
  const auto& c = *captures[0];
  CHECK(verdict(c, 3) == KernelChVerdict::kValid);
  CHECK(verdict(c, 4) == KernelChVerdict::kAfterNoticed);
  CHECK(verdict(c, 5) == KernelChVerdict::kStopBeforeStart);
  CHECK(c.kernel_channels.after_noticed == 1);
  CHECK(c.kernel_channels.stop_before_start == 1);
  const auto& op = c.collectives[0];
  CHECK_FALSE(op.has_gpu_span);  // channel 0 alone (20000..25000) would understate it
  CHECK(op.channels_stale == 2);
}

TEST_CASE("kernel channels: a start later than a later work's on its channel is stale",
          "[npkit][model]") {
  // A proxy more than 64 works behind reads later works' timestamps: on channel 0, the
  // KernelCh of AllReduce seq 0 and seq 1 carry the times of seq 2 and seq 3 (NCCL rings hold
  // 64 entries; here the pattern is shortened). Offset 0. Channel 0 in event order:
  //   id 11 (seq 0) 5000, id 21 (seq 1) 6000, id 31 (seq 2) 3000, id 41 (seq 3) 4000
  // Scanning backwards: 4000 kept, 3000 kept, 6000 > 3000 stale, 5000 > 3000 stale.
  // Channel 1 is in order (seq 0 2000, seq 1 2500): nothing stale there.
  std::string spec = R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
)";
  const long starts0[] = {5000, 6000, 3000, 4000};
  for (int seq = 0; seq < 4; ++seq) {
    const std::string api = std::to_string(seq * 10 + 10);
    const std::string coll = std::to_string(seq * 10 + 11);
    const std::string s = std::to_string(seq);
    spec += "start " + api + " CollApi host={B+" + std::to_string(1000 + seq) +
            "} count=4 func=AllReduce datatype=ncclFloat32\n";
    spec += "start " + coll + " Coll host={B+" + std::to_string(1100 + seq) + "} parent=" + api +
            " seq=" + s + " count=4 func=AllReduce datatype=ncclFloat32 channels=1\n";
    const std::string k = std::to_string(seq * 10 + 12);
    spec += "start " + k + " KernelCh host={B+9000} parent=" + coll + " gpu_start={B+" +
            std::to_string(starts0[seq]) + "} channel=0\n";
    spec += "state " + k + " KernelCh host={B+9500} state=22 value={B+" +
            std::to_string(starts0[seq] + 500) + "}\n";
  }
  spec += R"(start 13 KernelCh host={B+9000} parent=11 gpu_start={B+2000} channel=1
state 13 KernelCh host={B+9500} state=22 value={B+2400}
start 23 KernelCh host={B+9000} parent=21 gpu_start={B+2500} channel=1
state 23 KernelCh host={B+9500} state=22 value={B+2900}
)";
  const auto captures = captures_from_spec(spec);
  const auto& c = *captures[0];
  CHECK(verdict(c, 12) == KernelChVerdict::kOutOfOrder);
  CHECK(verdict(c, 22) == KernelChVerdict::kOutOfOrder);
  CHECK(verdict(c, 32) == KernelChVerdict::kValid);
  CHECK(verdict(c, 42) == KernelChVerdict::kValid);
  CHECK(verdict(c, 13) == KernelChVerdict::kValid);
  CHECK(verdict(c, 23) == KernelChVerdict::kValid);
  CHECK(c.kernel_channels.out_of_order == 2);
  // seq 0's channel 0 is stale: untimed (channel 1 alone, 2000..2400, would understate it);
  // seq 2 has one channel, valid: timed 3000..3500.
  const auto& first = op_of(c, 11);
  CHECK_FALSE(first.has_gpu_span);
  CHECK(first.channels_stale == 1);
  const auto& third = op_of(c, 31);
  REQUIRE(third.has_gpu_span);
  CHECK(third.gpu_duration_ns() == 500);
}

TEST_CASE("kernel channels: without an API event the bound is the Coll start minus 1 ms",
          "[npkit][model]") {
  // NCCL starts the Coll event after the kernel launch, so the kernel may start first (API v4
  // dumps have no API events). Offset 0, tolerance 5000. Coll starts at 3000000:
  //   ch 0 gpu 2500000 (0.5 ms before): valid; ch 1 gpu 1990000 (1.01 ms before, beyond the
  //   1 ms allowance + 5 us): stale.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 Coll host={B+3000000} seq=0 count=4 func=AllReduce datatype=ncclFloat32 channels=2
start 2 KernelCh host={B+3100000} parent=1 gpu_start={B+2500000} channel=0
state 2 KernelCh host={B+3200000} state=22 value={B+2600000}
start 3 KernelCh host={B+3100000} parent=1 gpu_start={B+1990000} channel=1
state 3 KernelCh host={B+3200000} state=22 value={B+2600000}
)");
  const auto& c = *captures[0];
  CHECK(verdict(c, 2) == KernelChVerdict::kValid);
  CHECK(verdict(c, 3) == KernelChVerdict::kBeforeApi);
  CHECK(c.collectives[0].api_start_ns == static_cast<std::int64_t>(kBase + 3000000));
}

TEST_CASE("kernel channels: missing timestamps are open, not stale", "[npkt][model]") {
  // KernelCh 3 has a start but no stop timestamp (state 22 without args), KernelCh 4 no start:
  // both open; the collective has no GPU span, and not because of stale channels.
  const auto captures = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=2
clock init before={B+0} after={B+0} gpu={B+0}
start 1 CollApi host={B+1000} count=4 func=AllReduce datatype=ncclFloat32
start 2 Coll host={B+2000} parent=1 seq=0 count=4 func=AllReduce datatype=ncclFloat32 channels=2
start 3 KernelCh host={B+3000} parent=2 gpu_start={B+2500} channel=0
state 3 KernelCh host={B+4000} state=22 no_args
start 4 KernelCh host={B+3000} parent=2 gpu_start=0 channel=1
state 4 KernelCh host={B+4000} state=22 value={B+3500}
)");
  const auto& c = *captures[0];
  CHECK(verdict(c, 3) == KernelChVerdict::kOpen);
  CHECK(verdict(c, 4) == KernelChVerdict::kOpen);
  CHECK(c.kernel_channels.open == 2);
  CHECK(c.kernel_channels.stale() == 0);
  const auto& op = c.collectives[0];
  CHECK_FALSE(op.has_gpu_span);
  CHECK(op.channels_open == 2);
  CHECK_FALSE(op.has_stale_channel());
}
