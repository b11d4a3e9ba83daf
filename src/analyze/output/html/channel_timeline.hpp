// output/html/channel_timeline.hpp — the timeline of one collective instance from its channel
// spans (run/channel_span.hpp): ranks × GPU channels and proxy channels.
// Contract:
// - Every span given is drawn (the input chose those overlapping the window). GPU spans:
//   category = the owning operation's function ("KernelCh" without one), tooltip = rank, channel,
//   operation, size, algo/proto and the operation's algbw/busbw over its GPU span (busbw by
//   nccl-tests' convention for `nranks`). Proxy spans: "proxy send" / "proxy recv", tooltip:
//   peer, steps, chunk size. Rows per rank (output/html/timeline_layout.hpp): "GPU ch C" then
//   "proxy ch C", "GPU (all ch)" where channels share rows.
// - The note (after `choice`, instance_choice.hpp) says what is drawn and what was merged or left
//   out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "output/html/instance_choice.hpp"
#include "output/html/report_model.hpp"
#include "run/channel_span.hpp"

namespace npkit::html {

Timeline channel_timeline(const std::vector<ChannelSpan>& spans, std::int32_t nranks,
                          const InstanceWindow& window, const std::string& title,
                          const std::string& choice, std::size_t max_rows = 256);

}  // namespace npkit::html
