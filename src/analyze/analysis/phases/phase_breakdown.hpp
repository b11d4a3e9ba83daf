// phase_breakdown.hpp — per-rank time per phase (the data behind `npkit-analyze report`).
// Contract: every span's exclusive time (its duration minus its direct children's) goes to its
// effective phase, so the phases of a track add up exactly to the time its top-level spans
// cover — nothing is counted twice however deep events nest. GPU tracks and CPU (proxy channels,
// host threads) tracks are kept apart: on the GPU the reference is the rank's collective time (the
// summed duration of top-level GPU spans, over all buffers); on the CPU the summed duration of
// top-level CPU spans (every span of a legacy proxy channel is top-level). Counts are the spans
// that define a phase by their own rule (not inherited ones).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/cross_rank_input.hpp"
#include "run/phase_map.hpp"
#include "run/span_sink.hpp"

namespace npkit {

struct PhaseTotal {
  std::int64_t ns = 0;
  std::uint64_t count = 0;
};

struct RankPhases {
  std::uint32_t rank = 0;
  std::int64_t gpu_reference_ns = 0;  // summed duration of top-level GPU spans
  std::int64_t cpu_reference_ns = 0;  // summed duration of top-level CPU spans
  std::vector<PhaseTotal> gpu;        // by phase id
  std::vector<PhaseTotal> cpu;
};

class PhaseBreakdownSink : public SpanSink {
 public:
  explicit PhaseBreakdownSink(const PhaseAssignment& phases) : phases_(phases) {}
  void on_span(const Span& span) override;
  const std::vector<RankPhases>& ranks() const { return ranks_; }
  std::uint64_t clamped_spans() const { return clamped_; }
  void merge(const PhaseBreakdownSink& other);

 private:
  RankPhases& rank(std::uint32_t r);
  const PhaseAssignment& phases_;
  std::vector<RankPhases> ranks_;
  std::uint64_t clamped_ = 0;  // spans whose children overlapped beyond their end
};

// Spread of one phase across ranks.
struct PhaseSpread {
  std::string phase;
  bool gpu = true;
  std::int64_t min_ns = 0;
  std::int64_t median_ns = 0;
  std::int64_t max_ns = 0;
  std::uint32_t slowest_rank = 0;
  std::int64_t total_ns = 0;
  std::uint64_t count = 0;
};

// One entry per phase that occurs on any rank (GPU first, then CPU), in phase-id order.
std::vector<PhaseSpread> phase_spreads(const std::vector<RankPhases>& ranks,
                                       const PhaseAssignment& phases);

// Each rank's GPU phase totals as the cross-rank analysis takes them (run/cross_rank_input.hpp:
// reference = the rank's GPU collective time; phases with no time and no span left out).
std::vector<RankInfo> gpu_phase_infos(const std::vector<RankPhases>& ranks,
                                      const PhaseAssignment& phases);

}  // namespace npkit
