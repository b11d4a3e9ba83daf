// recorder/context_factory.hpp — opens capture for a communicator (at NCCL's profiler init) and
// for the process's detached PXN operations.
//
// Contract:
// - open_communicator_context(): creates the dump directory (with parents), reserves the record
//   buffer, collects metadata (capture_metadata.hpp), identifies the GPU and takes the init clock
//   sample (gpu/gpu_clock.hpp: failures there only leave a clock note), then registers the
//   context. Returns NULL with *why_not when capture is unusable (directory not creatable, buffer
//   not mappable, registry full); nothing is registered then. `extra_metadata` (e.g. the
//   capture.chained_plugin entry) follows the capture settings' entries.
// - ensure_detached_context(): the registry's detached context (comm hash 0, rank -1, file
//   npkit_detached_pid<pid>.npkt), created on the first successful call with `settings` and
//   returned unchanged afterwards; it never calls CUDA and has no live file (its dump is written
//   only when something was recorded into it). NULL with *why_not when it cannot be made.
// - A communicator's buffer is a live file's (recorder/live_file.hpp) when settings.live_file
//   and the file can be made, anonymous memory otherwise; "capture.live_file" metadata says which
//   ("on", "off", or "not written: <why>").
// - Both may run concurrently from several threads; neither throws except std::bad_alloc.
#pragma once

#include <cstdint>
#include <string>

#include "recorder/capture_context.hpp"
#include "recorder/capture_metadata.hpp"
#include "recorder/capture_settings.hpp"
#include "recorder/context_registry.hpp"

namespace npkit::capture {

struct CommunicatorIdentity {
  uint64_t comm_hash = 0;
  int32_t rank = 0;
  int32_t nranks = 0;
  int32_t nnodes = 0;
  uint32_t profiler_api = 5;
  const char* comm_name = nullptr;  // copied; NULL leaves the comm_name key out
};

CaptureContext* open_communicator_context(ContextRegistry& registry,
                                          const CommunicatorIdentity& identity,
                                          const CaptureSettings& settings,
                                          const void* address_in_nccl, std::string* why_not,
                                          const Metadata& extra_metadata = {});

CaptureContext* ensure_detached_context(ContextRegistry& registry, const CaptureSettings& settings,
                                        uint32_t profiler_api, std::string* why_not);

}  // namespace npkit::capture
