#include "import/legacy/gpu_clock.hpp"

#include "util/saturating.hpp"

#include <algorithm>
#include <cstdint>

namespace npkit {

GpuClock::GpuClock(const RankClocks& clocks, std::optional<std::uint64_t> first_cpu_sync,
                   std::optional<std::uint64_t> first_gpu_sync)
    : khz_(clocks.gpu_khz.value_or(Rational{1000000, 1})),  // unknown rate: 1 tick = 1 ns
      cpu_tick_seconds_(clocks.cpu_tick_seconds),
      host_aligned_(first_cpu_sync.has_value()) {
  if (first_cpu_sync) host_base_ns_ = cpu_ticks_to_ns(*first_cpu_sync, cpu_tick_seconds_);
  gpu_base_ = first_gpu_sync;
}

void GpuClock::on_cpu_sync(std::uint64_t cpu_ticks) {
  host_base_ns_ = cpu_ticks_to_ns(cpu_ticks, cpu_tick_seconds_);
  gpu_base_.reset();
}

void GpuClock::on_gpu_sync(std::uint64_t gpu_ticks) {
  if (!gpu_base_) gpu_base_ = gpu_ticks;
}

std::int64_t GpuClock::to_ns(std::uint64_t gpu_ticks) {
  if (!host_aligned_) {
    const std::uint64_t capped = std::min<std::uint64_t>(gpu_ticks, INT64_MAX);
    return gpu_ticks_to_ns(static_cast<std::int64_t>(capped), khz_);
  }
  if (!gpu_base_) gpu_base_ = gpu_ticks;
  // Ticks are unsigned, as the reader orders them: a later count is never an earlier time (a
  // modular difference would turn a huge garbage count into a negative duration).
  const std::uint64_t base = *gpu_base_;
  const std::int64_t delta =
      gpu_ticks >= base
          ? static_cast<std::int64_t>(std::min<std::uint64_t>(gpu_ticks - base, INT64_MAX))
          : -static_cast<std::int64_t>(std::min<std::uint64_t>(base - gpu_ticks, INT64_MAX));
  return sat_add(host_base_ns_, gpu_ticks_to_ns(delta, khz_));
}

}  // namespace npkit
