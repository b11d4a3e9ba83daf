#include "recorder/event_names.hpp"

namespace npkit::capture {
namespace {

constexpr const char* kEventTypeNames[kEventTypeCount] = {
    "Group",    "Coll",      "P2p",      "ProxyOp",     "ProxyStep", "ProxyCtrl",
    "KernelCh", "NetPlugin", "GroupApi", "CollApi",     "P2pApi",    "KernelLaunch",
    "CeColl",   "CeSync",    "CeBatch",  "KernelPhase",
};

// NCCL 2.31.2 ncclProfilerEventState_t (API v7; v6 ends at 30, v5 at 24), in value order.
constexpr const char* kStateNames[kStateCount] = {
    "ProxyOpSendPosted",         // 0 (states 0..7 are deprecated since API v4)
    "ProxyOpSendRemFifoWait",    // 1
    "ProxyOpSendTransmitted",    // 2
    "ProxyOpSendDone",           // 3
    "ProxyOpRecvPosted",         // 4
    "ProxyOpRecvReceived",       // 5
    "ProxyOpRecvTransmitted",    // 6
    "ProxyOpRecvDone",           // 7
    "ProxyStepSendGPUWait",      // 8
    "ProxyStepSendWait",         // 9
    "ProxyStepRecvWait",         // 10
    "ProxyStepRecvFlushWait",    // 11
    "ProxyStepRecvGPUWait",      // 12
    "ProxyCtrlIdle",             // 13
    "ProxyCtrlActive",           // 14
    "ProxyCtrlSleep",            // 15
    "ProxyCtrlWakeup",           // 16
    "ProxyCtrlAppend",           // 17
    "ProxyCtrlAppendEnd",        // 18
    "ProxyOpInProgress_v4",      // 19
    "ProxyStepSendPeerWait_v4",  // 20
    "NetPluginUpdate",           // 21
    "KernelChStop",              // 22
    "GroupStartApiStop",         // 23
    "GroupEndApiStart",          // 24
    "CeCollStart",               // 25
    "CeCollComplete",            // 26
    "CeSyncStart",               // 27
    "CeSyncComplete",            // 28
    "CeBatchStart",              // 29
    "CeBatchComplete",           // 30
    "KernelPhaseStop",           // 31
};

}  // namespace

const char* event_type_name(uint32_t type_index) noexcept {
  return type_index < kEventTypeCount ? kEventTypeNames[type_index] : nullptr;
}

const char* state_name(uint32_t state) noexcept {
  return state < kStateCount ? kStateNames[state] : nullptr;
}

}  // namespace npkit::capture
