// nccl_plugin/descriptor_payload.hpp — turns an NCCL event descriptor (API v7, v6, v5 or v4) into
// the start request the recorder writes: event type index, the type's format payload and, where
// the descriptor holds more than a payload carries, details (format::DetailKind).
//
// Contract:
// - start_request_from() fills *out from `descr` and returns false for a type value that is not
//   exactly one known event bit (nothing is recorded for it). Strings (func, datatype, algo,
//   proto) become process-wide string ids; pointers that are not strings (streams) are kept as
//   numbers. `own_pid` decides PXN: a ProxyOp whose pid differs is marked foreign (one whose pid
//   is ours is still checked by the recorder: pids repeat across PID namespaces).
// - The descriptor is only read, never its pointers (parentObj, buffers, streams, net data).
// - v4 descriptors have no API events. Their p2p.nChannels is NCCL 2.27's value, but NCCL 2.28+
//   drives API v4 through an adapter that leaves it uninitialised: it is kept only while
//   g_v4_p2p_channels_trusted holds (profiler_v4.cpp sets it at init from NCCL's version).
// - v5, v6 and v7 Coll/P2p with a non-NULL parentGroup get a kDetailParentGroup detail naming it
//   (the recorder resolves the handle); v6 and v7 CeColl get a kDetailCeColl detail (buffers,
//   stream, batch fields). CE types of a v5 or v4 descriptor are no known event (NCCL never sends
//   them there), nor is KernelPhase below v7.
// - v7: KernelPhase gets a KernelPhasePayload (its phaseName interned); CollApi, P2pApi, Coll, P2p
//   and CeColl whose userTag is not 0, and Coll whose kernelVariant is not NULL or whose isSymColl
//   is set, get a kDetailCallTag detail (request.has_call_tag).
#pragma once

#include <atomic>
#include <cstring>
#include <type_traits>

#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "npkit/format.hpp"
#include "recorder/event_recorder.hpp"
#include "recorder/string_interner.hpp"

namespace npkit::capture {

// Whether a v4 descriptor's p2p.nChannels is NCCL's (see the contract).
inline std::atomic<bool> g_v4_p2p_channels_trusted{true};

namespace payload_detail {

using nccl_abi::ncclProfilerEventDescr_v4_t;
using nccl_abi::ncclProfilerEventDescr_v5_t;
using nccl_abi::ncclProfilerEventDescr_v6_t;
using nccl_abi::ncclProfilerEventDescr_v7_t;

template <typename Payload>
void store(const Payload& payload, StartRequest* out) {
  static_assert(sizeof(Payload) == sizeof(out->payload));
  std::memcpy(out->payload, &payload, sizeof(payload));
}

template <typename Detail>
void store_detail(uint32_t kind, const Detail& detail, StartRequest* out) {
  static_assert(sizeof(Detail) == sizeof(out->detail));
  out->detail_kind = kind;
  std::memcpy(out->detail, &detail, sizeof(detail));
}

template <typename Descr>
inline constexpr bool kHasApiEvents = !std::is_same_v<Descr, ncclProfilerEventDescr_v4_t>;

template <typename Descr>
inline constexpr bool kIsV7 = std::is_same_v<Descr, ncclProfilerEventDescr_v7_t>;

template <typename Descr>
inline constexpr bool kHasCeEvents =
    std::is_same_v<Descr, ncclProfilerEventDescr_v6_t> || kIsV7<Descr>;

inline uint16_t string_id(const char* text) {
  return process_string_interner().intern(text);
}

// Index of the single set bit of `type`, or -1 when `type` is 0, has several bits, or is beyond
// the event types of `Descr`'s API version.
template <typename Descr>
int type_index(uint64_t type) {
  if (type == 0 || (type & (type - 1)) != 0) return -1;
  const int index = __builtin_ctzll(type);
  const int last = kIsV7<Descr>          ? format::kTypeKernelPhase
                   : kHasCeEvents<Descr> ? format::kTypeCeBatch
                                         : format::kTypeKernelLaunch;
  return index <= last ? index : -1;
}

// The parentGroup of a v5/v6 Coll or P2p, as a detail the recorder resolves.
inline void note_parent_group(void* parent_group, StartRequest* out) {
  if (parent_group == nullptr) return;
  out->detail_kind = format::kDetailParentGroup;
  out->parent_group = parent_group;
}

// Payloads whose descriptor members are the same in v4 and v5.
template <typename Descr>
bool fill_common(const Descr& descr, StartRequest* out) {
  switch (out->type) {
    case format::kTypeGroup:
    case format::kTypeProxyCtrl:
      return true;  // no payload
    case format::kTypeColl: {
      format::CollPayload payload{};
      payload.seq = descr.coll.seqNumber;
      payload.count = descr.coll.count;
      payload.root = descr.coll.root;
      payload.func = string_id(descr.coll.func);
      payload.datatype = string_id(descr.coll.datatype);
      payload.algo = string_id(descr.coll.algo);
      payload.proto = string_id(descr.coll.proto);
      payload.n_channels = descr.coll.nChannels;
      payload.n_warps = descr.coll.nWarps;
      store(payload, out);
      if constexpr (kHasApiEvents<Descr>) note_parent_group(descr.coll.parentGroup, out);
      return true;
    }
    case format::kTypeP2p: {
      format::P2pPayload payload{};
      payload.count = descr.p2p.count;
      payload.peer = descr.p2p.peer;
      payload.func = string_id(descr.p2p.func);
      payload.datatype = string_id(descr.p2p.datatype);
      if constexpr (kHasApiEvents<Descr>) {
        payload.n_channels = descr.p2p.nChannels;
        note_parent_group(descr.p2p.parentGroup, out);
      } else if (g_v4_p2p_channels_trusted.load(std::memory_order_relaxed)) {
        payload.n_channels = descr.p2p.nChannels;
      }
      store(payload, out);
      return true;
    }
    case format::kTypeProxyOp: {
      format::ProxyOpPayload payload{};
      payload.pid = descr.proxyOp.pid;
      payload.peer = descr.proxyOp.peer;
      payload.n_steps = descr.proxyOp.nSteps;
      payload.chunk_size = descr.proxyOp.chunkSize;
      payload.rank = descr.rank;
      payload.channel = descr.proxyOp.channelId;
      payload.is_send = static_cast<uint8_t>(descr.proxyOp.isSend != 0);
      store(payload, out);
      return true;
    }
    case format::kTypeProxyStep: {
      format::ProxyStepPayload payload{};
      payload.step = descr.proxyStep.step;
      payload.rank = descr.rank;
      store(payload, out);
      return true;
    }
    case format::kTypeKernelCh: {
      format::KernelChPayload payload{};
      payload.gpu_start_ns = descr.kernelCh.pTimer;
      payload.channel = descr.kernelCh.channelId;
      store(payload, out);
      return true;
    }
    case format::kTypeNetPlugin: {
      format::NetPluginPayload payload{};
      payload.plugin_id = descr.netPlugin.id;
      store(payload, out);
      return true;
    }
    default:
      return false;
  }
}

template <typename Descr>
bool fill_api(const Descr& descr, StartRequest* out) {
  switch (out->type) {
    case format::kTypeGroupApi: {
      format::GroupApiPayload payload{};
      payload.group_depth = descr.groupApi.groupDepth;
      payload.graph_captured = descr.groupApi.graphCaptured ? 1 : 0;
      store(payload, out);
      return true;
    }
    case format::kTypeCollApi: {
      format::CollApiPayload payload{};
      payload.count = descr.collApi.count;
      payload.stream = reinterpret_cast<uintptr_t>(descr.collApi.stream);
      payload.root = descr.collApi.root;
      payload.func = string_id(descr.collApi.func);
      payload.datatype = string_id(descr.collApi.datatype);
      payload.graph_captured = descr.collApi.graphCaptured ? 1 : 0;
      store(payload, out);
      return true;
    }
    case format::kTypeP2pApi: {
      format::P2pApiPayload payload{};
      payload.count = descr.p2pApi.count;
      payload.stream = reinterpret_cast<uintptr_t>(descr.p2pApi.stream);
      payload.func = string_id(descr.p2pApi.func);
      payload.datatype = string_id(descr.p2pApi.datatype);
      payload.graph_captured = descr.p2pApi.graphCaptured ? 1 : 0;
      store(payload, out);
      return true;
    }
    case format::kTypeKernelLaunch: {
      format::KernelLaunchPayload payload{};
      payload.stream = reinterpret_cast<uintptr_t>(descr.kernelLaunch.stream);
      store(payload, out);
      return true;
    }
    default:
      return false;
  }
}

template <typename Descr>
bool fill_ce(const Descr& descr, StartRequest* out) {
  switch (out->type) {
    case format::kTypeCeColl: {
      format::CeCollPayload payload{};
      payload.seq = descr.ceColl.seqNumber;
      payload.count = descr.ceColl.count;
      payload.root = descr.ceColl.root;
      payload.func = string_id(descr.ceColl.func);
      payload.datatype = string_id(descr.ceColl.datatype);
      payload.sync_strategy = string_id(descr.ceColl.syncStrategy);
      payload.intra_batch_sync = descr.ceColl.intraBatchSync ? 1 : 0;
      payload.ce_seq = descr.ceColl.ceSeqNum;
      store(payload, out);
      format::CeCollDetail detail{};
      detail.send_buff = reinterpret_cast<uintptr_t>(descr.ceColl.sendBuff);
      detail.recv_buff = reinterpret_cast<uintptr_t>(descr.ceColl.recvBuff);
      detail.stream = reinterpret_cast<uintptr_t>(descr.ceColl.stream);
      detail.batch_size = descr.ceColl.batchSize;
      detail.num_batches = descr.ceColl.numBatches;
      store_detail(format::kDetailCeColl, detail, out);
      return true;
    }
    case format::kTypeCeSync: {
      format::CeSyncPayload payload{};
      payload.n_ranks = descr.ceCollSync.nRanks;
      payload.is_complete = descr.ceCollSync.isComplete ? 1 : 0;
      store(payload, out);
      return true;
    }
    case format::kTypeCeBatch: {
      format::CeBatchPayload payload{};
      payload.total_bytes = descr.ceCollBatch.totalBytes;
      payload.num_ops = descr.ceCollBatch.numOps;
      payload.use_intra_sync = descr.ceCollBatch.useIntraSync ? 1 : 0;
      store(payload, out);
      return true;
    }
    default:
      return false;
  }
}

// The v7 call tag of an event whose user tag (and, for a Coll, kernel fields) are given.
inline void note_call_tag(uint64_t user_tag, const char* kernel_variant, bool is_sym_coll,
                          StartRequest* out) {
  if (user_tag == 0 && kernel_variant == nullptr && !is_sym_coll) return;
  format::CallTagDetail tag{};
  tag.user_tag = user_tag;
  tag.kernel_variant = kernel_variant != nullptr ? string_id(kernel_variant) : 0;
  tag.is_sym_coll = is_sym_coll ? 1 : 0;
  static_assert(sizeof(tag) == sizeof(out->call_tag));
  out->has_call_tag = true;
  std::memcpy(out->call_tag, &tag, sizeof(tag));
}

// What v7 adds to the events fill_common/fill_api/fill_ce recorded: the KernelPhase payload, and
// the call-tag detail. False for a type none of them knows.
inline bool fill_v7(const ncclProfilerEventDescr_v7_t& descr, StartRequest* out) {
  switch (out->type) {
    case format::kTypeKernelPhase: {
      format::KernelPhasePayload payload{};
      payload.gpu_start_ns = descr.kernelPhase.pTimer;
      payload.channel = descr.kernelPhase.channelId;
      payload.phase_id = descr.kernelPhase.phaseId;
      payload.phase_name = string_id(descr.kernelPhase.phaseName);
      store(payload, out);
      return true;
    }
    case format::kTypeCollApi:
      note_call_tag(descr.collApi.userTag, nullptr, false, out);
      return true;
    case format::kTypeP2pApi:
      note_call_tag(descr.p2pApi.userTag, nullptr, false, out);
      return true;
    case format::kTypeColl:
      note_call_tag(descr.coll.userTag, descr.coll.kernelVariant, descr.coll.isSymColl, out);
      return true;
    case format::kTypeP2p:
      note_call_tag(descr.p2p.userTag, nullptr, false, out);
      return true;
    case format::kTypeCeColl:
      note_call_tag(descr.ceColl.userTag, nullptr, false, out);
      return true;
    default:
      return false;
  }
}

}  // namespace payload_detail

template <typename Descr>
bool start_request_from(const Descr& descr, pid_t own_pid, StartRequest* out) {
  const int index = payload_detail::type_index<Descr>(descr.type);
  if (index < 0) return false;
  out->type = static_cast<uint8_t>(index);
  out->parent = descr.parentObj;
  out->foreign = index == format::kTypeProxyOp && descr.proxyOp.pid != own_pid;
  bool known = payload_detail::fill_common(descr, out);
  if constexpr (payload_detail::kHasApiEvents<Descr>) {
    known = known || payload_detail::fill_api(descr, out);
  }
  if constexpr (payload_detail::kHasCeEvents<Descr>) {
    known = known || payload_detail::fill_ce(descr, out);
  }
  if constexpr (payload_detail::kIsV7<Descr>) {
    known = payload_detail::fill_v7(descr, out) || known;
  }
  return known;
}

}  // namespace npkit::capture
