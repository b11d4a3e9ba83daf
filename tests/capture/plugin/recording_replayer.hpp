// recording_replayer.hpp — replays a recording of NCCL's profiler calls into the plugin, the way
// NCCL made them: one thread per recorded thread id, calls issued one at a time in the recording's
// global `seq` order, recorded context and handle ids mapped to the pointers the plugin returned.
//
// Contract:
// - Each replay thread waits for its turn (a shared turn counter and a condition variable), makes
//   its call, then passes the turn on; calls never overlap, so the plugin sees the recorded order
//   and the recorded thread of every call.
// - Start descriptors get parentObj (and coll/p2p parentGroup) mapped from recorded ids; a
//   ProxyOp whose recorded pid is the recording process's pid gets the current pid (other pids
//   stay foreign). pTimer, transSize and every other value pass through unchanged.
// - All inits write the same mask variable (NCCL's mask is process-wide).
// - With `honour_mask`, the mask is used as NCCL 2.28.9 to 2.30.7 use it (src/enqueue.cc,
//   src/plugin/profiler.cc): loaded (__atomic_load_n) once per collective or point-to-point call,
//   here at its CollApi/P2pApi start (NCCL loads it just before that call's GroupApi start; the
//   plugin writes it only after CollApi/P2pApi starts, so both loads see the same value); the
//   call's Coll/P2p, KernelCh, ProxyOp, ProxyStep and NetPlugin events (found through their
//   parents) keep that value and are started only when it holds a bit NCCL tests for them
//   (KernelCh: KernelCh; ProxyOp: ProxyOp|ProxyStep|NetPlugin; ProxyStep: ProxyStep|NetPlugin;
//   NetPlugin: NetPlugin; Coll/P2p: their own bit or any of those). ProxyCtrl loads the mask at
//   its own start. A start NCCL would not make is skipped with its states and stop, and so are
//   its children; starts whose call is unknown (no recorded parent) are made.
// - Never throws from a replay thread: problems (an unknown id, a call that did not return
//   ncclSuccess, a start that returned no handle) are collected in `errors`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "capture/plugin/plugin_library.hpp"
#include "capture/plugin/recorded_calls.hpp"

namespace npkit::test {

struct ReplayOutcome {
  std::map<int64_t, int32_t> os_tid_of_recorded_tid;
  std::map<uint64_t, int> mask_after_init;  // recorded ctx id -> mask the plugin wrote
  std::vector<std::string> errors;
  uint64_t starts_skipped = 0;  // with honour_mask: starts NCCL would not have made
};

ReplayOutcome replay_recording(const Recording& recording, const PluginLibrary& plugin,
                               bool honour_mask = false);

}  // namespace npkit::test
