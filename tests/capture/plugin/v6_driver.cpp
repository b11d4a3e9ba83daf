#include "capture/plugin/v6_driver.hpp"

#include <cstring>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"

namespace npkit::test {
namespace {

void* fake_pointer(uintptr_t value) {
  return reinterpret_cast<void*>(value);
}

}  // namespace

abi::EventDescrV6 v6_descr(uint64_t type, void* parent, int rank) {
  abi::EventDescrV6 d;
  std::memset(static_cast<void*>(&d), 0, sizeof(d));
  d.type = type;
  d.parentObj = parent;
  d.rank = rank;
  return d;
}

V6Comm::V6Comm(uint64_t comm_hash, int rank, int nranks) : lib_(require_plugin()) {
  REQUIRE(lib_.v6->init(&context_, comm_hash, &mask_, "ce-comm", 1, nranks, rank, capture_log) ==
          abi::kSuccess);
  REQUIRE(context_ != nullptr);
}

void* V6Comm::start(abi::EventDescrV6 descr) {
  void* handle = nullptr;
  REQUIRE(lib_.v6->startEvent(context_, &handle, &descr) == abi::kSuccess);
  REQUIRE(handle != nullptr);
  return handle;
}

void V6Comm::stop(void* handle) {
  REQUIRE(lib_.v6->stopEvent(handle) == abi::kSuccess);
}

void V6Comm::finalize() {
  REQUIRE(lib_.v6->finalize(context_) == abi::kSuccess);
}

void enqueue_ce_allgather(V6Comm& comm, int rank, uint64_t seq) {
  abi::EventDescrV6 group_api = v6_descr(abi::kGroupApi, nullptr, rank);
  group_api.groupApi.groupDepth = 1;
  void* group = comm.start(group_api);
  abi::EventDescrV6 coll_api = v6_descr(abi::kCollApi, group, rank);
  coll_api.collApi.func = "AllGather";
  coll_api.collApi.count = 262144;
  coll_api.collApi.datatype = "ncclFloat32";
  coll_api.collApi.stream = fake_pointer(0x5000);
  void* api = comm.start(coll_api);
  abi::EventDescrV6 ce = v6_descr(abi::kCeColl, api, rank);
  ce.ceColl.seqNumber = seq;
  ce.ceColl.func = "AllGather";
  ce.ceColl.sendBuff = fake_pointer(0x7f0000000000);
  ce.ceColl.recvBuff = fake_pointer(0x7f0000100000);
  ce.ceColl.count = 1048576;
  ce.ceColl.root = -1;
  ce.ceColl.datatype = "ncclInt8";
  ce.ceColl.syncStrategy = "UC";
  ce.ceColl.intraBatchSync = true;
  ce.ceColl.batchSize = 7;
  ce.ceColl.numBatches = 3;
  ce.ceColl.ceSeqNum = static_cast<uint32_t>(seq + 100);
  ce.ceColl.stream = fake_pointer(0x5000);
  void* coll = comm.start(ce);
  abi::EventDescrV6 sync = v6_descr(abi::kCeSync, coll, rank);
  sync.ceCollSync.nRanks = 2;
  sync.ceCollSync.isComplete = false;
  comm.stop(comm.start(sync));
  abi::EventDescrV6 batch = v6_descr(abi::kCeBatch, coll, rank);
  batch.ceCollBatch.numOps = 2;
  batch.ceCollBatch.totalBytes = 2097152;
  batch.ceCollBatch.useIntraSync = true;
  comm.stop(comm.start(batch));
  sync.ceCollSync.isComplete = true;
  comm.stop(comm.start(sync));
  comm.stop(coll);
  comm.stop(api);
  comm.stop(group);
}

}  // namespace npkit::test
