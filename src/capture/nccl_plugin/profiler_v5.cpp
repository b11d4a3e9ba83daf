// The NCCL profiler API v5 entry points (NCCL 2.28), exported as ncclProfiler_v5.
#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "nccl_plugin/plugin_runtime.hpp"

namespace npkit::capture {
namespace {

using namespace nccl_abi;

ncclResult_t init_v5(void** context, uint64_t comm_id, int* event_mask, const char* comm_name,
                     int nnodes, int nranks, int rank, ncclDebugLogger_t logfn) noexcept {
  CommunicatorIdentity identity;
  identity.comm_hash = comm_id;
  identity.rank = rank;
  identity.nranks = nranks;
  identity.nnodes = nnodes;
  identity.profiler_api = 5;
  identity.comm_name = comm_name;
  return init_communicator(context, event_mask, identity, logfn);
}

ncclResult_t start_v5(void* context, void** handle, ncclProfilerEventDescr_v5_t* descr) noexcept {
  return start_event(context, handle, descr);
}

ncclResult_t state_v5(void* handle, ncclProfilerEventState_v5_t state,
                      ncclProfilerEventStateArgs_v5_t* args) noexcept {
  return record_event_state(handle, state, args);
}

}  // namespace
}  // namespace npkit::capture

extern "C" {
__attribute__((visibility("default"))) npkit::nccl_abi::ncclProfiler_v5_t ncclProfiler_v5 = {
    "npkit",
    npkit::capture::init_v5,
    npkit::capture::start_v5,
    npkit::capture::stop_event,
    npkit::capture::state_v5,
    npkit::capture::finalize_communicator,
};
}
