#include "capture/plugin/v7_driver.hpp"

#include <cstring>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "npkit/format.hpp"

namespace npkit::test {
namespace {

void* fake_pointer(uintptr_t value) {
  return reinterpret_cast<void*>(value);
}

// profilerPhaseNames of NCCL 2.31.2's src/plugin/profiler.cc.
constexpr const char* kPhaseNames[] = {"initial_sync", "compute", "final_sync"};

}  // namespace

abi::EventDescrV7 v7_descr(uint64_t type, void* parent, int rank) {
  abi::EventDescrV7 d;
  std::memset(static_cast<void*>(&d), 0, sizeof(d));
  d.type = type;
  d.parentObj = parent;
  d.rank = rank;
  return d;
}

V7Comm::V7Comm(uint64_t comm_hash, int rank, int nranks, const char* comm_name)
    : lib_(require_plugin()), rank_(rank) {
  REQUIRE(lib_.v7->init(&context_, comm_hash, &mask_, comm_name, 1, nranks, rank, capture_log) ==
          abi::kSuccess);
  REQUIRE(context_ != nullptr);
}

void* V7Comm::start(abi::EventDescrV7 descr) {
  void* handle = nullptr;
  REQUIRE(lib_.v7->startEvent(context_, &handle, &descr) == abi::kSuccess);
  return handle;
}

void V7Comm::state(void* handle, int state, abi::StateArgs* args) {
  REQUIRE(lib_.v7->recordEventState(handle, static_cast<abi::EventState>(state), args) ==
          abi::kSuccess);
}

void V7Comm::stop(void* handle) {
  REQUIRE(lib_.v7->stopEvent(handle) == abi::kSuccess);
}

void V7Comm::finalize() {
  REQUIRE(lib_.v7->finalize(context_) == abi::kSuccess);
}

void* enqueue_v7_call(V7Comm& comm, const V7Call& call) {
  const int rank = comm.rank();
  abi::EventDescrV7 group_api = v7_descr(abi::kGroupApi, nullptr, 0);
  group_api.groupApi.groupDepth = 1;
  void* group_api_handle = comm.start(group_api);
  comm.state(group_api_handle, format::kStateGroupStartApiStop, nullptr);

  abi::EventDescrV7 coll_api = v7_descr(abi::kCollApi, group_api_handle, 0);
  coll_api.collApi.func = call.func;
  coll_api.collApi.count = call.count;
  coll_api.collApi.datatype = call.datatype;
  coll_api.collApi.root = 0;
  coll_api.collApi.stream = fake_pointer(0x7000);
  coll_api.collApi.userTag = call.tag;
  void* coll_api_handle = comm.start(coll_api);
  comm.stop(coll_api_handle);
  comm.state(group_api_handle, format::kStateGroupEndApiStart, nullptr);

  abi::EventDescrV7 launch = v7_descr(abi::kKernelLaunch, group_api_handle, 0);
  launch.kernelLaunch.stream = fake_pointer(0x7000);
  comm.stop(comm.start(launch));

  void* group = comm.start(v7_descr(abi::kGroup, nullptr, 0));
  abi::EventDescrV7 coll = v7_descr(abi::kColl, coll_api_handle, rank);
  coll.coll.parentGroup = group;
  coll.coll.seqNumber = call.seq;
  coll.coll.func = call.func;
  coll.coll.sendBuff = fake_pointer(0x7f0000000000);
  coll.coll.recvBuff = fake_pointer(0x7f0000800000);
  coll.coll.count = call.count;
  coll.coll.root = 0;
  coll.coll.datatype = call.datatype;
  coll.coll.nChannels = call.channels;
  coll.coll.nWarps = 16;
  if (call.sym_variant != nullptr) {
    const char* underscore = std::strchr(call.sym_variant, '_');
    coll.coll.isSymColl = true;
    coll.coll.kernelVariant = call.sym_variant;
    coll.coll.algo = underscore != nullptr ? underscore + 1 : call.sym_variant;
    coll.coll.proto = "";
  } else {
    coll.coll.algo = call.algo;
    coll.coll.proto = call.proto;
  }
  coll.coll.userTag = call.tag;
  void* coll_handle = comm.start(coll);
  comm.stop(coll_handle);
  comm.stop(group);
  comm.stop(group_api_handle);
  return coll_handle;
}

void run_kernel_channel(V7Comm& comm, void* task, const ChannelStamps& stamps) {
  abi::EventDescrV7 kernel = v7_descr(abi::kKernelCh, task, 0);
  kernel.kernelCh.channelId = stamps.channel;
  kernel.kernelCh.pTimer = stamps.begin;
  void* kernel_handle = comm.start(kernel);

  uint64_t ts[4] = {stamps.begin, stamps.after_open, stamps.before_close, stamps.end};
  if (ts[1] != 0 || ts[2] != 0) {
    if (ts[1] == 0 && ts[0] != 0) ts[1] = ts[0];
    if (ts[2] == 0 && ts[3] != 0) ts[2] = ts[3];
    for (int i = 0; i < 3; ++i) {
      if (ts[i] == 0 || ts[i + 1] == 0 || ts[i] == ts[i + 1]) continue;
      abi::EventDescrV7 phase = v7_descr(abi::kKernelPhase, kernel_handle, 0);
      phase.kernelPhase.channelId = stamps.channel;
      phase.kernelPhase.phaseId = static_cast<uint8_t>(i);
      phase.kernelPhase.phaseName = kPhaseNames[i];
      phase.kernelPhase.pTimer = ts[i];
      void* phase_handle = comm.start(phase);
      if (phase_handle == nullptr) continue;
      abi::StateArgs stop{};
      stop.kernelCh.pTimer = ts[i + 1];
      comm.state(phase_handle, abi::kStateKernelPhaseStop, &stop);
      comm.stop(phase_handle);
    }
  }
  if (kernel_handle == nullptr) return;
  abi::StateArgs stop{};
  stop.kernelCh.pTimer = stamps.end;
  comm.state(kernel_handle, format::kStateKernelChStop, &stop);
  comm.stop(kernel_handle);
}

}  // namespace npkit::test
