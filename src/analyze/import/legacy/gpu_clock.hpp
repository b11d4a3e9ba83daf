// gpu_clock.hpp — GPU counter ticks of one buffer to host nanoseconds.
// Contract: follows NPKit's official generator, in exact integer nanoseconds: a TIME_SYNC_CPU
// record sets the host base and clears the GPU base; the next TIME_SYNC_GPU (or, failing that,
// the next event) sets the GPU base; an event's time is host_base + (ticks − gpu_base) / rate.
// Events before the buffer's first sync pair use that first pair (the official generator
// crashes there). A buffer without any TIME_SYNC_CPU stays on the GPU counter's own time
// (ticks / rate), which is not comparable with host time.
#pragma once

#include <cstdint>
#include <optional>

#include "import/legacy/clock_files.hpp"

namespace npkit {

class GpuClock {
 public:
  // `first_cpu_sync`/`first_gpu_sync`: the buffer's first TIME_SYNC_CPU value and the first
  // TIME_SYNC_GPU after it, if the buffer has them.
  GpuClock(const RankClocks& clocks, std::optional<std::uint64_t> first_cpu_sync,
           std::optional<std::uint64_t> first_gpu_sync);

  void on_cpu_sync(std::uint64_t cpu_ticks);
  void on_gpu_sync(std::uint64_t gpu_ticks);
  std::int64_t to_ns(std::uint64_t gpu_ticks);

  bool host_aligned() const { return host_aligned_; }

 private:
  Rational khz_;
  Rational cpu_tick_seconds_;
  bool host_aligned_;
  std::int64_t host_base_ns_ = 0;
  std::optional<std::uint64_t> gpu_base_;
};

}  // namespace npkit
