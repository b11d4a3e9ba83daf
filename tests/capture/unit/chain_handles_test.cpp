// The chaining building blocks: which events NCCL emits for a mask (NCCL profiler reference,
// table 3.2, written out here by hand), the paired/chain-only handle encoding, and the table of
// the chained plugin's handles.
#include <catch2/catch.hpp>

#include "nccl_plugin/chain_handles.hpp"
#include "nccl_plugin/emitted_events.hpp"

namespace npkit::capture {
namespace {

TEST_CASE("chain: emitted events are the mask and its ancestors", "[capture]") {
  // Bits: Group 1, Coll 2, P2p 4, ProxyOp 8, ProxyStep 16, ProxyCtrl 32, KernelCh 64,
  // NetPlugin 128, GroupApi 256, CollApi 512, P2pApi 1024, KernelLaunch 2048; API v6 (NCCL 2.30.7
  // src/plugin/profiler.cc): CeColl 4096 under CollApi, CeSync 8192 and CeBatch 16384 under
  // CeColl; API v7 (NCCL 2.31.2): KernelPhase 32768 under KernelCh.
  struct Case {
    uint64_t mask;
    uint64_t emitted;
  };
  const Case cases[] = {
      {0, 0},
      {32, 32},
      {2048, 2048 | 256},
      {2, 2 | 512 | 256 | 1},
      {4, 4 | 1024 | 256 | 1},
      {64, 64 | 2 | 4 | 512 | 1024 | 256 | 1},
      {8, 8 | 2 | 4 | 512 | 1024 | 256 | 1},
      {128, 128 | 16 | 8 | 2 | 4 | 512 | 1024 | 256 | 1},
      {256, 256},
      {512, 512 | 256},
      {1, 1 | 256},
      {32 | 2048, 32 | 2048 | 256},
      {4095, 4095},
      {4096, 4096 | 512 | 256},
      {8192, 8192 | 4096 | 512 | 256},
      {16384, 16384 | 4096 | 512 | 256},
      {32767, 32767},
      {32768, 32768 | 64 | 2 | 4 | 512 | 1024 | 256 | 1},
      {65535, 65535},
      {~uint64_t{0}, 65535},
  };
  for (const Case& c : cases) {
    INFO("mask " << c.mask);
    CHECK(emitted_events(c.mask) == c.emitted);
  }
}

TEST_CASE("chain: paired and chain-only handles decode, ours and others do not", "[capture]") {
  void* ours = encode_handle(9, 0x1234, 0xABCDEF0123ull);
  void* paired = paired_handle(ours);
  CHECK(paired != ours);
  CHECK(paired_to_ours(paired) == ours);
  CHECK_FALSE(decode_handle(paired).ours);
  const DecodedChainHandle as_paired = decode_chain_handle(paired);
  CHECK(as_paired.kind == ChainHandleKind::kPaired);
  CHECK(as_paired.slot == 0x1234);
  CHECK(as_paired.key == 0xABCDEF0123ull);

  void* only = chain_only_handle(0xFFFF, kMaxEventId);
  CHECK_FALSE(decode_handle(only).ours);
  const DecodedChainHandle as_only = decode_chain_handle(only);
  CHECK(as_only.kind == ChainHandleKind::kChainOnly);
  CHECK(as_only.slot == 0xFFFF);
  CHECK(as_only.key == kMaxEventId);

  int local = 0;
  const void* others[] = {nullptr, ours, &local, dropped_handle(3, 1)};
  for (const void* other : others) {
    CHECK(decode_chain_handle(other).kind == ChainHandleKind::kNone);
  }
}

TEST_CASE("chain: the handle table finds a key until a later key reuses its entry", "[capture]") {
  HandleTable table;
  int a = 0, b = 0, c = 0;
  CHECK_FALSE(table.find(1).found);
  table.put(1, &a, &b);
  HandleTable::Found found = table.find(1);
  CHECK(found.found);
  CHECK(found.ours == &a);
  CHECK(found.theirs == &b);
  CHECK_FALSE(found.stopped);
  CHECK_FALSE(table.find(1 + 1).found);

  CHECK(table.mark_stopped(1));
  CHECK_FALSE(table.mark_stopped(1));  // a second stop is not the first
  found = table.find(1);
  CHECK((found.found && found.stopped && found.theirs == &b));

  table.put(1 + HandleTable::kEntries, nullptr, &c);  // same entry, later key
  CHECK_FALSE(table.find(1).found);
  CHECK_FALSE(table.mark_stopped(1));
  found = table.find(1 + HandleTable::kEntries);
  CHECK((found.found && found.ours == nullptr && found.theirs == &c && !found.stopped));
}

}  // namespace
}  // namespace npkit::capture
