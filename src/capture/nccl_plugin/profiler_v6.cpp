// The NCCL profiler API v6 entry points (NCCL 2.29, 2.30), exported as ncclProfiler_v6: the v5
// calls plus the copy-engine events (CeColl, CeSync, CeBatch).
#include "nccl_plugin/nccl_profiler_abi.hpp"
#include "nccl_plugin/plugin_runtime.hpp"

extern "C" {
__attribute__((visibility("default"))) npkit::nccl_abi::ncclProfiler_v6_t ncclProfiler_v6 = {
    "npkit",
    npkit::capture::init_entry<6>,
    npkit::capture::start_entry<npkit::nccl_abi::ncclProfilerEventDescr_v6_t>,
    npkit::capture::stop_event,
    npkit::capture::state_entry,
    npkit::capture::finalize_communicator,
};
}
