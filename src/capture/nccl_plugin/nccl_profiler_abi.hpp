// nccl_plugin/nccl_profiler_abi.hpp — the NCCL profiler plugin ABI, versions 7 (NCCL 2.31+),
// 6 (NCCL 2.29, 2.30), 5 (NCCL 2.28) and 4 (NCCL 2.27), declared here so the plugin builds without
// NCCL headers.
//
// Contract: every type has the size and member offsets of NCCL's
// src/include/plugin/profiler/profiler_v7.h (NCCL 2.31.2, commit 8898068), profiler_v6.h (NCCL
// 2.30.7), profiler_v5.h and profiler_v4.h (NCCL 2.28.9) on LP64 (x86-64, AArch64); the
// static_asserts below check the sizes and the offsets NCCL's descriptors are known by (v7: every
// member of every descriptor). Names follow NCCL's so the declarations can be
// compared line by line; they live in npkit::nccl_abi so they never clash with a real nccl.h.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace npkit::nccl_abi {

enum ncclResult_t : int { ncclSuccess = 0 };

enum ncclDebugLogLevel : int {
  NCCL_LOG_NONE = 0,
  NCCL_LOG_VERSION = 1,
  NCCL_LOG_WARN = 2,
  NCCL_LOG_INFO = 3,
  NCCL_LOG_ABORT = 4,
  NCCL_LOG_TRACE = 5,
};
// NCCL's debug subsystem flag for initialisation messages.
inline constexpr unsigned long kNcclSubsysInit = 0x1;
inline constexpr unsigned long kNcclSubsysAll = ~0ul;

using ncclDebugLogger_t = void (*)(ncclDebugLogLevel level, unsigned long flags, const char* file,
                                   int line, const char* fmt, ...);

// ---------------------------------------------------------------------------------------------
// Version 5

struct ncclProfilerEventDescr_v5_t {
  uint64_t type;  // one ncclProfile* bit
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
      void const* sendBuff;
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

using ncclProfilerEventState_v5_t = int;  // an int-sized enum in NCCL; values 0..24

union ncclProfilerEventStateArgs_v5_t {
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

struct ncclProfiler_v5_t {
  const char* name;
  ncclResult_t (*init)(void** context, uint64_t commId, int* eActivationMask, const char* commName,
                       int nNodes, int nranks, int rank, ncclDebugLogger_t logfn);
  ncclResult_t (*startEvent)(void* context, void** eHandle, ncclProfilerEventDescr_v5_t* eDescr);
  ncclResult_t (*stopEvent)(void* eHandle);
  ncclResult_t (*recordEventState)(void* eHandle, ncclProfilerEventState_v5_t eState,
                                   ncclProfilerEventStateArgs_v5_t* eStateArgs);
  ncclResult_t (*finalize)(void* context);
};

// ---------------------------------------------------------------------------------------------
// Version 6: the v5 descriptor with three copy-engine members added to its union; same init,
// state numbers and state args as v5. NCCL starts and stops CE events but records no state for
// them (states 25..30 are defined, never sent by NCCL 2.30).

struct ncclProfilerEventDescr_v6_t {
  uint64_t type;
  void* parentObj;
  int rank;
  union {
    // The ten v5 members, at the same offsets (checked below).
    decltype(ncclProfilerEventDescr_v5_t::groupApi) groupApi;
    decltype(ncclProfilerEventDescr_v5_t::collApi) collApi;
    decltype(ncclProfilerEventDescr_v5_t::p2pApi) p2pApi;
    decltype(ncclProfilerEventDescr_v5_t::kernelLaunch) kernelLaunch;
    decltype(ncclProfilerEventDescr_v5_t::coll) coll;
    decltype(ncclProfilerEventDescr_v5_t::p2p) p2p;
    decltype(ncclProfilerEventDescr_v5_t::proxyOp) proxyOp;
    decltype(ncclProfilerEventDescr_v5_t::proxyStep) proxyStep;
    decltype(ncclProfilerEventDescr_v5_t::kernelCh) kernelCh;
    decltype(ncclProfilerEventDescr_v5_t::netPlugin) netPlugin;
    struct {
      uint64_t seqNumber;
      const char* func;
      void const* sendBuff;
      void* recvBuff;
      size_t count;
      int root;
      const char* datatype;
      const char* syncStrategy;  // "MC" or "UC"
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

using ncclProfilerEventState_v6_t = int;                                  // values 0..30
using ncclProfilerEventStateArgs_v6_t = ncclProfilerEventStateArgs_v5_t;  // identical in NCCL

struct ncclProfiler_v6_t {
  const char* name;
  ncclResult_t (*init)(void** context, uint64_t commId, int* eActivationMask, const char* commName,
                       int nNodes, int nranks, int rank, ncclDebugLogger_t logfn);
  ncclResult_t (*startEvent)(void* context, void** eHandle, ncclProfilerEventDescr_v6_t* eDescr);
  ncclResult_t (*stopEvent)(void* eHandle);
  ncclResult_t (*recordEventState)(void* eHandle, ncclProfilerEventState_v6_t eState,
                                   ncclProfilerEventStateArgs_v6_t* eStateArgs);
  ncclResult_t (*finalize)(void* context);
};

// ---------------------------------------------------------------------------------------------
// Version 7 (NCCL 2.31.2): each v6 member keeps its v6 offsets and gains its fields at its end
// (userTag on collApi, p2pApi, coll, p2p and ceColl; kernelVariant and isSymColl on coll), and the
// union gains kernelPhase. The KernelPhase stop (state 31) carries its GPU time in the kernelCh
// member of the state args, whose layout is v6's. Same init and callbacks as v6.

struct ncclProfilerEventDescr_v7_t {
  uint64_t type;
  void* parentObj;
  int rank;
  union {
    decltype(ncclProfilerEventDescr_v5_t::groupApi) groupApi;
    struct {
      const char* func;
      size_t count;
      const char* datatype;
      int root;
      void* stream;
      bool graphCaptured;
      uint64_t userTag;  // ncclCollConfig_t.userProfilerTag of the call; 0 = untagged
    } collApi;
    struct {
      const char* func;
      size_t count;
      const char* datatype;
      void* stream;
      bool graphCaptured;
      uint64_t userTag;
    } p2pApi;
    decltype(ncclProfilerEventDescr_v5_t::kernelLaunch) kernelLaunch;
    struct {
      uint64_t seqNumber;
      const char* func;
      void const* sendBuff;
      void* recvBuff;
      size_t count;
      int root;
      const char* datatype;
      uint8_t nChannels;
      uint8_t nWarps;
      const char* algo;   // symmetric kernels: the variant's algorithm part ("R" of "AGxLL_R")
      const char* proto;  // symmetric kernels: ""
      void* parentGroup;
      const char* kernelVariant;  // symmetric kernels: "AGxLL_R"; NULL otherwise
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
    decltype(ncclProfilerEventDescr_v5_t::proxyOp) proxyOp;
    decltype(ncclProfilerEventDescr_v5_t::proxyStep) proxyStep;
    decltype(ncclProfilerEventDescr_v5_t::kernelCh) kernelCh;
    decltype(ncclProfilerEventDescr_v5_t::netPlugin) netPlugin;
    struct {
      uint64_t seqNumber;
      const char* func;
      void const* sendBuff;
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
    decltype(ncclProfilerEventDescr_v6_t::ceCollSync) ceCollSync;
    decltype(ncclProfilerEventDescr_v6_t::ceCollBatch) ceCollBatch;
    struct {
      uint8_t channelId;
      uint8_t phaseId;        // 0 initial_sync, 1 compute, 2 final_sync
      const char* phaseName;  // "initial_sync", "compute", "final_sync"
      uint64_t pTimer;        // GPU %globaltimer at the phase's start
    } kernelPhase;
  };
};

using ncclProfilerEventState_v7_t = int;                                  // values 0..31
using ncclProfilerEventStateArgs_v7_t = ncclProfilerEventStateArgs_v5_t;  // identical in NCCL

struct ncclProfiler_v7_t {
  const char* name;
  ncclResult_t (*init)(void** context, uint64_t commId, int* eActivationMask, const char* commName,
                       int nNodes, int nranks, int rank, ncclDebugLogger_t logfn);
  ncclResult_t (*startEvent)(void* context, void** eHandle, ncclProfilerEventDescr_v7_t* eDescr);
  ncclResult_t (*stopEvent)(void* eHandle);
  ncclResult_t (*recordEventState)(void* eHandle, ncclProfilerEventState_v7_t eState,
                                   ncclProfilerEventStateArgs_v7_t* eStateArgs);
  ncclResult_t (*finalize)(void* context);
};

// ---------------------------------------------------------------------------------------------
// Version 4: 1-byte type, no API events, no parentGroup.

struct ncclProfilerEventDescr_v4_t {
  uint8_t type;
  void* parentObj;
  int rank;
  union {
    struct {
      uint64_t seqNumber;
      const char* func;
      void const* sendBuff;
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

using ncclProfilerEventState_v4_t = int;
using ncclProfilerEventStateArgs_v4_t = ncclProfilerEventStateArgs_v5_t;  // identical in NCCL

struct ncclProfiler_v4_t {
  const char* name;
  ncclResult_t (*init)(void** context, int* eActivationMask, const char* commName,
                       uint64_t commHash, int nNodes, int nranks, int rank,
                       ncclDebugLogger_t logfn);
  ncclResult_t (*startEvent)(void* context, void** eHandle, ncclProfilerEventDescr_v4_t* eDescr);
  ncclResult_t (*stopEvent)(void* eHandle);
  ncclResult_t (*recordEventState)(void* eHandle, ncclProfilerEventState_v4_t eState,
                                   ncclProfilerEventStateArgs_v4_t* eStateArgs);
  ncclResult_t (*finalize)(void* context);
};

// ---------------------------------------------------------------------------------------------
// Layout checks (reference: NCCL 2.28.9 headers for v4 and v5, NCCL 2.30.7 for v6, NCCL 2.31.2 for
// v7; g++ x86-64).

static_assert(sizeof(ncclResult_t) == sizeof(int));
static_assert(sizeof(ncclProfiler_v5_t) == 48);
static_assert(sizeof(ncclProfiler_v4_t) == 48);
static_assert(sizeof(ncclProfilerEventStateArgs_v5_t) == 8);

using Descr5 = ncclProfilerEventDescr_v5_t;
static_assert(sizeof(Descr5) == 112 && alignof(Descr5) == 8);
static_assert(offsetof(Descr5, parentObj) == 8);
static_assert(offsetof(Descr5, rank) == 16);
static_assert(offsetof(Descr5, groupApi) == 24);
static_assert(offsetof(Descr5, groupApi.groupDepth) == 28);
static_assert(offsetof(Descr5, collApi.count) == 32);
static_assert(offsetof(Descr5, collApi.datatype) == 40);
static_assert(offsetof(Descr5, collApi.root) == 48);
static_assert(offsetof(Descr5, collApi.stream) == 56);
static_assert(offsetof(Descr5, collApi.graphCaptured) == 64);
static_assert(offsetof(Descr5, p2pApi.stream) == 48);
static_assert(offsetof(Descr5, p2pApi.graphCaptured) == 56);
static_assert(offsetof(Descr5, kernelLaunch.stream) == 24);
static_assert(offsetof(Descr5, coll.seqNumber) == 24);
static_assert(offsetof(Descr5, coll.func) == 32);
static_assert(offsetof(Descr5, coll.count) == 56);
static_assert(offsetof(Descr5, coll.root) == 64);
static_assert(offsetof(Descr5, coll.datatype) == 72);
static_assert(offsetof(Descr5, coll.nChannels) == 80);
static_assert(offsetof(Descr5, coll.nWarps) == 81);
static_assert(offsetof(Descr5, coll.algo) == 88);
static_assert(offsetof(Descr5, coll.proto) == 96);
static_assert(offsetof(Descr5, coll.parentGroup) == 104);
static_assert(offsetof(Descr5, p2p.datatype) == 40);
static_assert(offsetof(Descr5, p2p.count) == 48);
static_assert(offsetof(Descr5, p2p.peer) == 56);
static_assert(offsetof(Descr5, p2p.nChannels) == 60);
static_assert(offsetof(Descr5, p2p.parentGroup) == 64);
static_assert(offsetof(Descr5, proxyOp.pid) == 24);
static_assert(offsetof(Descr5, proxyOp.channelId) == 28);
static_assert(offsetof(Descr5, proxyOp.peer) == 32);
static_assert(offsetof(Descr5, proxyOp.nSteps) == 36);
static_assert(offsetof(Descr5, proxyOp.chunkSize) == 40);
static_assert(offsetof(Descr5, proxyOp.isSend) == 44);
static_assert(offsetof(Descr5, proxyStep.step) == 24);
static_assert(offsetof(Descr5, kernelCh.channelId) == 24);
static_assert(offsetof(Descr5, kernelCh.pTimer) == 32);
static_assert(offsetof(Descr5, netPlugin.id) == 24);
static_assert(offsetof(Descr5, netPlugin.data) == 32);

using Descr6 = ncclProfilerEventDescr_v6_t;
static_assert(sizeof(ncclProfiler_v6_t) == 48);
static_assert(sizeof(Descr6) == 112 && alignof(Descr6) == 8);
static_assert(offsetof(Descr6, parentObj) == 8);
static_assert(offsetof(Descr6, rank) == 16);
static_assert(offsetof(Descr6, groupApi) == 24);
static_assert(offsetof(Descr6, collApi.graphCaptured) == 64);
static_assert(offsetof(Descr6, p2pApi.graphCaptured) == 56);
static_assert(offsetof(Descr6, kernelLaunch.stream) == 24);
static_assert(offsetof(Descr6, coll.seqNumber) == 24);
static_assert(offsetof(Descr6, coll.nChannels) == 80);
static_assert(offsetof(Descr6, coll.parentGroup) == 104);
static_assert(offsetof(Descr6, p2p.nChannels) == 60);
static_assert(offsetof(Descr6, p2p.parentGroup) == 64);
static_assert(offsetof(Descr6, proxyOp.isSend) == 44);
static_assert(offsetof(Descr6, proxyStep.step) == 24);
static_assert(offsetof(Descr6, kernelCh.pTimer) == 32);
static_assert(offsetof(Descr6, netPlugin.data) == 32);
static_assert(offsetof(Descr6, ceColl.seqNumber) == 24);
static_assert(offsetof(Descr6, ceColl.func) == 32);
static_assert(offsetof(Descr6, ceColl.sendBuff) == 40);
static_assert(offsetof(Descr6, ceColl.recvBuff) == 48);
static_assert(offsetof(Descr6, ceColl.count) == 56);
static_assert(offsetof(Descr6, ceColl.root) == 64);
static_assert(offsetof(Descr6, ceColl.datatype) == 72);
static_assert(offsetof(Descr6, ceColl.syncStrategy) == 80);
static_assert(offsetof(Descr6, ceColl.intraBatchSync) == 88);
static_assert(offsetof(Descr6, ceColl.batchSize) == 92);
static_assert(offsetof(Descr6, ceColl.numBatches) == 96);
static_assert(offsetof(Descr6, ceColl.ceSeqNum) == 100);
static_assert(offsetof(Descr6, ceColl.stream) == 104);
static_assert(offsetof(Descr6, ceCollSync.isComplete) == 24);
static_assert(offsetof(Descr6, ceCollSync.nRanks) == 28);
static_assert(offsetof(Descr6, ceCollBatch.numOps) == 24);
static_assert(offsetof(Descr6, ceCollBatch.totalBytes) == 32);
static_assert(offsetof(Descr6, ceCollBatch.useIntraSync) == 40);

// Every member of the v7 descriptor (NCCL 2.31.2 profiler_v7.h, computed by hand from its
// declaration order on LP64: 8-byte pointers, size_t and uint64_t aligned to 8, int to 4).
using Descr7 = ncclProfilerEventDescr_v7_t;
static_assert(sizeof(ncclProfiler_v7_t) == 48);
static_assert(sizeof(ncclProfilerEventStateArgs_v7_t) == 8);
static_assert(sizeof(Descr7) == 136 && alignof(Descr7) == 8);
static_assert(offsetof(Descr7, type) == 0);
static_assert(offsetof(Descr7, parentObj) == 8);
static_assert(offsetof(Descr7, rank) == 16);
static_assert(offsetof(Descr7, groupApi.graphCaptured) == 24);
static_assert(offsetof(Descr7, groupApi.groupDepth) == 28);
static_assert(offsetof(Descr7, collApi.func) == 24);
static_assert(offsetof(Descr7, collApi.count) == 32);
static_assert(offsetof(Descr7, collApi.datatype) == 40);
static_assert(offsetof(Descr7, collApi.root) == 48);
static_assert(offsetof(Descr7, collApi.stream) == 56);
static_assert(offsetof(Descr7, collApi.graphCaptured) == 64);
static_assert(offsetof(Descr7, collApi.userTag) == 72);
static_assert(offsetof(Descr7, p2pApi.func) == 24);
static_assert(offsetof(Descr7, p2pApi.count) == 32);
static_assert(offsetof(Descr7, p2pApi.datatype) == 40);
static_assert(offsetof(Descr7, p2pApi.stream) == 48);
static_assert(offsetof(Descr7, p2pApi.graphCaptured) == 56);
static_assert(offsetof(Descr7, p2pApi.userTag) == 64);
static_assert(offsetof(Descr7, kernelLaunch.stream) == 24);
static_assert(offsetof(Descr7, coll.seqNumber) == 24);
static_assert(offsetof(Descr7, coll.func) == 32);
static_assert(offsetof(Descr7, coll.sendBuff) == 40);
static_assert(offsetof(Descr7, coll.recvBuff) == 48);
static_assert(offsetof(Descr7, coll.count) == 56);
static_assert(offsetof(Descr7, coll.root) == 64);
static_assert(offsetof(Descr7, coll.datatype) == 72);
static_assert(offsetof(Descr7, coll.nChannels) == 80);
static_assert(offsetof(Descr7, coll.nWarps) == 81);
static_assert(offsetof(Descr7, coll.algo) == 88);
static_assert(offsetof(Descr7, coll.proto) == 96);
static_assert(offsetof(Descr7, coll.parentGroup) == 104);
static_assert(offsetof(Descr7, coll.kernelVariant) == 112);
static_assert(offsetof(Descr7, coll.isSymColl) == 120);
static_assert(offsetof(Descr7, coll.userTag) == 128);
static_assert(offsetof(Descr7, p2p.func) == 24);
static_assert(offsetof(Descr7, p2p.buff) == 32);
static_assert(offsetof(Descr7, p2p.datatype) == 40);
static_assert(offsetof(Descr7, p2p.count) == 48);
static_assert(offsetof(Descr7, p2p.peer) == 56);
static_assert(offsetof(Descr7, p2p.nChannels) == 60);
static_assert(offsetof(Descr7, p2p.parentGroup) == 64);
static_assert(offsetof(Descr7, p2p.userTag) == 72);
static_assert(offsetof(Descr7, proxyOp.pid) == 24);
static_assert(offsetof(Descr7, proxyOp.channelId) == 28);
static_assert(offsetof(Descr7, proxyOp.peer) == 32);
static_assert(offsetof(Descr7, proxyOp.nSteps) == 36);
static_assert(offsetof(Descr7, proxyOp.chunkSize) == 40);
static_assert(offsetof(Descr7, proxyOp.isSend) == 44);
static_assert(offsetof(Descr7, proxyStep.step) == 24);
static_assert(offsetof(Descr7, kernelCh.channelId) == 24);
static_assert(offsetof(Descr7, kernelCh.pTimer) == 32);
static_assert(offsetof(Descr7, netPlugin.id) == 24);
static_assert(offsetof(Descr7, netPlugin.data) == 32);
static_assert(offsetof(Descr7, ceColl.seqNumber) == 24);
static_assert(offsetof(Descr7, ceColl.func) == 32);
static_assert(offsetof(Descr7, ceColl.sendBuff) == 40);
static_assert(offsetof(Descr7, ceColl.recvBuff) == 48);
static_assert(offsetof(Descr7, ceColl.count) == 56);
static_assert(offsetof(Descr7, ceColl.root) == 64);
static_assert(offsetof(Descr7, ceColl.datatype) == 72);
static_assert(offsetof(Descr7, ceColl.syncStrategy) == 80);
static_assert(offsetof(Descr7, ceColl.intraBatchSync) == 88);
static_assert(offsetof(Descr7, ceColl.batchSize) == 92);
static_assert(offsetof(Descr7, ceColl.numBatches) == 96);
static_assert(offsetof(Descr7, ceColl.ceSeqNum) == 100);
static_assert(offsetof(Descr7, ceColl.stream) == 104);
static_assert(offsetof(Descr7, ceColl.userTag) == 112);
static_assert(offsetof(Descr7, ceCollSync.isComplete) == 24);
static_assert(offsetof(Descr7, ceCollSync.nRanks) == 28);
static_assert(offsetof(Descr7, ceCollBatch.numOps) == 24);
static_assert(offsetof(Descr7, ceCollBatch.totalBytes) == 32);
static_assert(offsetof(Descr7, ceCollBatch.useIntraSync) == 40);
static_assert(offsetof(Descr7, kernelPhase.channelId) == 24);
static_assert(offsetof(Descr7, kernelPhase.phaseId) == 25);
static_assert(offsetof(Descr7, kernelPhase.phaseName) == 32);
static_assert(offsetof(Descr7, kernelPhase.pTimer) == 40);

using Descr4 = ncclProfilerEventDescr_v4_t;
static_assert(sizeof(Descr4) == 104 && alignof(Descr4) == 8);
static_assert(offsetof(Descr4, parentObj) == 8);
static_assert(offsetof(Descr4, rank) == 16);
static_assert(offsetof(Descr4, coll.seqNumber) == 24);
static_assert(offsetof(Descr4, coll.proto) == 96);
static_assert(offsetof(Descr4, p2p.nChannels) == 60);
static_assert(offsetof(Descr4, proxyOp.isSend) == 44);
static_assert(offsetof(Descr4, kernelCh.pTimer) == 32);
static_assert(offsetof(Descr4, netPlugin.data) == 32);

}  // namespace npkit::nccl_abi
