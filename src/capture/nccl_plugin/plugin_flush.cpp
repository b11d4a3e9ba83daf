// Dumps at process exit and on request: npkitProfilerFlush() for tests and for programs that end
// with _exit(), and a library destructor for every other exit (the library is linked -z nodelete:
// NCCL's dlclose after its last communicator does not unload it, so the destructor runs at exit
// only). Both dump the contexts not dumped yet with end_reason process-exit and never call CUDA.
#include "nccl_plugin/plugin_runtime.hpp"

extern "C" __attribute__((visibility("default"))) int npkitProfilerFlush(void) noexcept {
  return npkit::capture::flush_live_communicators(/*to_stderr=*/false);
}

namespace {

// At exit NCCL's logger may already be torn down: failures go to stderr.
__attribute__((destructor)) void dump_at_exit() {
  npkit::capture::flush_live_communicators(/*to_stderr=*/true);
}

}  // namespace
