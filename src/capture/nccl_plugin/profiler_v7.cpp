// The NCCL profiler API v7 entry points (NCCL 2.31+), exported as ncclProfiler_v7: the v6 calls
// plus the KernelPhase events and the v7 descriptor fields (user tags, kernel variant, symmetric
// kernels).
#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "nccl_plugin/plugin_runtime.hpp"

extern "C" {
__attribute__((visibility("default"))) npkit::nccl_abi::ncclProfiler_v7_t ncclProfiler_v7 = {
    "npkit",
    npkit::capture::init_entry<7>,
    npkit::capture::start_entry<npkit::nccl_abi::ncclProfilerEventDescr_v7_t>,
    npkit::capture::stop_event,
    npkit::capture::state_entry,
    npkit::capture::finalize_communicator,
};
}
