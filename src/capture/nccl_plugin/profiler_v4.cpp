// The NCCL profiler API v4 entry points (NCCL 2.27, and newer NCCL through its v4 adapter),
// exported as ncclProfiler_v4. Recorded exactly like v5; the dump says profiler_api 4.
#include "gpu/gpu_clock.hpp"
#include "nccl_plugin/descriptor_payload.hpp"
#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "nccl_plugin/plugin_runtime.hpp"
#include "nccl_plugin/v4_channels.hpp"

namespace npkit::capture {
namespace {

using namespace nccl_abi;

ncclResult_t init_v4(void** context, int* event_mask, const char* comm_name, uint64_t comm_hash,
                     int nnodes, int nranks, int rank, ncclDebugLogger_t logfn) noexcept {
  // NCCL's logger lives in libnccl: its version says whether p2p.nChannels is filled.
  try {
    g_v4_p2p_channels_trusted.store(
        v4_p2p_channels_filled(nccl_version_containing(reinterpret_cast<const void*>(logfn))),
        std::memory_order_relaxed);
  } catch (...) {
    g_v4_p2p_channels_trusted.store(false, std::memory_order_relaxed);
  }
  return init_entry<4>(context, comm_hash, event_mask, comm_name, nnodes, nranks, rank, logfn);
}

}  // namespace
}  // namespace npkit::capture

extern "C" {
__attribute__((visibility("default"))) npkit::nccl_abi::ncclProfiler_v4_t ncclProfiler_v4 = {
    "npkit",
    npkit::capture::init_v4,
    npkit::capture::start_entry<npkit::nccl_abi::ncclProfilerEventDescr_v4_t>,
    npkit::capture::stop_event,
    npkit::capture::state_entry,
    npkit::capture::finalize_communicator,
};
}
