// analysis/summary/summarize_run.hpp — the mergeable summary (run/summary/run_summary.hpp) of any
// run, whatever it was read from.
// Contract (the row definitions are run_summary.hpp's):
// - SummarySpanSink is a SpanSink (run/span_sink.hpp): `report`'s phase attribution
//   per rank (analysis/phases/phase_breakdown.hpp) plus each span's exclusive time per (rank,
//   domain, phase). Sinks fed disjoint runs of tracks merge into one (merge() in track order).
// - summarize_run: config = run.config plus, per communicator (run/run_config.hpp's key), its
//   nranks and the ranks with data.
// - Collectives: every instance with members, of every communicator, keyed by (func, the
//   communicator's nranks, S, algo, proto, tag) with sizes bucketed as run/summary/size_bucket.hpp
//   says; a timed member adds its duration to its rank's sample; an instance without a timed
//   member counts as untimed. These are `bandwidth`'s instances and times
//   (analysis/bandwidth/bandwidth_table.hpp), so a row's time_ns() is the time bandwidth shows.
// - A benchmark driver's rows (Run::driver, nccl-tests): keyed by (func, nranks, S, "", "");
//   each row of the file is an instance; its out-of-place time is the sample of rank 0 (the
//   driver's one time over all ranks): the per-iteration times where recorded (less the leading
//   ones the driver's summary skipped), else the one averaged time, rounded to ns. A row run
//   in place only is untimed. In-place times are not summarized.
// - Phases: "spans" rows (domains gpu and cpu) from the sink; "proxy" rows (domain net:
//   net_send, net_recv, sync, other, and reduce_scatter / all_gather of ring AllReduce steps)
//   from each rank's RunRank::proxy with a stopped step; "kernel" rows (domain gpu: initial_sync,
//   compute, final_sync) from each timed member with NCCL's kernel phases (RunMember::
//   kernel_phases): per rank the phase's time summed, the members' GPU time as reference, the
//   member count, and each member's phase time as a sample.
// - Sync: per instance that is not a Send/Recv pair and is timed on at least two ranks, each timed
//   member's start minus the earliest start, and whether it started last; starts on one clock:
//   a communicator whose ranks are on several hosts has its hosts' offsets added first
//   (analysis/align/host_offsets.hpp, as `report`'s sync), so clock offsets do not read as skew.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>

#include "analysis/phases/phase_breakdown.hpp"
#include "run/run.hpp"
#include "run/span_sink.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit {

class SummarySpanSink : public SpanSink {
 public:
  explicit SummarySpanSink(const PhaseAssignment& phases);
  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void merge(const SummarySpanSink& other);

  const PhaseAssignment& phases() const { return phases_; }
  const PhaseBreakdownSink& breakdown() const { return breakdown_; }
  // Each span's exclusive time, by (rank, on a GPU track, phase).
  const std::map<std::tuple<std::uint32_t, bool, std::uint16_t>, DurationSample>& span_ns() const {
    return span_ns_;
  }

 private:
  const PhaseAssignment& phases_;
  PhaseBreakdownSink breakdown_;
  std::map<std::tuple<std::uint32_t, bool, std::uint16_t>, DurationSample> span_ns_;
};

RunSummary summarize_run(const Run& run, const SummarySpanSink& spans);

}  // namespace npkit
