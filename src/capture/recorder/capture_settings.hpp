// recorder/capture_settings.hpp — what to capture and where to write it, from the environment.
//
// Variables (read at every communicator init; reading them is cheap):
//   NPKIT_EVENTS         comma-separated event groups, case-insensitive, blanks ignored:
//                        api    GroupApi, CollApi, P2pApi, KernelLaunch
//                        coll   Group, Coll, P2p
//                        kernel KernelCh
//                        proxy  ProxyOp, ProxyStep
//                        ctrl   ProxyCtrl
//                        net    NetPlugin
//                        ce     CeColl, CeSync, CeBatch (copy-engine collectives, API v6)
//                        phase  KernelPhase (NCCL's kernel phases, API v7; NCCL 2.31 adds
//                               KernelCh to a mask that asks for KernelPhase)
//                        all    every event of profiler API v7 (the default, also when unset/empty;
//                               NCCL driving an older API is never asked for the types it does
//                               not know: events_of_api)
//                        An unknown word is ignored with a warning naming it; a list that names
//                        no known group (all words unknown, or only commas) selects all, with
//                        a warning.
//   NPKIT_BUFFER_SIZE_MB records buffer per communicator in MiB (default 64 = 1,048,576 records of
//                        64 bytes); a value that is not a whole number in [1, kMaxBufferSizeMb]
//                        is replaced by the default with a warning.
//   NPKIT_DUMP_DIR       dump directory (default "npkit-dump", relative to the working directory).
//   NPKIT_LIVE_FILE      1 (default): records go to a live file in the dump directory as they are
//                        written (recorder/live_file.hpp), so they survive a process that dies;
//                        0: only the dump at finalize/exit. Other values: 1 with a warning.
//   NPKIT_CHAIN_PLUGIN   another NCCL profiler plugin to load and forward every call to
//                        (nccl_plugin/chained_plugin.hpp): a path or a library name for dlopen,
//                        blanks around it ignored. Unset, empty or "none": no chaining. A value
//                        longer than kMaxChainPluginPath or holding a control character is
//                        ignored with a warning.
//   NPKIT_SAMPLE         which operations get the costly groups (kSampledEvents) of NPKIT_EVENTS:
//                        "1/N" or "T/P" (recorder/sample_setting.hpp); unset: every operation.
// Contract: parsing never fails; every problem becomes a warning text and a default.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "recorder/sample_setting.hpp"

namespace npkit::capture {

// NCCL profiler event type bits (profiler API v7, identical values in every API version).
inline constexpr uint64_t kEventGroup = 1u << 0;
inline constexpr uint64_t kEventColl = 1u << 1;
inline constexpr uint64_t kEventP2p = 1u << 2;
inline constexpr uint64_t kEventProxyOp = 1u << 3;
inline constexpr uint64_t kEventProxyStep = 1u << 4;
inline constexpr uint64_t kEventProxyCtrl = 1u << 5;
inline constexpr uint64_t kEventKernelCh = 1u << 6;
inline constexpr uint64_t kEventNetPlugin = 1u << 7;
inline constexpr uint64_t kEventGroupApi = 1u << 8;
inline constexpr uint64_t kEventCollApi = 1u << 9;
inline constexpr uint64_t kEventP2pApi = 1u << 10;
inline constexpr uint64_t kEventKernelLaunch = 1u << 11;
inline constexpr uint64_t kEventCeColl = 1u << 12;
inline constexpr uint64_t kEventCeSync = 1u << 13;
inline constexpr uint64_t kEventCeBatch = 1u << 14;
inline constexpr uint64_t kEventKernelPhase = 1u << 15;
inline constexpr uint64_t kCeEvents = kEventCeColl | kEventCeSync | kEventCeBatch;
inline constexpr uint64_t kAllEvents = (1u << 16) - 1;
// The events a profiler API version knows: v7 all, v6 all but KernelPhase, v5 and v4 neither
// KernelPhase nor the CE types.
constexpr uint64_t events_of_api(uint32_t api) noexcept {
  return api >= 7   ? kAllEvents
         : api == 6 ? kAllEvents & ~kEventKernelPhase
                    : kAllEvents & ~kEventKernelPhase & ~kCeEvents;
}

// The groups NPKIT_SAMPLE turns on for sampled operations only: kernel, proxy, net and phase.
inline constexpr uint64_t kSampledEvents =
    kEventKernelCh | kEventProxyOp | kEventProxyStep | kEventNetPlugin | kEventKernelPhase;

inline constexpr uint64_t kDefaultBufferSizeMb = 64;
inline constexpr uint64_t kMaxBufferSizeMb = 1u << 20;  // 1 TiB of address space
inline constexpr uint64_t kRecordsPerMb = (1u << 20) / 64;
inline constexpr const char* kDefaultDumpDir = "npkit-dump";
inline constexpr size_t kMaxChainPluginPath = 4095;  // PATH_MAX less its terminating NUL

struct CaptureSettings {
  uint64_t event_mask = kAllEvents;
  std::string
      events;  // the selected groups, normalised ("api,coll,kernel,proxy,ctrl,net,ce,phase")
  uint64_t buffer_size_mb = kDefaultBufferSizeMb;
  uint64_t buffer_records = kDefaultBufferSizeMb * kRecordsPerMb;
  std::string dump_dir = kDefaultDumpDir;
  bool live_file = true;
  std::string chain_plugin;           // empty: no chained plugin
  SampleSetting sample;               // NPKIT_SAMPLE (read by read_capture_settings_...)
  std::vector<std::string> warnings;  // one line per ignored word or bad value
};

// Parses the variables' values; NULL means "not set".
CaptureSettings parse_capture_settings(const char* events, const char* buffer_size_mb,
                                       const char* dump_dir, const char* live_file = nullptr,
                                       const char* chain_plugin = nullptr);

// parse_capture_settings() of the current environment.
CaptureSettings read_capture_settings_from_environment();

}  // namespace npkit::capture
