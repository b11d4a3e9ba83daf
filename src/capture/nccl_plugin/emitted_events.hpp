// nccl_plugin/emitted_events.hpp — which event types NCCL emits for an activation mask: the
// selected types and their ancestors (NCCL profiler reference, table 3.2), e.g. Coll brings
// CollApi, GroupApi and the legacy Group with it.
//
// Contract: emitted_events(mask) is the set of types t (bits of capture_settings.hpp) such that
// `mask` selects t or a descendant of t; bits beyond the sixteen v7 types are ignored. Pure,
// constexpr. CE events (v6): CeColl sits under CollApi, CeSync and CeBatch under CeColl (NCCL
// 2.30 src/plugin/profiler.cc starts CeColl when any of the three is selected). KernelPhase (v7)
// sits under KernelCh (NCCL 2.31 adds KernelCh to a mask that asks for KernelPhase).
#pragma once

#include <cstdint>

#include "recorder/capture_settings.hpp"

namespace npkit::capture {

namespace emitted_detail {

inline constexpr uint64_t kBelowProxyStep = kEventProxyStep | kEventNetPlugin;
inline constexpr uint64_t kBelowProxyOp = kEventProxyOp | kBelowProxyStep;
inline constexpr uint64_t kBelowKernelCh = kEventKernelCh | kEventKernelPhase;
inline constexpr uint64_t kBelowColl = kEventColl | kBelowProxyOp | kBelowKernelCh;
inline constexpr uint64_t kBelowP2p = kEventP2p | kBelowProxyOp | kBelowKernelCh;
inline constexpr uint64_t kBelowCeColl = kCeEvents;

// Index: the type's bit index; value: the type and every type below it in NCCL's hierarchy.
inline constexpr int kTypes = 16;
inline constexpr uint64_t kSubtree[kTypes] = {
    kEventGroup | kBelowColl | kBelowP2p,       // Group
    kBelowColl,                                 // Coll
    kBelowP2p,                                  // P2p
    kBelowProxyOp,                              // ProxyOp
    kBelowProxyStep,                            // ProxyStep
    kEventProxyCtrl,                            // ProxyCtrl
    kBelowKernelCh,                             // KernelCh
    kEventNetPlugin,                            // NetPlugin
    kAllEvents & ~kEventProxyCtrl,              // GroupApi
    kEventCollApi | kBelowColl | kBelowCeColl,  // CollApi
    kEventP2pApi | kBelowP2p,                   // P2pApi
    kEventKernelLaunch,                         // KernelLaunch
    kBelowCeColl,                               // CeColl
    kEventCeSync,                               // CeSync
    kEventCeBatch,                              // CeBatch
    kEventKernelPhase,                          // KernelPhase
};

}  // namespace emitted_detail

constexpr uint64_t emitted_events(uint64_t mask) noexcept {
  uint64_t out = 0;
  for (int index = 0; index < emitted_detail::kTypes; ++index) {
    if ((mask & emitted_detail::kSubtree[index]) != 0) out |= uint64_t{1} << index;
  }
  return out;
}

static_assert(emitted_events(kEventColl) ==
              (kEventColl | kEventCollApi | kEventGroupApi | kEventGroup));
static_assert(emitted_events(kEventProxyCtrl) == kEventProxyCtrl);
static_assert(emitted_events(kEventKernelPhase) ==
              (kEventKernelPhase | kEventKernelCh | kEventColl | kEventP2p | kEventCollApi |
               kEventP2pApi | kEventGroupApi | kEventGroup));
static_assert(emitted_events(kAllEvents) == kAllEvents);
static_assert(emitted_events(kEventCeSync) ==
              (kEventCeSync | kEventCeColl | kEventCollApi | kEventGroupApi));

}  // namespace npkit::capture
