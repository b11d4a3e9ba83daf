// v6_driver.hpp — drives one communicator of the plugin directly through ncclProfiler_v6 (API v6,
// NCCL 2.29/2.30), for the copy-engine events CommDriver does not feed.
//
// Contract:
// - V6Comm's constructor calls init (REQUIREs ncclSuccess and a non-NULL context) with the test
//   logger; start() REQUIREs ncclSuccess and a non-NULL handle; finalize() calls finalize once.
// - enqueue_ce_allgather() starts and stops, as NCCL 2.30's ceCollTaskAppend and ncclLaunchCeColl
//   do, GroupApi > CollApi (AllGather, 262144 x ncclFloat32, stream 0x5000) > CeColl (seqNumber
//   `seq`, ceSeqNum seq + 100, count 1048576 bytes of ncclInt8, root -1, sync "UC", intraBatchSync,
//   batchSize 7, numBatches 3, send 0x7f0000000000, recv 0x7f0000100000, stream 0x5000) with the
//   children CeSync (2 ranks, not complete), CeBatch (2 ops, 2097152 bytes, intra sync) and CeSync
//   (complete), each stopped before the next starts; 13 plugin calls.
#pragma once

#include <cstdint>

#include "capture/plugin/nccl_abi_for_tests.hpp"
#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {

// A v6 descriptor of `type`, every other byte zero.
abi::EventDescrV6 v6_descr(uint64_t type, void* parent, int rank);

class V6Comm {
 public:
  V6Comm(uint64_t comm_hash, int rank, int nranks);
  void* start(abi::EventDescrV6 descr);
  void stop(void* handle);
  void finalize();
  int mask() const { return mask_; }

 private:
  const PluginLibrary& lib_;
  void* context_ = nullptr;
  int mask_ = 0;
};

void enqueue_ce_allgather(V6Comm& comm, int rank, uint64_t seq);

}  // namespace npkit::test
