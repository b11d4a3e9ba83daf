// nccl_abi_for_tests.hpp — the NCCL profiler plugin ABI (NCCL 2.28.9: API v5, and the v4 fallback;
// NCCL 2.30.7: API v6; NCCL 2.31.2: API v7), declared independently of the plugin's own header so
// that driving the built library through dlopen also cross-checks the plugin's declaration of the
// same layouts.
//
// Contract:
// - Layouts follow the NCCL profiler reference (sections 2.1, 2.5, 2.7, 2.8): every size and every
//   offset the reference lists is static_asserted below (x86-64, g++/clang).
// - Only types: nothing here calls the plugin. The exported objects are data symbols named
//   ncclProfiler_v7 / ncclProfiler_v6 / ncclProfiler_v5 / ncclProfiler_v4 whose types are
//   ProfilerV7 / ProfilerV6 / ProfilerV5 / ProfilerV4. The v6 layout is NCCL 2.30.7's
//   src/include/plugin/profiler/profiler_v6.h: the v5 union plus ceColl, ceCollSync and
//   ceCollBatch. The v7 layout is NCCL 2.31.2's profiler_v7.h (commit 8898068): userTag appended
//   to collApi, p2pApi, coll, p2p and ceColl, kernelVariant and isSymColl to coll, and kernelPhase;
//   every offset of it is checked in plugin_v7_abi_test.cpp against numbers worked out by hand.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace npkit::test::abi {

enum Result : int { kSuccess = 0 };

// ncclDebugLogLevel values.
enum LogLevel : int {
  kLogNone = 0,
  kLogVersion = 1,
  kLogWarn = 2,
  kLogInfo = 3,
  kLogAbort = 4,
  kLogTrace = 5,
};

using DebugLogger = void (*)(LogLevel level, unsigned long subsys_flags, const char* file, int line,
                             const char* fmt, ...);

// Event type bits (reference 2.4).
enum EventBit : uint64_t {
  kGroup = 1u << 0,
  kColl = 1u << 1,
  kP2p = 1u << 2,
  kProxyOp = 1u << 3,
  kProxyStep = 1u << 4,
  kProxyCtrl = 1u << 5,
  kKernelCh = 1u << 6,
  kNetPlugin = 1u << 7,
  kGroupApi = 1u << 8,
  kCollApi = 1u << 9,
  kP2pApi = 1u << 10,
  kKernelLaunch = 1u << 11,
  kCeColl = 1u << 12,
  kCeSync = 1u << 13,
  kCeBatch = 1u << 14,
  kKernelPhase = 1u << 15,
};
inline constexpr uint64_t kAllV5Events = 4095;
inline constexpr uint64_t kAllV6Events = 32767;
inline constexpr uint64_t kAllV7Events = 65535;
// ncclProfilerKernelPhaseStop (NCCL 2.31.2 nccl_profiler.h).
inline constexpr int kStateKernelPhaseStop = 31;

// ncclProfilerEventDescr_v5_t (reference 2.5).
struct EventDescrV5 {
  uint64_t type;
  void* parentObj;
  int rank;
  union {
    struct {
      bool graphCaptured;
      int groupDepth;
    } groupApi;
    struct {
      const char* func;
      size_t count;
      const char* datatype;
      int root;
      void* stream;
      bool graphCaptured;
    } collApi;
    struct {
      const char* func;
      size_t count;
      const char* datatype;
      void* stream;
      bool graphCaptured;
    } p2pApi;
    struct {
      void* stream;
    } kernelLaunch;
    struct {
      uint64_t seqNumber;
      const char* func;
      const void* sendBuff;
      void* recvBuff;
      size_t count;
      int root;
      const char* datatype;
      uint8_t nChannels;
      uint8_t nWarps;
      const char* algo;
      const char* proto;
      void* parentGroup;
    } coll;
    struct {
      const char* func;
      void* buff;
      const char* datatype;
      size_t count;
      int peer;
      uint8_t nChannels;
      void* parentGroup;
    } p2p;
    struct {
      pid_t pid;
      uint8_t channelId;
      int peer;
      int nSteps;
      int chunkSize;
      int isSend;
    } proxyOp;
    struct {
      int step;
    } proxyStep;
    struct {
      uint8_t channelId;
      uint64_t pTimer;
    } kernelCh;
    struct {
      int64_t id;
      void* data;
    } netPlugin;
  };
};

// ncclProfilerEventDescr_v6_t (NCCL 2.30.7): the v5 members at the v5 offsets, and three more.
struct EventDescrV6 {
  uint64_t type;
  void* parentObj;
  int rank;
  union {
    struct {
      bool graphCaptured;
      int groupDepth;
    } groupApi;
    struct {
      const char* func;
      size_t count;
      const char* datatype;
      int root;
      void* stream;
      bool graphCaptured;
    } collApi;
    struct {
      const char* func;
      size_t count;
      const char* datatype;
      void* stream;
      bool graphCaptured;
    } p2pApi;
    struct {
      void* stream;
    } kernelLaunch;
    struct {
      uint64_t seqNumber;
      const char* func;
      const void* sendBuff;
      void* recvBuff;
      size_t count;
      int root;
      const char* datatype;
      uint8_t nChannels;
      uint8_t nWarps;
      const char* algo;
      const char* proto;
      void* parentGroup;
    } coll;
    struct {
      const char* func;
      void* buff;
      const char* datatype;
      size_t count;
      int peer;
      uint8_t nChannels;
      void* parentGroup;
    } p2p;
    struct {
      pid_t pid;
      uint8_t channelId;
      int peer;
      int nSteps;
      int chunkSize;
      int isSend;
    } proxyOp;
    struct {
      int step;
    } proxyStep;
    struct {
      uint8_t channelId;
      uint64_t pTimer;
    } kernelCh;
    struct {
      int64_t id;
      void* data;
    } netPlugin;
    struct {
      uint64_t seqNumber;
      const char* func;
      const void* sendBuff;
      void* recvBuff;
      size_t count;
      int root;
      const char* datatype;
      const char* syncStrategy;
      bool intraBatchSync;
      uint32_t batchSize;
      uint32_t numBatches;
      uint32_t ceSeqNum;
      void* stream;
    } ceColl;
    struct {
      bool isComplete;
      int nRanks;
    } ceCollSync;
    struct {
      int numOps;
      size_t totalBytes;
      bool useIntraSync;
    } ceCollBatch;
  };
};

// ncclProfilerEventDescr_v7_t (NCCL 2.31.2): the v6 members, each with v7's fields appended.
struct EventDescrV7 {
  uint64_t type;
  void* parentObj;
  int rank;
  union {
    struct {
      bool graphCaptured;
      int groupDepth;
    } groupApi;
    struct {
      const char* func;
      size_t count;
      const char* datatype;
      int root;
      void* stream;
      bool graphCaptured;
      uint64_t userTag;
    } collApi;
    struct {
      const char* func;
      size_t count;
      const char* datatype;
      void* stream;
      bool graphCaptured;
      uint64_t userTag;
    } p2pApi;
    struct {
      void* stream;
    } kernelLaunch;
    struct {
      uint64_t seqNumber;
      const char* func;
      const void* sendBuff;
      void* recvBuff;
      size_t count;
      int root;
      const char* datatype;
      uint8_t nChannels;
      uint8_t nWarps;
      const char* algo;
      const char* proto;
      void* parentGroup;
      const char* kernelVariant;
      bool isSymColl;
      uint64_t userTag;
    } coll;
    struct {
      const char* func;
      void* buff;
      const char* datatype;
      size_t count;
      int peer;
      uint8_t nChannels;
      void* parentGroup;
      uint64_t userTag;
    } p2p;
    struct {
      pid_t pid;
      uint8_t channelId;
      int peer;
      int nSteps;
      int chunkSize;
      int isSend;
    } proxyOp;
    struct {
      int step;
    } proxyStep;
    struct {
      uint8_t channelId;
      uint64_t pTimer;
    } kernelCh;
    struct {
      int64_t id;
      void* data;
    } netPlugin;
    struct {
      uint64_t seqNumber;
      const char* func;
      const void* sendBuff;
      void* recvBuff;
      size_t count;
      int root;
      const char* datatype;
      const char* syncStrategy;
      bool intraBatchSync;
      uint32_t batchSize;
      uint32_t numBatches;
      uint32_t ceSeqNum;
      void* stream;
      uint64_t userTag;
    } ceColl;
    struct {
      bool isComplete;
      int nRanks;
    } ceCollSync;
    struct {
      int numOps;
      size_t totalBytes;
      bool useIntraSync;
    } ceCollBatch;
    struct {
      uint8_t channelId;
      uint8_t phaseId;
      const char* phaseName;
      uint64_t pTimer;
    } kernelPhase;
  };
};

// ncclProfilerEventDescr_v4_t (reference 2.8): 1-byte type, no API events, no parentGroup.
struct EventDescrV4 {
  uint8_t type;
  void* parentObj;
  int rank;
  union {
    struct {
      uint64_t seqNumber;
      const char* func;
      const void* sendBuff;
      void* recvBuff;
      size_t count;
      int root;
      const char* datatype;
      uint8_t nChannels;
      uint8_t nWarps;
      const char* algo;
      const char* proto;
    } coll;
    struct {
      const char* func;
      void* buff;
      const char* datatype;
      size_t count;
      int peer;
      uint8_t nChannels;
    } p2p;
    struct {
      pid_t pid;
      uint8_t channelId;
      int peer;
      int nSteps;
      int chunkSize;
      int isSend;
    } proxyOp;
    struct {
      int step;
    } proxyStep;
    struct {
      uint8_t channelId;
      uint64_t pTimer;
    } kernelCh;
    struct {
      int64_t id;
      void* data;
    } netPlugin;
  };
};

// ncclProfilerEventStateArgs_v5_t / _v4_t (reference 2.7): every member at offset 0.
union StateArgs {
  struct {
    size_t transSize;
  } proxyStep;
  struct {
    int appendedProxyOps;
  } proxyCtrl;
  struct {
    void* data;
  } netPlugin;
  struct {
    uint64_t pTimer;
  } kernelCh;
};

// ncclProfilerEventState_v5_t: an int-sized enum; the tests pass the numbers of reference 2.6.
enum EventState : int {};

// ncclProfiler_v5_t (reference 2.1).
struct ProfilerV5 {
  const char* name;
  Result (*init)(void** context, uint64_t commId, int* eActivationMask, const char* commName,
                 int nNodes, int nranks, int rank, DebugLogger logfn);
  Result (*startEvent)(void* context, void** eHandle, EventDescrV5* eDescr);
  Result (*stopEvent)(void* eHandle);
  Result (*recordEventState)(void* eHandle, EventState eState, StateArgs* eStateArgs);
  Result (*finalize)(void* context);
};

// ncclProfiler_v6_t (NCCL 2.30.7): v5's functions with the v6 descriptor.
struct ProfilerV6 {
  const char* name;
  Result (*init)(void** context, uint64_t commId, int* eActivationMask, const char* commName,
                 int nNodes, int nranks, int rank, DebugLogger logfn);
  Result (*startEvent)(void* context, void** eHandle, EventDescrV6* eDescr);
  Result (*stopEvent)(void* eHandle);
  Result (*recordEventState)(void* eHandle, EventState eState, StateArgs* eStateArgs);
  Result (*finalize)(void* context);
};

// ncclProfiler_v7_t (NCCL 2.31.2): v6's functions with the v7 descriptor; the state args keep
// their v6 layout (KernelPhaseStop carries its time in kernelCh.pTimer).
struct ProfilerV7 {
  const char* name;
  Result (*init)(void** context, uint64_t commId, int* eActivationMask, const char* commName,
                 int nNodes, int nranks, int rank, DebugLogger logfn);
  Result (*startEvent)(void* context, void** eHandle, EventDescrV7* eDescr);
  Result (*stopEvent)(void* eHandle);
  Result (*recordEventState)(void* eHandle, EventState eState, StateArgs* eStateArgs);
  Result (*finalize)(void* context);
};

// ncclProfiler_v4_t (reference 2.8): init takes the mask first and the comm hash fourth.
struct ProfilerV4 {
  const char* name;
  Result (*init)(void** context, int* eActivationMask, const char* commName, uint64_t commHash,
                 int nNodes, int nranks, int rank, DebugLogger logfn);
  Result (*startEvent)(void* context, void** eHandle, EventDescrV4* eDescr);
  Result (*stopEvent)(void* eHandle);
  Result (*recordEventState)(void* eHandle, EventState eState, StateArgs* eStateArgs);
  Result (*finalize)(void* context);
};

using FlushFunction = int (*)();

static_assert(sizeof(Result) == 4);
static_assert(sizeof(EventState) == 4);
static_assert(sizeof(ProfilerV5) == 48);
static_assert(sizeof(ProfilerV4) == 48);
static_assert(sizeof(ProfilerV6) == 48);
static_assert(sizeof(ProfilerV7) == 48);
static_assert(sizeof(EventDescrV7) == 136 && alignof(EventDescrV7) == 8);

static_assert(sizeof(EventDescrV6) == 112 && alignof(EventDescrV6) == 8);
static_assert(offsetof(EventDescrV6, coll.parentGroup) == 104);
static_assert(offsetof(EventDescrV6, p2p.parentGroup) == 64);
static_assert(offsetof(EventDescrV6, ceColl.seqNumber) == 24);
static_assert(offsetof(EventDescrV6, ceColl.func) == 32);
static_assert(offsetof(EventDescrV6, ceColl.sendBuff) == 40);
static_assert(offsetof(EventDescrV6, ceColl.recvBuff) == 48);
static_assert(offsetof(EventDescrV6, ceColl.count) == 56);
static_assert(offsetof(EventDescrV6, ceColl.root) == 64);
static_assert(offsetof(EventDescrV6, ceColl.datatype) == 72);
static_assert(offsetof(EventDescrV6, ceColl.syncStrategy) == 80);
static_assert(offsetof(EventDescrV6, ceColl.intraBatchSync) == 88);
static_assert(offsetof(EventDescrV6, ceColl.batchSize) == 92);
static_assert(offsetof(EventDescrV6, ceColl.numBatches) == 96);
static_assert(offsetof(EventDescrV6, ceColl.ceSeqNum) == 100);
static_assert(offsetof(EventDescrV6, ceColl.stream) == 104);
static_assert(offsetof(EventDescrV6, ceCollSync.isComplete) == 24);
static_assert(offsetof(EventDescrV6, ceCollSync.nRanks) == 28);
static_assert(offsetof(EventDescrV6, ceCollBatch.numOps) == 24);
static_assert(offsetof(EventDescrV6, ceCollBatch.totalBytes) == 32);
static_assert(offsetof(EventDescrV6, ceCollBatch.useIntraSync) == 40);
static_assert(sizeof(StateArgs) == 8);

static_assert(sizeof(EventDescrV5) == 112 && alignof(EventDescrV5) == 8);
static_assert(offsetof(EventDescrV5, parentObj) == 8);
static_assert(offsetof(EventDescrV5, rank) == 16);
static_assert(offsetof(EventDescrV5, groupApi.graphCaptured) == 24);
static_assert(offsetof(EventDescrV5, groupApi.groupDepth) == 28);
static_assert(offsetof(EventDescrV5, collApi.func) == 24);
static_assert(offsetof(EventDescrV5, collApi.count) == 32);
static_assert(offsetof(EventDescrV5, collApi.datatype) == 40);
static_assert(offsetof(EventDescrV5, collApi.root) == 48);
static_assert(offsetof(EventDescrV5, collApi.stream) == 56);
static_assert(offsetof(EventDescrV5, collApi.graphCaptured) == 64);
static_assert(offsetof(EventDescrV5, p2pApi.func) == 24);
static_assert(offsetof(EventDescrV5, p2pApi.count) == 32);
static_assert(offsetof(EventDescrV5, p2pApi.datatype) == 40);
static_assert(offsetof(EventDescrV5, p2pApi.stream) == 48);
static_assert(offsetof(EventDescrV5, p2pApi.graphCaptured) == 56);
static_assert(offsetof(EventDescrV5, kernelLaunch.stream) == 24);
static_assert(offsetof(EventDescrV5, coll.seqNumber) == 24);
static_assert(offsetof(EventDescrV5, coll.func) == 32);
static_assert(offsetof(EventDescrV5, coll.sendBuff) == 40);
static_assert(offsetof(EventDescrV5, coll.recvBuff) == 48);
static_assert(offsetof(EventDescrV5, coll.count) == 56);
static_assert(offsetof(EventDescrV5, coll.root) == 64);
static_assert(offsetof(EventDescrV5, coll.datatype) == 72);
static_assert(offsetof(EventDescrV5, coll.nChannels) == 80);
static_assert(offsetof(EventDescrV5, coll.nWarps) == 81);
static_assert(offsetof(EventDescrV5, coll.algo) == 88);
static_assert(offsetof(EventDescrV5, coll.proto) == 96);
static_assert(offsetof(EventDescrV5, coll.parentGroup) == 104);
static_assert(offsetof(EventDescrV5, p2p.func) == 24);
static_assert(offsetof(EventDescrV5, p2p.buff) == 32);
static_assert(offsetof(EventDescrV5, p2p.datatype) == 40);
static_assert(offsetof(EventDescrV5, p2p.count) == 48);
static_assert(offsetof(EventDescrV5, p2p.peer) == 56);
static_assert(offsetof(EventDescrV5, p2p.nChannels) == 60);
static_assert(offsetof(EventDescrV5, p2p.parentGroup) == 64);
static_assert(offsetof(EventDescrV5, proxyOp.pid) == 24);
static_assert(offsetof(EventDescrV5, proxyOp.channelId) == 28);
static_assert(offsetof(EventDescrV5, proxyOp.peer) == 32);
static_assert(offsetof(EventDescrV5, proxyOp.nSteps) == 36);
static_assert(offsetof(EventDescrV5, proxyOp.chunkSize) == 40);
static_assert(offsetof(EventDescrV5, proxyOp.isSend) == 44);
static_assert(offsetof(EventDescrV5, proxyStep.step) == 24);
static_assert(offsetof(EventDescrV5, kernelCh.channelId) == 24);
static_assert(offsetof(EventDescrV5, kernelCh.pTimer) == 32);
static_assert(offsetof(EventDescrV5, netPlugin.id) == 24);
static_assert(offsetof(EventDescrV5, netPlugin.data) == 32);

static_assert(sizeof(EventDescrV4) == 104 && alignof(EventDescrV4) == 8);
static_assert(offsetof(EventDescrV4, parentObj) == 8);
static_assert(offsetof(EventDescrV4, rank) == 16);
static_assert(offsetof(EventDescrV4, coll.seqNumber) == 24);
static_assert(offsetof(EventDescrV4, coll.proto) == 96);
static_assert(offsetof(EventDescrV4, p2p.nChannels) == 60);
static_assert(offsetof(EventDescrV4, proxyOp.isSend) == 44);
static_assert(offsetof(EventDescrV4, kernelCh.pTimer) == 32);
static_assert(offsetof(EventDescrV4, netPlugin.data) == 32);

}  // namespace npkit::test::abi
