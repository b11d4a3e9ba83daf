// The NCCL profiler API v4 entry points (NCCL 2.27, and newer NCCL through its v4 adapter),
// exported as ncclProfiler_v4. Recorded exactly like v5; the dump says profiler_api 4.
#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "nccl_plugin/plugin_runtime.hpp"

namespace npkit::capture {
namespace {

using namespace nccl_abi;

ncclResult_t init_v4(void** context, int* event_mask, const char* comm_name, uint64_t comm_hash,
                     int nnodes, int nranks, int rank, ncclDebugLogger_t logfn) noexcept {
  CommunicatorIdentity identity;
  identity.comm_hash = comm_hash;
  identity.rank = rank;
  identity.nranks = nranks;
  identity.nnodes = nnodes;
  identity.profiler_api = 4;
  identity.comm_name = comm_name;
  return init_communicator(context, event_mask, identity, logfn);
}

ncclResult_t start_v4(void* context, void** handle, ncclProfilerEventDescr_v4_t* descr) noexcept {
  return start_event(context, handle, descr);
}

ncclResult_t state_v4(void* handle, ncclProfilerEventState_v4_t state,
                      ncclProfilerEventStateArgs_v4_t* args) noexcept {
  return record_event_state(handle, state, args);
}

}  // namespace
}  // namespace npkit::capture

extern "C" {
__attribute__((visibility("default"))) npkit::nccl_abi::ncclProfiler_v4_t ncclProfiler_v4 = {
    "npkit",
    npkit::capture::init_v4,
    npkit::capture::start_v4,
    npkit::capture::stop_event,
    npkit::capture::state_v4,
    npkit::capture::finalize_communicator,
};
}
