// import/npkt/profiler_capture.hpp — everything the analyses need from one .npkt dump.
// Contract: build_rank_capture rebuilds the events, fits the host/GPU clock, checks the KernelCh
// timestamps, collects the collectives, recognises AlltoAll groups and drops the GPU spans of
// launches that overlap on the rank's stream (stream_overlap.hpp), in that order. The
// collectives' string views point into `dump`, which the capture owns: a RankCapture is moved,
// never copied, and is held at a stable address (std::unique_ptr) once built.
#pragma once

#include <memory>
#include <vector>

#include "import/npkt/host_gpu_clock.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/profiler_alltoall.hpp"
#include "import/npkt/profiler_collectives.hpp"
#include "import/npkt/profiler_events.hpp"
#include "import/npkt/profiler_kernel_channels.hpp"
#include "import/npkt/stream_overlap.hpp"

namespace npkit {

struct RankCapture {
  NpktDump dump;
  ProfilerEvents events;
  HostGpuClock clock;
  KernelChannelCheck kernel_channels;
  std::vector<ProfilerCollective> collectives;  // Coll and P2p events
  AlltoallScan alltoall;                        // derived AlltoAll operations
  StreamOverlapCheck stream_overlaps;           // spans dropped as impossible

  std::int32_t rank() const { return dump.comm.rank; }
};

std::unique_ptr<RankCapture> build_rank_capture(NpktDump dump);

}  // namespace npkit
