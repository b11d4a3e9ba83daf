#include "nccl_plugin/plugin_runtime.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "gpu/gpu_clock.hpp"
#include "nccl_plugin/chain_handles.hpp"
#include "nccl_plugin/sampler.hpp"
#include "recorder/capture_metadata.hpp"
#include "recorder/capture_settings.hpp"
#include "recorder/context_dump.hpp"
#include "recorder/log_text.hpp"

namespace npkit::capture {
namespace {

using nccl_abi::ncclDebugLogger_t;
using nccl_abi::ncclResult_t;
using nccl_abi::ncclSuccess;

pid_t g_own_pid = 0;
// NCCL's logger, remembered from the latest init for messages outside init (finalize, flush).
std::atomic<ncclDebugLogger_t> g_logger{nullptr};

void refresh_own_pid() {
  g_own_pid = getpid();
}

// In a forked child: the parent's communicators (and their live files, shared mappings) are the
// parent's; the child records nothing more into them.
void after_fork_in_child() {
  refresh_own_pid();
  for (uint32_t slot = 0; slot < ContextRegistry::kSlots; ++slot) {
    CaptureContext* context = process_context_registry().at(static_cast<uint16_t>(slot));
    if (context != nullptr && context->pid != g_own_pid) context->buffer.abandon_in_child();
  }
}

// Every line the plugin logs: its text carries names from outside (paths, link targets, hosts,
// communicator names), so control characters are escaped (recorder/log_text.hpp).
void log_message(ncclDebugLogger_t logfn, nccl_abi::ncclDebugLogLevel level,
                 unsigned long subsystems, const std::string& text) {
  const std::string line = escaped_for_log(text);
  if (logfn != nullptr) {
    logfn(level, subsystems, __FILE__, __LINE__, "NPKIT %s", line.c_str());
  } else if (level == nccl_abi::NCCL_LOG_WARN) {
    std::fprintf(stderr, "NPKIT WARN %s\n", line.c_str());
  }
}

void warn(ncclDebugLogger_t logfn, const std::string& text) {
  log_message(logfn, nccl_abi::NCCL_LOG_WARN, nccl_abi::kNcclSubsysAll, text);
}

// A live file that stopped growing, told when it happens (RecordBuffer's hook: any thread).
void warn_live_file_stopped(const std::string& text) {
  warn(g_logger.load(std::memory_order_relaxed), text);
}

__attribute__((constructor)) void start_tracking_pid() {
  refresh_own_pid();
  pthread_atfork(nullptr, nullptr, after_fork_in_child);
  RecordBuffer::set_live_stop_warning(warn_live_file_stopped);
}

// What a dump's writing found worth a warning: its failure, or the name it could not take.
void report_dump(ncclDebugLogger_t logfn, const DumpResult& result) {
  if (result.status == DumpResult::kFailed) warn(logfn, "could not write dump: " + result.error);
  if (!result.warning.empty()) warn(logfn, result.warning);
}

// Under NPKIT_SAMPLE, hands the mask word to the sampler (sampler.hpp), which writes it from now
// on; false when sampling is off or cannot work (API v4 has no API events to count calls by).
// `mask` is what sampled operations get; the others keep all but kSampledEvents, plus the
// CollApi/P2pApi starts the counting needs.
bool start_sampling(const CaptureSettings& settings, const CaptureContext& opened,
                    uint32_t profiler_api, uint64_t mask, int* event_mask,
                    ncclDebugLogger_t logfn) {
  if (settings.sample.mode == SampleSetting::Mode::kOff) return false;
  if (profiler_api < 5) {
    warn(logfn, "NPKIT_SAMPLE needs NCCL's profiler API v5 or later (API events); NCCL called v" +
                    std::to_string(profiler_api) + ": sampling off");
    return false;
  }
  const uint64_t steady =
      ((mask & ~kSampledEvents) | kEventCollApi | kEventP2pApi) & events_of_api(profiler_api);
  sampler_attach(opened.slot, event_mask, settings.sample, static_cast<int>(steady),
                 static_cast<int>(mask));
  return true;
}

std::string communicator_label(const CommunicatorIdentity& identity) {
  char label[64];
  std::snprintf(label, sizeof(label), "communicator %016" PRIx64 " rank %d", identity.comm_hash,
                identity.rank);
  return label;
}

}  // namespace

pid_t own_pid() noexcept {
  return g_own_pid;
}

bool state_carries_args(int state) noexcept {
  switch (state) {
    case format::kStateProxyOpInProgress:
    case format::kStateGroupStartApiStop:
    case format::kStateGroupEndApiStart:
      return false;
    default:
      return state < static_cast<int>(format::kStateCeCollStart) ||
             state > static_cast<int>(format::kStateCeBatchComplete);
  }
}

ncclResult_t init_communicator(void** context, int* event_mask,
                               const CommunicatorIdentity& identity,
                               ncclDebugLogger_t logfn) noexcept {
  if (context == nullptr) return ncclSuccess;
  *context = nullptr;
  ChainStart chain;
  try {
    if (logfn != nullptr) g_logger.store(logfn, std::memory_order_relaxed);
    CaptureSettings settings = read_capture_settings_from_environment();
    // NCCL driving API v5 or v4 is never asked for types of a later version.
    settings.event_mask &= events_of_api(identity.profiler_api);
    for (const std::string& warning : settings.warnings) warn(logfn, warning);

    Metadata chain_metadata;
    if (!settings.chain_plugin.empty()) {
      chain = chain_init(settings.chain_plugin, settings.event_mask, identity, logfn);
      for (const std::string& warning : chain.warnings) warn(logfn, warning);
      chain_metadata.emplace_back("capture.chained_plugin", chain.metadata);
    }

    std::string why_not;
    CaptureContext* opened =
        open_communicator_context(process_context_registry(), identity, settings,
                                  reinterpret_cast<const void*>(logfn), &why_not, chain_metadata);
    if (opened == nullptr) {
      chain_abandon(chain.link);
      warn(logfn, "capture disabled for " + communicator_label(identity) + ": " + why_not);
      return ncclSuccess;
    }
    for (const std::string& warning : opened->warnings) warn(logfn, warning);
    if (ensure_detached_context(process_context_registry(), settings, identity.profiler_api,
                                &why_not) == nullptr) {
      warn(logfn, "operations of other processes (PXN) will not be recorded: " + why_not);
    }
    uint64_t mask = settings.event_mask;
    if (chain.link != nullptr) {
      chain_attach(chain.link, opened->slot);
      mask = (mask | static_cast<uint64_t>(static_cast<unsigned>(chain.their_mask))) &
             events_of_api(identity.profiler_api);
    }
    // One process-wide int in NCCL, read atomically there; inits of several communicators may
    // run on different threads at once.
    const bool sampled =
        start_sampling(settings, *opened, identity.profiler_api, mask, event_mask, logfn);
    if (event_mask != nullptr && !sampled) {
      __atomic_store_n(event_mask, static_cast<int>(mask), __ATOMIC_RELAXED);
    }
    *context = opened;
    log_message(logfn, nccl_abi::NCCL_LOG_INFO, nccl_abi::kNcclSubsysInit,
                "capturing " + communicator_label(identity) + " (events " + settings.events +
                    ") into " + opened->directory->file_path(opened->dump_name));
  } catch (...) {
    *context = nullptr;
    chain_abandon(chain.link);
    warn(logfn, "capture disabled for " + communicator_label(identity) + ": internal error");
  }
  return ncclSuccess;
}

ncclResult_t finalize_communicator(void* context) noexcept {
  if (context == nullptr) return ncclSuccess;
  CaptureContext& capture = *static_cast<CaptureContext*>(context);
  try {
    if (!capture.dump_taken.load(std::memory_order_acquire)) {
      std::vector<format::ClockSample> end_samples;
      std::vector<ClockNote> end_notes;
      format::ClockSample sample{};
      std::string why_not;
      if (sample_gpu_clock(format::kSampleAtEnd, &sample, &why_not)) {
        end_samples.push_back(sample);
      } else {
        end_notes.push_back({"no clock sample at end", why_not});
      }
      const DumpResult result = dump_context(capture, format::kEndFinalize, end_samples, end_notes);
      report_dump(g_logger.load(std::memory_order_relaxed), result);
    }
  } catch (const std::bad_alloc&) {
    warn(g_logger.load(std::memory_order_relaxed),
         "could not write dump: " + std::string(std::strerror(ENOMEM)));
  } catch (...) {
    warn(g_logger.load(std::memory_order_relaxed), "could not write dump: internal error");
  }
  if (chain_in_use()) chain_finalize(capture.slot);
  if (sampling_in_use()) sampler_detach(capture.slot);
  return ncclSuccess;
}

void note_call_for_sampling(void* context, bool collective) noexcept {
  thread_local uint16_t hint = 0;
  const CaptureContext* found = process_context_registry().find(context, hint);
  if (found == nullptr) return;
  hint = found->slot;
  sampler_after_call(found->slot, collective);
}

ncclResult_t stop_event(void* handle) noexcept {
  const DecodedHandle decoded = decode_handle(handle);
  if (!decoded.ours) {
    if (decode_chain_handle(handle).kind != ChainHandleKind::kNone) chained_stop(handle);
    return ncclSuccess;
  }
  record_stop(process_context_registry(), decoded);
  return ncclSuccess;
}

ncclResult_t record_event_state(void* handle, int state,
                                const nccl_abi::ncclProfilerEventStateArgs_v5_t* args) noexcept {
  const DecodedHandle decoded = decode_handle(handle);
  if (!decoded.ours) {
    if (decode_chain_handle(handle).kind != ChainHandleKind::kNone) {
      chained_state(handle, state, args);
    }
    return ncclSuccess;
  }
  // States that carry no arguments: NCCL 2.29/2.30's v5 adapter passes its uninitialised args
  // for them, so whatever `args` holds is never read.
  if (!state_carries_args(state)) args = nullptr;
  uint64_t value = 0;
  if (args != nullptr) {
    if (decoded.type == format::kTypeProxyCtrl) {
      value = static_cast<uint64_t>(static_cast<int64_t>(args->proxyCtrl.appendedProxyOps));
    } else {
      std::memcpy(&value, args, sizeof(value));
    }
  }
  record_state(process_context_registry(), decoded, static_cast<uint32_t>(state), args != nullptr,
               value);
  return ncclSuccess;
}

int flush_live_communicators(bool to_stderr) noexcept {
  int written = 0;
  try {
    // At exit NCCL's logger is not called again, also by warnings from other threads.
    if (to_stderr) g_logger.store(nullptr, std::memory_order_relaxed);
    const ncclDebugLogger_t logfn = g_logger.load(std::memory_order_relaxed);
    for (const DumpResult& result :
         dump_live_contexts(process_context_registry(), format::kEndProcessExit)) {
      if (result.status == DumpResult::kWritten) ++written;
      report_dump(logfn, result);
    }
  } catch (const std::bad_alloc&) {
    warn(nullptr, "could not write dumps: " + std::string(std::strerror(ENOMEM)));
  } catch (...) {
    warn(nullptr, "could not write dumps: internal error");
  }
  if (sampling_in_use()) sampler_end_all();
  return written;
}

}  // namespace npkit::capture
