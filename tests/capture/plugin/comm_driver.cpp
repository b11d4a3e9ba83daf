#include "capture/plugin/comm_driver.hpp"

#include <cstring>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/host_clock.hpp"
#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {
namespace {

uint8_t bit_index(uint64_t type) {
  return static_cast<uint8_t>(__builtin_ctzll(type));
}

bool all_zero(const abi::StateArgs& args) {
  unsigned char bytes[sizeof(args)];
  std::memcpy(bytes, &args, sizeof(args));
  for (unsigned char b : bytes) {
    if (b != 0) return false;
  }
  return true;
}

// StatePayload::value as docs/format.md defines it for the event's type.
// docs/format.md: states 19, 23, 24 and 25..30 carry no arguments; whatever NCCL passes for
// them is not recorded (has_args 0, value 0).
bool state_has_args(int state) {
  return state != 19 && state != 23 && state != 24 && (state < 25 || state > 30);
}

std::optional<uint64_t> expected_state_value(uint64_t type, const abi::StateArgs* args) {
  if (args == nullptr) return 0;
  switch (type) {
    case abi::kProxyStep:
      return args->proxyStep.transSize;
    case abi::kProxyCtrl:
      return static_cast<uint64_t>(static_cast<int64_t>(args->proxyCtrl.appendedProxyOps));
    case abi::kKernelCh:
      return args->kernelCh.pTimer;
    case abi::kNetPlugin:
      return reinterpret_cast<uint64_t>(args->netPlugin.data);
    default:
      if (all_zero(*args)) return 0;
      return std::nullopt;
  }
}

abi::EventDescrV4 to_v4(const abi::EventDescrV5& d) {
  abi::EventDescrV4 v4;
  std::memset(static_cast<void*>(&v4), 0xCD, sizeof(v4));
  v4.type = static_cast<uint8_t>(d.type);
  v4.parentObj = d.parentObj;
  v4.rank = d.rank;
  switch (d.type) {
    case abi::kColl:
      v4.coll.seqNumber = d.coll.seqNumber;
      v4.coll.func = d.coll.func;
      v4.coll.sendBuff = d.coll.sendBuff;
      v4.coll.recvBuff = d.coll.recvBuff;
      v4.coll.count = d.coll.count;
      v4.coll.root = d.coll.root;
      v4.coll.datatype = d.coll.datatype;
      v4.coll.nChannels = d.coll.nChannels;
      v4.coll.nWarps = d.coll.nWarps;
      v4.coll.algo = d.coll.algo;
      v4.coll.proto = d.coll.proto;
      break;
    case abi::kP2p:
      v4.p2p.func = d.p2p.func;
      v4.p2p.buff = d.p2p.buff;
      v4.p2p.datatype = d.p2p.datatype;
      v4.p2p.count = d.p2p.count;
      v4.p2p.peer = d.p2p.peer;
      v4.p2p.nChannels = d.p2p.nChannels;
      break;
    case abi::kProxyOp:
      v4.proxyOp.pid = d.proxyOp.pid;
      v4.proxyOp.channelId = d.proxyOp.channelId;
      v4.proxyOp.peer = d.proxyOp.peer;
      v4.proxyOp.nSteps = d.proxyOp.nSteps;
      v4.proxyOp.chunkSize = d.proxyOp.chunkSize;
      v4.proxyOp.isSend = d.proxyOp.isSend;
      break;
    case abi::kProxyStep:
      v4.proxyStep.step = d.proxyStep.step;
      break;
    case abi::kKernelCh:
      v4.kernelCh.channelId = d.kernelCh.channelId;
      v4.kernelCh.pTimer = d.kernelCh.pTimer;
      break;
    case abi::kNetPlugin:
      v4.netPlugin.id = d.netPlugin.id;
      v4.netPlugin.data = d.netPlugin.data;
      break;
    default:
      break;
  }
  return v4;
}

abi::EventDescrV5 blank(uint64_t type, void* parent, int rank) {
  abi::EventDescrV5 d;
  std::memset(static_cast<void*>(&d), 0, sizeof(d));
  d.type = type;
  d.parentObj = parent;
  d.rank = rank;
  return d;
}

// The v5 descriptor as v6 (NCCL 2.30's profiler_v6.h keeps every v5 member at its v5 offset).
abi::EventDescrV6 to_v6(const abi::EventDescrV5& d) {
  static_assert(sizeof(abi::EventDescrV6) == sizeof(abi::EventDescrV5));
  abi::EventDescrV6 v6;
  std::memcpy(static_cast<void*>(&v6), &d, sizeof(d));
  return v6;
}

abi::StateArgs filled_args() {
  abi::StateArgs args;
  std::memset(static_cast<void*>(&args), 0xFF, sizeof(args));
  return args;
}

}  // namespace

CommDriver::CommDriver(const CommSetup& setup, const PluginLibrary* plugin)
    : setup_(setup), lib_(plugin != nullptr ? *plugin : require_plugin()) {
  const PluginLibrary& lib = lib_;
  REQUIRE(lib.error.empty());
  abi::Result result;
  init_before_ = realtime_ns();
  if (setup.api == 4) {
    result = lib.v4->init(&context_, &mask_, setup.comm_name, setup.comm_hash, setup.nnodes,
                          setup.nranks, setup.rank, capture_log);
  } else if (setup.api == 6) {
    result = lib.v6->init(&context_, setup.comm_hash, &mask_, setup.comm_name, setup.nnodes,
                          setup.nranks, setup.rank, capture_log);
  } else {
    result = lib.v5->init(&context_, setup.comm_hash, &mask_, setup.comm_name, setup.nnodes,
                          setup.nranks, setup.rank, capture_log);
  }
  init_after_ = realtime_ns();
  REQUIRE(result == abi::kSuccess);
  REQUIRE(context_ != nullptr);
}

void CommDriver::log(LoggedCall call) {
  std::lock_guard<std::mutex> lock(mutex_);
  calls_.push_back(call);
}

void* CommDriver::start(const abi::EventDescrV5& descr, ParentLink link) {
  LoggedCall call;
  call.kind = format::kRecordStart;
  call.type_index = bit_index(descr.type);
  call.descr = descr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    call.start_call = calls_.size();
    if (link == ParentLink::kOtherComm) {
      call.parent_flags = format::kStartParentOtherComm;
    } else if (link == ParentLink::kUnknown) {
      call.parent_flags = format::kStartParentUnknown;
    } else if (descr.parentObj == nullptr) {
      call.parent_flags = format::kStartParentNull;
    } else {
      auto parent = start_of_handle_.find(descr.parentObj);
      REQUIRE(parent != start_of_handle_.end());
      call.parent_call = parent->second;
    }
  }
  const PluginLibrary& lib = lib_;
  void* handle = nullptr;
  abi::EventDescrV5 fed = descr;
  call.tid = current_tid();
  call.t_before = realtime_ns();
  abi::Result result;
  if (setup_.api == 4) {
    REQUIRE(descr.type < abi::kGroupApi);
    abi::EventDescrV4 v4 = to_v4(descr);
    result = lib.v4->startEvent(context_, &handle, &v4);
  } else if (setup_.api == 6) {
    abi::EventDescrV6 v6 = to_v6(descr);
    result = lib.v6->startEvent(context_, &handle, &v6);
  } else {
    result = lib.v5->startEvent(context_, &handle, &fed);
  }
  call.t_after = realtime_ns();
  REQUIRE(result == abi::kSuccess);
  REQUIRE(handle != nullptr);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    REQUIRE(start_of_handle_.count(handle) == 0);
    start_of_handle_[handle] = call.start_call;
    calls_.push_back(call);
    if (setup_.api >= 5) log_parent_group(call);
  }
  return handle;
}

// Called with mutex_ held, right after the start `start` was logged.
void CommDriver::log_parent_group(const LoggedCall& start) {
  const uint64_t type = start.descr.type;
  void* const group = type == abi::kColl  ? start.descr.coll.parentGroup
                      : type == abi::kP2p ? start.descr.p2p.parentGroup
                                          : nullptr;
  if (group == nullptr) return;
  LoggedCall detail = start;
  detail.kind = format::kRecordDetail;
  detail.parent_call.reset();
  detail.parent_flags = 0;
  auto group_start = start_of_handle_.find(group);
  if (group_start != start_of_handle_.end()) {
    detail.parent_call = group_start->second;
  } else {
    detail.parent_flags = format::kStartParentUnknown;
  }
  calls_.push_back(detail);
}

void CommDriver::state(void* handle, int state, const abi::StateArgs* args) {
  LoggedCall call;
  call.kind = format::kRecordState;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto start = start_of_handle_.find(handle);
    REQUIRE(start != start_of_handle_.end());
    call.start_call = start->second;
    call.type_index = calls_[start->second].type_index;
    call.state_value = expected_state_value(calls_[start->second].descr.type,
                                            state_has_args(state) ? args : nullptr);
  }
  call.state = static_cast<uint32_t>(state);
  call.state_has_args = args != nullptr && state_has_args(state);
  abi::StateArgs fed{};
  if (args != nullptr) fed = *args;
  const PluginLibrary& lib = lib_;
  call.tid = current_tid();
  call.t_before = realtime_ns();
  const auto record = setup_.api == 4   ? lib.v4->recordEventState
                      : setup_.api == 6 ? lib.v6->recordEventState
                                        : lib.v5->recordEventState;
  const abi::Result result =
      record(handle, static_cast<abi::EventState>(state), args != nullptr ? &fed : nullptr);
  call.t_after = realtime_ns();
  REQUIRE(result == abi::kSuccess);
  log(call);
}

void CommDriver::stop(void* handle) {
  LoggedCall call;
  call.kind = format::kRecordStop;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto start = start_of_handle_.find(handle);
    REQUIRE(start != start_of_handle_.end());
    call.start_call = start->second;
    call.type_index = calls_[start->second].type_index;
  }
  const PluginLibrary& lib = lib_;
  call.tid = current_tid();
  call.t_before = realtime_ns();
  const auto stop = setup_.api == 4   ? lib.v4->stopEvent
                    : setup_.api == 6 ? lib.v6->stopEvent
                                      : lib.v5->stopEvent;
  const abi::Result result = stop(handle);
  call.t_after = realtime_ns();
  REQUIRE(result == abi::kSuccess);
  log(call);
}

void CommDriver::finalize() {
  const PluginLibrary& lib = lib_;
  finalize_before_ = realtime_ns();
  const auto finalize = setup_.api == 4   ? lib.v4->finalize
                        : setup_.api == 6 ? lib.v6->finalize
                                          : lib.v5->finalize;
  const abi::Result result = finalize(context_);
  finalize_after_ = realtime_ns();
  REQUIRE(result == abi::kSuccess);
}

std::vector<LoggedCall> CommDriver::calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_;
}

abi::EventDescrV5 group_api_descr(int group_depth, bool graph_captured) {
  abi::EventDescrV5 d = blank(abi::kGroupApi, nullptr, 0);
  d.groupApi.groupDepth = group_depth;
  d.groupApi.graphCaptured = graph_captured;
  return d;
}

abi::EventDescrV5 coll_api_descr(void* parent, const char* func, size_t count, const char* datatype,
                                 int root, void* stream, bool graph_captured) {
  abi::EventDescrV5 d = blank(abi::kCollApi, parent, 0);
  d.collApi.func = func;
  d.collApi.count = count;
  d.collApi.datatype = datatype;
  d.collApi.root = root;
  d.collApi.stream = stream;
  d.collApi.graphCaptured = graph_captured;
  return d;
}

abi::EventDescrV5 p2p_api_descr(void* parent, const char* func, size_t count, const char* datatype,
                                void* stream, bool graph_captured) {
  abi::EventDescrV5 d = blank(abi::kP2pApi, parent, 0);
  d.p2pApi.func = func;
  d.p2pApi.count = count;
  d.p2pApi.datatype = datatype;
  d.p2pApi.stream = stream;
  d.p2pApi.graphCaptured = graph_captured;
  return d;
}

abi::EventDescrV5 kernel_launch_descr(void* parent, void* stream) {
  abi::EventDescrV5 d = blank(abi::kKernelLaunch, parent, 0);
  d.kernelLaunch.stream = stream;
  return d;
}

abi::EventDescrV5 group_descr() {
  return blank(abi::kGroup, nullptr, 0);
}

abi::EventDescrV5 coll_descr(void* parent, int rank, uint64_t seq, const char* func, size_t count,
                             int root, const char* datatype, uint8_t n_channels, uint8_t n_warps,
                             const char* algo, const char* proto, void* parent_group) {
  abi::EventDescrV5 d = blank(abi::kColl, parent, rank);
  static const char send_buffer[8] = {};
  static char recv_buffer[8] = {};
  d.coll.seqNumber = seq;
  d.coll.func = func;
  d.coll.sendBuff = send_buffer;
  d.coll.recvBuff = recv_buffer;
  d.coll.count = count;
  d.coll.root = root;
  d.coll.datatype = datatype;
  d.coll.nChannels = n_channels;
  d.coll.nWarps = n_warps;
  d.coll.algo = algo;
  d.coll.proto = proto;
  d.coll.parentGroup = parent_group;
  return d;
}

abi::EventDescrV5 p2p_descr(void* parent, int rank, const char* func, size_t count,
                            const char* datatype, int peer, uint8_t n_channels,
                            void* parent_group) {
  abi::EventDescrV5 d = blank(abi::kP2p, parent, rank);
  static char buffer[8] = {};
  d.p2p.func = func;
  d.p2p.buff = buffer;
  d.p2p.datatype = datatype;
  d.p2p.count = count;
  d.p2p.peer = peer;
  d.p2p.nChannels = n_channels;
  d.p2p.parentGroup = parent_group;
  return d;
}

abi::EventDescrV5 proxy_op_descr(void* parent, int rank, pid_t pid, uint8_t channel, int peer,
                                 int n_steps, int chunk_size, int is_send) {
  abi::EventDescrV5 d = blank(abi::kProxyOp, parent, rank);
  d.proxyOp.pid = pid;
  d.proxyOp.channelId = channel;
  d.proxyOp.peer = peer;
  d.proxyOp.nSteps = n_steps;
  d.proxyOp.chunkSize = chunk_size;
  d.proxyOp.isSend = is_send;
  return d;
}

abi::EventDescrV5 proxy_step_descr(void* parent, int rank, int step) {
  abi::EventDescrV5 d = blank(abi::kProxyStep, parent, rank);
  d.proxyStep.step = step;
  return d;
}

abi::EventDescrV5 kernel_ch_descr(void* parent, uint8_t channel, uint64_t gpu_start_ns) {
  abi::EventDescrV5 d = blank(abi::kKernelCh, parent, 0);
  d.kernelCh.channelId = channel;
  d.kernelCh.pTimer = gpu_start_ns;
  return d;
}

abi::EventDescrV5 proxy_ctrl_descr() {
  return blank(abi::kProxyCtrl, nullptr, 0);
}

abi::EventDescrV5 net_plugin_descr(void* parent, int rank, int64_t plugin_id, void* data) {
  abi::EventDescrV5 d = blank(abi::kNetPlugin, parent, rank);
  d.netPlugin.id = plugin_id;
  d.netPlugin.data = data;
  return d;
}

abi::StateArgs trans_size_args(size_t trans_size) {
  abi::StateArgs args = filled_args();
  args.proxyStep.transSize = trans_size;
  return args;
}

abi::StateArgs appended_ops_args(int appended) {
  abi::StateArgs args = filled_args();
  args.proxyCtrl.appendedProxyOps = appended;
  return args;
}

abi::StateArgs kernel_stop_args(uint64_t gpu_stop_ns) {
  abi::StateArgs args = filled_args();
  args.kernelCh.pTimer = gpu_stop_ns;
  return args;
}

abi::StateArgs net_data_args(void* data) {
  abi::StateArgs args = filled_args();
  args.netPlugin.data = data;
  return args;
}

abi::StateArgs zeroed_args() {
  abi::StateArgs args;
  std::memset(static_cast<void*>(&args), 0, sizeof(args));
  return args;
}

}  // namespace npkit::test
