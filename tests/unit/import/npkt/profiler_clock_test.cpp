// GPU %globaltimer -> host clock from clock samples or KernelCh observations. Offsets are
// GPU - host = gpu_ns - (before + after) / 2; every expected value is worked out in the comments.
#include "import/npkt/host_gpu_clock.hpp"

#include <catch2/catch.hpp>

#include "unit/import/npkt/profiler_test_captures.hpp"

using npkit::ClockFitMethod;
using npkit::test::captures_from_spec;
using npkit::test::kBase;

namespace {

std::int64_t at(std::int64_t offset) {
  return static_cast<std::int64_t>(kBase) + offset;
}

}  // namespace

TEST_CASE("host/GPU clock: one sample gives the offset only", "[npkt][align]") {
  // mid = B+1100, offset = B+101100 - (B+1100) = 100000, uncertainty = 200 / 2 = 100.
  const auto c = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=1
clock init before={B+1000} after={B+1200} gpu={B+101100}
)");
  const auto& clock = c[0]->clock;
  CHECK(clock.method == ClockFitMethod::kSampleOffset);
  CHECK(clock.offset_ns == 100000.0);
  CHECK(clock.drift == 0.0);
  REQUIRE(clock.uncertainty_ns);
  CHECK(*clock.uncertainty_ns == 100.0);
  CHECK(clock.observations == 1);
  CHECK(clock.to_host_ns(kBase + 500000) == at(400000));
}

TEST_CASE("host/GPU clock: init and end samples give offset and drift", "[npkt][align]") {
  // init: offset 100000 at gpu B+101100 (bracket 200). end: gpu 1e9 ns later, host mid
  // B+999991100, offset = B+1000101100 - (B+999991100) = 110000 (bracket 100).
  // drift = 10000 / 1e9 = 10 ppm; halfway the offset is 105000; uncertainty max(100, 50).
  const auto c = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=1
clock init before={B+1000} after={B+1200} gpu={B+101100}
clock end before={B+999991050} after={B+999991150} gpu={B+1000101100}
)");
  const auto& clock = c[0]->clock;
  CHECK(clock.method == ClockFitMethod::kSampleOffsetDrift);
  CHECK(clock.offset_ns == 100000.0);
  CHECK(clock.drift == Approx(1e-5).epsilon(1e-9));
  CHECK(*clock.uncertainty_ns == 100.0);
  CHECK(clock.observations == 2);
  CHECK(clock.to_host_ns(kBase + 101100) == at(1100));
  CHECK(clock.to_host_ns(kBase + 500101100) == at(500101100 - 105000));
  CHECK(clock.to_host_ns(kBase + 1000101100) == at(999991100));
}

TEST_CASE("host/GPU clock: the narrowest bracket of each time wins, others add their residual",
          "[npkit][align]") {
  // Two init samples: bracket 1000 (offset 100000) and bracket 100 (offset 100020): the second
  // is used. The first lies 20 ns off the fit, within its own half bracket of 500: no residual.
  // A third, invalid sample (after < before) is ignored and counted.
  const auto c = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=1
clock init before={B+1000} after={B+2000} gpu={B+101500}
clock init before={B+3000} after={B+3100} gpu={B+103070}
clock init before={B+5000} after={B+4000} gpu={B+104000}
)");
  const auto& clock = c[0]->clock;
  CHECK(clock.method == ClockFitMethod::kSampleOffset);
  CHECK(clock.offset_ns == 100020.0);
  CHECK(*clock.uncertainty_ns == 50.0);
  CHECK(clock.invalid_samples == 1);

  // A sample 300 ns off the fit with a half bracket of 100 adds 200 to the uncertainty.
  const auto d = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=1
clock init before={B+3000} after={B+3100} gpu={B+103070}
clock init before={B+6000} after={B+6200} gpu={B+106420}
)");
  // Second sample: offset = B+106420 - (B+6100) = 100320; 300 off; 300 - 100 = 200.
  CHECK(d[0]->clock.offset_ns == 100020.0);
  CHECK(*d[0]->clock.uncertainty_ns == 50.0 + 200.0);
}

TEST_CASE("host/GPU clock: without samples, the largest gpu_start - host_start of KernelCh",
          "[npkit][align]") {
  // gpu - host: 2000, 2500, 2000; a KernelCh without GPU start is not an observation.
  const auto c = captures_from_spec(R"(
comm hash=0x1 rank=0 nranks=1
start 1 KernelCh host={B+3000} gpu_start={B+5000} channel=0
start 2 KernelCh host={B+5500} gpu_start={B+8000} channel=1
start 3 KernelCh host={B+7000} gpu_start={B+9000} channel=0
start 4 KernelCh host={B+7000} gpu_start=0 channel=2
)");
  const auto& clock = c[0]->clock;
  CHECK(clock.method == ClockFitMethod::kKernelChEstimate);
  CHECK(clock.offset_ns == 2500.0);
  CHECK(clock.observations == 3);
  CHECK_FALSE(clock.uncertainty_ns);
  CHECK(clock.to_host_ns(kBase + 8000) == at(5500));
  CHECK(clock.describe() ==
        "estimated from 3 KernelCh observations (upper bound, proxy polling lag): GPU - host = "
        "2.500 us");
}

TEST_CASE("host/GPU clock: neither samples nor KernelCh", "[npkit][align]") {
  const auto c = captures_from_spec("comm hash=0x1 rank=0 nranks=1\n");
  CHECK_FALSE(c[0]->clock.usable());
  CHECK(c[0]->clock.method_name() == "none");
}

TEST_CASE("host/GPU clock: conversion saturates instead of overflowing", "[npkit][align]") {
  npkit::HostGpuClock clock;
  clock.method = ClockFitMethod::kSampleOffset;
  clock.offset_ns = -1e6;
  CHECK(clock.to_host_ns(UINT64_MAX) == INT64_MAX);
  clock.offset_ns = 1e19;
  CHECK(clock.to_host_ns(5) == INT64_MIN);
}
