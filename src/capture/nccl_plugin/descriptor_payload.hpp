// nccl_plugin/descriptor_payload.hpp — turns an NCCL event descriptor (API v5 or v4) into the
// start request the recorder writes: event type index and the type's format payload.
//
// Contract:
// - start_request_from() fills *out from `descr` and returns false for a type value that is not
//   exactly one known event bit (nothing is recorded for it). Strings (func, datatype, algo,
//   proto) become process-wide string ids; pointers that are not strings (streams) are kept as
//   numbers. `own_pid` decides PXN: a ProxyOp whose pid differs is marked foreign (one whose pid
//   is ours is still checked by the recorder: pids repeat across PID namespaces).
// - The descriptor is only read, never its pointers (parentObj, buffers, streams, net data).
// - v4 descriptors have no API events and no trustworthy p2p.nChannels (NCCL's v4 adapter does
//   not copy it): their P2p payload has n_channels 0.
#pragma once

#include <cstring>
#include <type_traits>

#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "npkit/format.hpp"
#include "recorder/event_recorder.hpp"
#include "recorder/string_interner.hpp"

namespace npkit::capture {

namespace payload_detail {

template <typename Payload>
void store(const Payload& payload, StartRequest* out) {
  static_assert(sizeof(Payload) == sizeof(out->payload));
  std::memcpy(out->payload, &payload, sizeof(payload));
}

inline uint16_t string_id(const char* text) {
  return process_string_interner().intern(text);
}

// Index of the single set bit of `type`, or -1 when `type` is 0, has several bits, or is beyond
// the known event types.
inline int type_index(uint64_t type) {
  if (type == 0 || (type & (type - 1)) != 0) return -1;
  const int index = __builtin_ctzll(type);
  return index <= format::kTypeKernelLaunch ? index : -1;
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
      return true;
    }
    case format::kTypeP2p: {
      format::P2pPayload payload{};
      payload.count = descr.p2p.count;
      payload.peer = descr.p2p.peer;
      payload.func = string_id(descr.p2p.func);
      payload.datatype = string_id(descr.p2p.datatype);
      if constexpr (std::is_same_v<Descr, nccl_abi::ncclProfilerEventDescr_v5_t>) {
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

inline bool fill_api(const nccl_abi::ncclProfilerEventDescr_v5_t& descr, StartRequest* out) {
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

}  // namespace payload_detail

template <typename Descr>
bool start_request_from(const Descr& descr, pid_t own_pid, StartRequest* out) {
  const int index = payload_detail::type_index(descr.type);
  if (index < 0) return false;
  out->type = static_cast<uint8_t>(index);
  out->parent = descr.parentObj;
  out->foreign = index == format::kTypeProxyOp && descr.proxyOp.pid != own_pid;
  if (payload_detail::fill_common(descr, out)) return true;
  if constexpr (std::is_same_v<Descr, nccl_abi::ncclProfilerEventDescr_v5_t>) {
    return payload_detail::fill_api(descr, out);
  }
  return false;
}

}  // namespace npkit::capture
