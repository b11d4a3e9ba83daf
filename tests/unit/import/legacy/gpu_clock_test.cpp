// GpuClock follows the official generator's rule (npkit-formats.md 2.3), in integer ns.
// Clocks: CPU ticks are ns (1/1e9 s); the GPU runs at 500 MHz (500000 kHz): 1 tick = 2 ns.
#include "import/legacy/gpu_clock.hpp"

#include <catch2/catch.hpp>

using npkit::GpuClock;
using npkit::RankClocks;
using npkit::Rational;

namespace {

RankClocks clocks_500mhz() {
  RankClocks c;
  c.cpu_tick_seconds = Rational{1, 1000000000};
  c.gpu_khz = Rational{500000, 1};
  return c;
}

}  // namespace

TEST_CASE("gpu clock: host_base + (ticks - gpu_base) / rate", "[align][gpu_clock]") {
  // Buffer: CPU sync 1,000,000 | GPU sync 100 | ev 110 | ev 170 | CPU sync 2,000,000 | ev 500 |
  //         GPU sync 600 | ev 610
  GpuClock clock(clocks_500mhz(), 1000000, 100);
  CHECK(clock.host_aligned());
  clock.on_cpu_sync(1000000);
  clock.on_gpu_sync(100);
  CHECK(clock.to_ns(110) == 1000000 + (110 - 100) * 2);  // 1,000,020
  CHECK(clock.to_ns(170) == 1000000 + (170 - 100) * 2);  // 1,000,140
  // A new work item: the CPU sync resets the GPU base; no GPU sync follows before the next
  // event, so that event becomes the base and lands exactly on the host base.
  clock.on_cpu_sync(2000000);
  CHECK(clock.to_ns(500) == 2000000);
  // A later GPU sync does not move a base that is already set.
  clock.on_gpu_sync(600);
  CHECK(clock.to_ns(610) == 2000000 + (610 - 500) * 2);  // 2,000,220
}

TEST_CASE("gpu clock: the first GPU sync after a CPU sync is the base", "[align][gpu_clock]") {
  GpuClock clock(clocks_500mhz(), 7000, 40);
  clock.on_cpu_sync(7000);
  clock.on_gpu_sync(40);
  clock.on_gpu_sync(90);  // ignored: base already set
  CHECK(clock.to_ns(50) == 7000 + 20);
}

TEST_CASE("gpu clock: events before the first sync use the first pair", "[align][gpu_clock]") {
  // Buffer: ev 90 | CPU sync 1,000,000 | GPU sync 100 | ev 130
  GpuClock clock(clocks_500mhz(), 1000000, 100);
  CHECK(clock.to_ns(90) == 1000000 - (100 - 90) * 2);  // 999,980
  clock.on_cpu_sync(1000000);
  clock.on_gpu_sync(100);
  CHECK(clock.to_ns(130) == 1000060);
}

TEST_CASE("gpu clock: CPU ticks in microseconds", "[align][gpu_clock]") {
  RankClocks c = clocks_500mhz();
  c.cpu_tick_seconds = Rational{1, 1000000};
  GpuClock clock(c, 5, 0);
  clock.on_cpu_sync(5);  // 5 µs = 5000 ns
  clock.on_gpu_sync(0);
  CHECK(clock.to_ns(3) == 5000 + 6);
}

TEST_CASE("gpu clock: no TIME_SYNC stays on the counter's own time", "[align][gpu_clock]") {
  GpuClock clock(clocks_500mhz(), std::nullopt, std::nullopt);
  CHECK_FALSE(clock.host_aligned());
  CHECK(clock.to_ns(1000) == 2000);
  CHECK(clock.to_ns(0) == 0);

  RankClocks unknown_rate = clocks_500mhz();
  unknown_rate.gpu_khz.reset();  // no gpu_clock_rate file: 1 tick reads as 1 ns
  GpuClock raw(unknown_rate, std::nullopt, std::nullopt);
  CHECK(raw.to_ns(1000) == 1000);
}
