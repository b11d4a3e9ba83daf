// output/html/npkt_timeline.hpp — the timeline of one collective instance of a .npkt capture:
// ranks × GPU channels (KernelCh) and proxy channels (ProxyOp).
// Contract:
// - npkt_timeline draws every span of the communicator's ranks that overlaps `window` (host
//   time): valid KernelCh (stale and open ones left out; host time through each rank's clock),
//   category = the owning operation's collective, tooltip = operation, size, algo/proto, channel
//   and the operation's algbw/busbw over its GPU span; and ProxyOp spans ("proxy send" /
//   "proxy recv", tooltip: peer, steps, chunk size). Rows per rank (output/html/timeline_layout
//   .hpp): "GPU ch C" then "proxy ch C", "GPU (all ch)" where channels share rows.
// - The note (after `choice`, instance_choice.hpp) says what is drawn and what was merged or left
//   out.
#pragma once

#include <cstddef>
#include <string>

#include "import/npkt/communicator_join.hpp"
#include "output/html/instance_choice.hpp"
#include "output/html/report_model.hpp"

namespace npkit::html {

Timeline npkt_timeline(const Communicator& comm, const InstanceWindow& window,
                       const std::string& title, const std::string& choice,
                       std::size_t max_rows = 256);

}  // namespace npkit::html
