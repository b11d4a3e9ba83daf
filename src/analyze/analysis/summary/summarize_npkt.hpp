// analysis/summary/summarize_npkt.hpp — a RunSummary from the profiler plugin's .npkt dumps.
// Contract (the row definitions are run_summary.hpp's):
// - Collective rows come from the joined instances of every communicator: a collective
//   instance takes func, S, algo and proto from its lowest-rank member (as `bandwidth` does); a
//   Send/Recv pair is a "SendRecv" row and a derived AlltoAll an "AlltoAll" row, both without
//   algo/proto. Each member with a GPU span adds its duration to its rank's sample; an instance
//   without any span counts as untimed.
// - A collective's sizes stay exact unless the input holds more than kMaxExactSizes distinct
//   sizes of it (counted over all communicators), then every instance of it goes to the power of
//   two at or below its S.
// - Sync: per collective instance (pairs excluded) with GPU spans on at least two ranks.
// - Phases: the NET proxy-step breakdown of every file with a rank and at least one stopped
//   step: net_send, net_recv, sync, other (reference: step time, count: steps) and, when ring
//   AllReduce steps exist, reduce_scatter and all_gather.
// - Config: metadata of every file (nccl.version, env.*, gpu.name, hostname, capture.events,
//   capture.buffer_size_mb, capture.plugin_version), the profiler API, and each file's
//   (communicator, rank). `input` is recorded as the summary's one input.
#pragma once

#include <string>
#include <vector>

#include "import/npkt/communicator_join.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit {

RunSummary summarize_npkt(const std::string& input, const std::vector<const RankCapture*>& files,
                          const std::vector<Communicator>& comms);

}  // namespace npkit
