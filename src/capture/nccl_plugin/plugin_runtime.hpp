// nccl_plugin/plugin_runtime.hpp — what every exported profiler entry point (API v7 to v4) does,
// once the version's argument order and descriptor layout are taken care of.
//
// Contract:
// - Never throws, never aborts; returns ncclSuccess from everything (NCCL ignores the other
//   return codes, and a failed init only disables capture for that communicator: NULL context,
//   one WARN through NCCL's logger).
// - init_communicator(): reads the settings (capture_settings.hpp) at every call, logs one WARN
//   per settings problem, opens the communicator's context and the process's detached context,
//   and writes the event mask to *event_mask (a process-global int in NCCL: the last init wins;
//   a communicator whose capture is disabled leaves it alone). The mask, and the one the dump
//   records, holds only types of the API version NCCL called (events_of_api: no KernelPhase below
//   v7, no CE types below v6).
//   NCCL also emits the ancestors of the selected events (e.g. GroupApi and CollApi for Coll);
//   they are recorded like any other event: a record is cheap and keeps every parent link.
// - start_event(): *handle = the recorder's handle: an event's, a dropped one (proxy events that
//   record nothing), or NULL (NULL context, unknown type, other events that record nothing).
//   `context` is passed on unread: under PXN it may be another process's (event_recorder.hpp).
//   Once a plugin is chained (NPKIT_CHAIN_PLUGIN, chained_plugin.hpp) starts go through
//   chained_start(); until then that costs one relaxed load of a process-wide flag.
// - stop_event()/record_event_state(): ignore handles that are not this plugin's; the state value
//   is read from the args member of the event's type (ProxyCtrl: appendedProxyOps, others: the
//   8-byte member), 0 with has_args 0 when args are NULL or the state carries none
//   (state_carries_args). Paired and chain-only handles
//   (chain_handles.hpp) go to chained_stop()/chained_state(); our handles never test for them.
// - init_communicator() with NPKIT_CHAIN_PLUGIN set: the chained plugin's init runs first; its
//   warnings are logged as WARNs, its status becomes the capture.chained_plugin metadata, and
//   *event_mask is our mask | its mask. When our capture cannot be opened, the chained plugin's
//   context is finalized at once and the mask is left alone.
// - NPKIT_SAMPLE (sampler.hpp): init_communicator() writes the mask the sampler decides (with
//   profiler API v4, which has no API events, a warning and no sampling); every CollApi/P2pApi
//   start then calls note_call_for_sampling() after it is recorded, which writes the mask the
//   next call of the process reads; until the first sampled init that costs one relaxed load.
// - finalize_communicator(): takes the end clock sample and writes the dump (end_reason
//   finalize); a write failure is logged as one WARN with the path and strerror. Then the chained
//   plugin's finalize, if any.
// - flush_live_communicators(): dumps every context not dumped yet (end_reason process-exit, no
//   CUDA call), logs failures (through NCCL's logger, or stderr when `to_stderr`), returns the
//   number of files written.
#pragma once

#include <sys/types.h>

#include "nccl_plugin/chained_plugin.hpp"
#include "nccl_plugin/descriptor_payload.hpp"
#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "nccl_plugin/sampler.hpp"
#include "recorder/capture_settings.hpp"
#include "recorder/context_factory.hpp"
#include "recorder/context_registry.hpp"
#include "recorder/event_recorder.hpp"

namespace npkit::capture {

// This process's id, kept current across fork().
pid_t own_pid() noexcept;

// False for the states whose args NCCL never fills: 19 (ProxyOpInProgress), 23, 24 (GroupApi)
// and the CE states 25..30 (NCCL 2.29/2.30's v5 adapter passes uninitialised args for 19, 23,
// 24). State 31 (KernelPhaseStop, API v7) carries the phase's stop time in args.kernelCh.
bool state_carries_args(int state) noexcept;

nccl_abi::ncclResult_t init_communicator(void** context, int* event_mask,
                                         const CommunicatorIdentity& identity,
                                         nccl_abi::ncclDebugLogger_t logfn) noexcept;
nccl_abi::ncclResult_t finalize_communicator(void* context) noexcept;
nccl_abi::ncclResult_t stop_event(void* handle) noexcept;
nccl_abi::ncclResult_t record_event_state(
    void* handle, int state, const nccl_abi::ncclProfilerEventStateArgs_v5_t* args) noexcept;
int flush_live_communicators(bool to_stderr) noexcept;
// Sampling's count of a call, at its CollApi (`collective`) or P2pApi start.
void note_call_for_sampling(void* context, bool collective) noexcept;

// Our record of a start: the recorder's handle, or NULL for a type that is no known event.
template <typename Descr>
void* record_descr(void* context, const Descr& descr) noexcept {
  StartRequest request;
  if (!start_request_from(descr, own_pid(), &request)) return nullptr;
  return record_start(process_context_registry(), context, request);
}

template <typename Descr>
nccl_abi::ncclResult_t start_event(void* context, void** handle, const Descr* descr) noexcept {
  if (handle == nullptr) return nccl_abi::ncclSuccess;
  *handle = nullptr;
  if (context == nullptr || descr == nullptr) return nccl_abi::ncclSuccess;
  if (__builtin_expect(chain_in_use(), 0)) {
    *handle = chained_start(context, *descr);
  } else {
    *handle = record_descr(context, *descr);
  }
  if (__builtin_expect(sampling_in_use(), 0) &&
      (descr->type == kEventCollApi || descr->type == kEventP2pApi)) {
    note_call_for_sampling(context, descr->type == kEventCollApi);
  }
  return nccl_abi::ncclSuccess;
}

// The entry points of the exported tables, one per argument list.
template <uint32_t Api>
nccl_abi::ncclResult_t init_entry(void** context, uint64_t comm_id, int* event_mask,
                                  const char* comm_name, int nnodes, int nranks, int rank,
                                  nccl_abi::ncclDebugLogger_t logfn) noexcept {
  CommunicatorIdentity identity;
  identity.comm_hash = comm_id;
  identity.rank = rank;
  identity.nranks = nranks;
  identity.nnodes = nnodes;
  identity.profiler_api = Api;
  identity.comm_name = comm_name;
  return init_communicator(context, event_mask, identity, logfn);
}

template <typename Descr>
nccl_abi::ncclResult_t start_entry(void* context, void** handle, Descr* descr) noexcept {
  return start_event(context, handle, descr);
}

inline nccl_abi::ncclResult_t state_entry(
    void* handle, int state, nccl_abi::ncclProfilerEventStateArgs_v5_t* args) noexcept {
  return record_event_state(handle, state, args);
}

}  // namespace npkit::capture
