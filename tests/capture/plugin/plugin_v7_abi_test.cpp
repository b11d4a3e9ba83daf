// NCCL profiler API v7 (NCCL 2.31.2, src/include/plugin/profiler/profiler_v7.h at commit 8898068):
// every member of the v7 event descriptor, the state args and the plugin table, in the plugin's
// declaration (nccl_plugin/nccl_profiler_abi.hpp) and the tests' own (nccl_abi_for_tests.hpp),
// against the offsets worked out by hand from the header's declaration order on LP64 (pointers,
// size_t and uint64_t 8 bytes aligned to 8, int 4 aligned to 4, bool and uint8_t 1): the
// descriptor's union starts at 24 (type 0, parentObj 8, rank 16 + 4 bytes of padding), and each
// member below is listed with its own arithmetic.
#include <cstddef>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/nccl_abi_for_tests.hpp"
#include "nccl_plugin/nccl_profiler_abi.hpp"

namespace npkit::test {
namespace {

struct Field {
  std::string name;
  std::size_t plugin;  // offsetof in the plugin's declaration
  std::size_t tests;   // offsetof in the tests' declaration
  std::size_t header;  // from the header, by hand
};

#define NPKIT_V7_FIELD(member, at)                                    \
  Field {                                                             \
#member, offsetof(nccl_abi::ncclProfilerEventDescr_v7_t, member), \
        offsetof(abi::EventDescrV7, member), at                       \
  }

TEST_CASE("plugin v7 ABI: every descriptor member at NCCL 2.31.2's offset", "[plugin]") {
  const std::vector<Field> fields = {
      NPKIT_V7_FIELD(type, 0),
      NPKIT_V7_FIELD(parentObj, 8),
      NPKIT_V7_FIELD(rank, 16),
      // groupApi {bool graphCaptured; int groupDepth}: 24, int aligned to 28.
      NPKIT_V7_FIELD(groupApi.graphCaptured, 24),
      NPKIT_V7_FIELD(groupApi.groupDepth, 28),
      // collApi: func 24, count 32, datatype 40, root 48 (+4 padding), stream 56,
      // graphCaptured 64 (+7), userTag 72.
      NPKIT_V7_FIELD(collApi.func, 24),
      NPKIT_V7_FIELD(collApi.count, 32),
      NPKIT_V7_FIELD(collApi.datatype, 40),
      NPKIT_V7_FIELD(collApi.root, 48),
      NPKIT_V7_FIELD(collApi.stream, 56),
      NPKIT_V7_FIELD(collApi.graphCaptured, 64),
      NPKIT_V7_FIELD(collApi.userTag, 72),
      // p2pApi: func 24, count 32, datatype 40, stream 48, graphCaptured 56 (+7), userTag 64.
      NPKIT_V7_FIELD(p2pApi.func, 24),
      NPKIT_V7_FIELD(p2pApi.count, 32),
      NPKIT_V7_FIELD(p2pApi.datatype, 40),
      NPKIT_V7_FIELD(p2pApi.stream, 48),
      NPKIT_V7_FIELD(p2pApi.graphCaptured, 56),
      NPKIT_V7_FIELD(p2pApi.userTag, 64),
      NPKIT_V7_FIELD(kernelLaunch.stream, 24),
      // coll: seqNumber 24, func 32, sendBuff 40, recvBuff 48, count 56, root 64 (+4),
      // datatype 72, nChannels 80, nWarps 81 (+6), algo 88, proto 96, parentGroup 104,
      // kernelVariant 112, isSymColl 120 (+7), userTag 128.
      NPKIT_V7_FIELD(coll.seqNumber, 24),
      NPKIT_V7_FIELD(coll.func, 32),
      NPKIT_V7_FIELD(coll.sendBuff, 40),
      NPKIT_V7_FIELD(coll.recvBuff, 48),
      NPKIT_V7_FIELD(coll.count, 56),
      NPKIT_V7_FIELD(coll.root, 64),
      NPKIT_V7_FIELD(coll.datatype, 72),
      NPKIT_V7_FIELD(coll.nChannels, 80),
      NPKIT_V7_FIELD(coll.nWarps, 81),
      NPKIT_V7_FIELD(coll.algo, 88),
      NPKIT_V7_FIELD(coll.proto, 96),
      NPKIT_V7_FIELD(coll.parentGroup, 104),
      NPKIT_V7_FIELD(coll.kernelVariant, 112),
      NPKIT_V7_FIELD(coll.isSymColl, 120),
      NPKIT_V7_FIELD(coll.userTag, 128),
      // p2p: func 24, buff 32, datatype 40, count 48, peer 56, nChannels 60 (+3),
      // parentGroup 64, userTag 72.
      NPKIT_V7_FIELD(p2p.func, 24),
      NPKIT_V7_FIELD(p2p.buff, 32),
      NPKIT_V7_FIELD(p2p.datatype, 40),
      NPKIT_V7_FIELD(p2p.count, 48),
      NPKIT_V7_FIELD(p2p.peer, 56),
      NPKIT_V7_FIELD(p2p.nChannels, 60),
      NPKIT_V7_FIELD(p2p.parentGroup, 64),
      NPKIT_V7_FIELD(p2p.userTag, 72),
      // proxyOp: pid (ncclPid_t = pid_t, 4 bytes) 24, channelId 28 (+3), peer 32, nSteps 36,
      // chunkSize 40, isSend 44.
      NPKIT_V7_FIELD(proxyOp.pid, 24),
      NPKIT_V7_FIELD(proxyOp.channelId, 28),
      NPKIT_V7_FIELD(proxyOp.peer, 32),
      NPKIT_V7_FIELD(proxyOp.nSteps, 36),
      NPKIT_V7_FIELD(proxyOp.chunkSize, 40),
      NPKIT_V7_FIELD(proxyOp.isSend, 44),
      NPKIT_V7_FIELD(proxyStep.step, 24),
      // kernelCh: channelId 24 (+7), pTimer 32.
      NPKIT_V7_FIELD(kernelCh.channelId, 24),
      NPKIT_V7_FIELD(kernelCh.pTimer, 32),
      NPKIT_V7_FIELD(netPlugin.id, 24),
      NPKIT_V7_FIELD(netPlugin.data, 32),
      // ceColl: seqNumber 24, func 32, sendBuff 40, recvBuff 48, count 56, root 64 (+4),
      // datatype 72, syncStrategy 80, intraBatchSync 88 (+3), batchSize 92, numBatches 96,
      // ceSeqNum 100, stream 104, userTag 112.
      NPKIT_V7_FIELD(ceColl.seqNumber, 24),
      NPKIT_V7_FIELD(ceColl.func, 32),
      NPKIT_V7_FIELD(ceColl.sendBuff, 40),
      NPKIT_V7_FIELD(ceColl.recvBuff, 48),
      NPKIT_V7_FIELD(ceColl.count, 56),
      NPKIT_V7_FIELD(ceColl.root, 64),
      NPKIT_V7_FIELD(ceColl.datatype, 72),
      NPKIT_V7_FIELD(ceColl.syncStrategy, 80),
      NPKIT_V7_FIELD(ceColl.intraBatchSync, 88),
      NPKIT_V7_FIELD(ceColl.batchSize, 92),
      NPKIT_V7_FIELD(ceColl.numBatches, 96),
      NPKIT_V7_FIELD(ceColl.ceSeqNum, 100),
      NPKIT_V7_FIELD(ceColl.stream, 104),
      NPKIT_V7_FIELD(ceColl.userTag, 112),
      // ceCollSync {bool isComplete; int nRanks}: 24, 28.
      NPKIT_V7_FIELD(ceCollSync.isComplete, 24),
      NPKIT_V7_FIELD(ceCollSync.nRanks, 28),
      // ceCollBatch {int numOps; size_t totalBytes; bool useIntraSync}: 24 (+4), 32, 40.
      NPKIT_V7_FIELD(ceCollBatch.numOps, 24),
      NPKIT_V7_FIELD(ceCollBatch.totalBytes, 32),
      NPKIT_V7_FIELD(ceCollBatch.useIntraSync, 40),
      // kernelPhase: channelId 24, phaseId 25 (+6), phaseName 32, pTimer 40.
      NPKIT_V7_FIELD(kernelPhase.channelId, 24),
      NPKIT_V7_FIELD(kernelPhase.phaseId, 25),
      NPKIT_V7_FIELD(kernelPhase.phaseName, 32),
      NPKIT_V7_FIELD(kernelPhase.pTimer, 40),
  };
  for (const Field& f : fields) {
    INFO(f.name);
    CHECK(f.plugin == f.header);
    CHECK(f.tests == f.header);
  }
  // The largest member, coll, ends at 136 (userTag 128 + 8): the descriptor's size; 8-aligned.
  CHECK(sizeof(nccl_abi::ncclProfilerEventDescr_v7_t) == 136);
  CHECK(alignof(nccl_abi::ncclProfilerEventDescr_v7_t) == 8);
  CHECK(sizeof(abi::EventDescrV7) == 136);
}

#undef NPKIT_V7_FIELD

TEST_CASE("plugin v7 ABI: state args and the plugin table", "[plugin]") {
  using StateArgs7 = nccl_abi::ncclProfilerEventStateArgs_v7_t;
  // A union of one-member structs: size_t transSize, int appendedProxyOps, void* data,
  // uint64_t pTimer (shared by KernelChStop and KernelPhaseStop), each at 0; 8 bytes.
  CHECK(sizeof(StateArgs7) == 8);
  CHECK(offsetof(StateArgs7, proxyStep.transSize) == 0);
  CHECK(offsetof(StateArgs7, proxyCtrl.appendedProxyOps) == 0);
  CHECK(offsetof(StateArgs7, netPlugin.data) == 0);
  CHECK(offsetof(StateArgs7, kernelCh.pTimer) == 0);
  // {name, init, startEvent, stopEvent, recordEventState, finalize}: six pointers.
  using Table7 = nccl_abi::ncclProfiler_v7_t;
  CHECK(sizeof(Table7) == 48);
  CHECK(offsetof(Table7, name) == 0);
  CHECK(offsetof(Table7, init) == 8);
  CHECK(offsetof(Table7, startEvent) == 16);
  CHECK(offsetof(Table7, stopEvent) == 24);
  CHECK(offsetof(Table7, recordEventState) == 32);
  CHECK(offsetof(Table7, finalize) == 40);
  CHECK(sizeof(abi::ProfilerV7) == 48);
  CHECK(offsetof(abi::ProfilerV7, recordEventState) == 32);
  // ncclProfileKernelPhase = 1 << 15, ncclProfilerKernelPhaseStop = 31 (nccl_profiler.h).
  CHECK(abi::kKernelPhase == 32768u);
  CHECK(abi::kStateKernelPhaseStop == 31);
}

}  // namespace
}  // namespace npkit::test
