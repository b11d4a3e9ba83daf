// The NCCL profiler API v5 entry points (NCCL 2.28, and 2.29/2.30 through their v5 adapter),
// exported as ncclProfiler_v5.
#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "nccl_plugin/plugin_runtime.hpp"

extern "C" {
__attribute__((visibility("default"))) npkit::nccl_abi::ncclProfiler_v5_t ncclProfiler_v5 = {
    "npkit",
    npkit::capture::init_entry<5>,
    npkit::capture::start_entry<npkit::nccl_abi::ncclProfilerEventDescr_v5_t>,
    npkit::capture::stop_event,
    npkit::capture::state_entry,
    npkit::capture::finalize_communicator,
};
}
