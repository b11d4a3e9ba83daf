#include "import/npkt/profiler_capture.hpp"

namespace npkit {

std::unique_ptr<RankCapture> build_rank_capture(NpktDump dump) {
  auto c = std::make_unique<RankCapture>();
  c->dump = std::move(dump);
  c->events = build_profiler_events(c->dump);
  c->clock = fit_host_gpu_clock(c->dump, c->events);
  c->kernel_channels = check_kernel_channels(c->events, c->clock);
  c->collectives = collect_collectives(c->dump, c->events, c->clock, c->kernel_channels);
  c->alltoall = find_alltoalls(c->dump, c->events, c->clock, c->kernel_channels, c->collectives);
  c->stream_overlaps = untime_stream_overlaps(c->kernel_channels.tolerance_ns, c->collectives,
                                              c->alltoall.alltoalls);
  return c;
}

}  // namespace npkit
