// nccl_plugin/sampler.hpp — NPKIT_SAMPLE at run time: switches the costly event groups in the
// activation mask NCCL reads, so that only the chosen operations get them.
//
// Where NCCL reads the mask (2.28.9 to 2.30.7, src/enqueue.cc and src/plugin/profiler.cc): at
// every collective and point-to-point call (collTaskAppend/p2pTaskAppend ->
// ncclProfilerStartGroupApiEvent), once, on the calling thread, right before it starts that call's
// GroupApi (outermost only) and CollApi/P2pApi events; the value is kept in the task and decides
// the task's Coll/P2p, KernelCh (devWork.profilerEnabled), ProxyOp/ProxyStep and NetPlugin events.
// ProxyCtrl and the CE events read the mask again at their own start.
//
// So the decision for a call is made at the previous call: sampler_after_call(), run at each
// CollApi/P2pApi start, writes the mask the next call will read.
// - "1/N": the plugin counts each communicator's collective calls (CollApi starts). Every rank of a
//   communicator makes the same collective calls in the same order (NCCL requires it), so the
//   index of a collective on its communicator is the same on every rank, however many other calls
//   (point-to-point, other communicators, graph replays) a rank makes. A communicator whose next
//   collective is chosen is "pending"; the mask holds the sampled groups while any live
//   communicator of the process is pending. A chosen collective therefore gets the groups on every
//   rank; an operation of another communicator (or a point-to-point call) that comes while one is
//   pending gets them too. A pending communicator that never calls again keeps the groups on
//   until it is finalized or the process exits (flush).
// - "T/P": the mask holds the sampled groups when the host clock, read at the previous call, lies
//   in a window (sample_setting.hpp). Hosts with synchronised clocks sample the same windows.
// Contract: noexcept, no allocation on the call path; one process-wide mutex orders the updates,
// so the last value stored is the one the latest call decided. The mask word is written with
// __atomic_store_n (NCCL loads it with __atomic_load_n / std::atomic relaxed from any thread;
// only the int's value is communicated, so relaxed order suffices).
#pragma once

#include <atomic>
#include <cstdint>

#include "recorder/sample_setting.hpp"

namespace npkit::capture {

inline std::atomic<bool> g_sampling_in_use{false};

inline bool sampling_in_use() noexcept {
  return g_sampling_in_use.load(std::memory_order_relaxed);
}

// Starts sampling for the communicator of context `slot`: `steady` is the mask every call gets,
// `full` the one chosen calls get. Writes the mask for the next call to *mask_word and returns it.
int sampler_attach(uint16_t slot, int* mask_word, const SampleSetting& setting, int steady,
                   int full) noexcept;

// After the CollApi (collective) or P2pApi start of a call on the communicator of `slot`.
void sampler_after_call(uint16_t slot, bool collective) noexcept;

// The communicator of `slot` is finalized: it is pending no more.
void sampler_detach(uint16_t slot) noexcept;

// Every communicator was dumped at process exit (flush): none is pending any more; the mask word
// is left as it is (NCCL records nothing for the dumped communicators).
void sampler_end_all() noexcept;

}  // namespace npkit::capture
