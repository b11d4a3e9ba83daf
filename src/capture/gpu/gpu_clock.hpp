// gpu/gpu_clock.hpp — what the capture side learns from the GPU: its identity, host/GPU clock
// correspondences, and the NCCL version loaded in the process.
//
// Contract:
// - CUDA is reached at run time through the driver library (dlopen "libcuda.so.1"); nothing here
//   links CUDA, and every function works (returning false with a reason) on a machine without it.
// - Functions act on the calling thread's current CUDA context; none creates or changes a context.
// - Never throws, never aborts, never blocks for more than the stated bound.
// - Not for the event hot path: each call costs microseconds to milliseconds.
#pragma once

#include <cstdint>
#include <string>

#include "npkit/format.hpp"

namespace npkit::capture {

struct GpuIdentity {
  std::string name;        // e.g. "NVIDIA H200"
  std::string uuid;        // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string pci_bus_id;  // e.g. "0000:19:00.0"
  int cuda_device = -1;    // ordinal in this process
};

// Identifies the GPU of the calling thread's current CUDA context. On failure returns false and
// says why in *why_not (e.g. "libcuda.so.1 not loadable: ...", "no current CUDA context");
// *out is written only on success. why_not may be null.
bool identify_current_gpu(GpuIdentity* out, std::string* why_not);

// Samples the GPU %globaltimer against host CLOCK_REALTIME: a one-thread kernel on a private
// non-blocking stream reads the timer when the host signals it through mapped pinned host memory,
// 16 rounds; the round with the narrowest host bracket is returned with `when` set. Waits at most
// 200 ms for the kernel's answers, then tells it to stop and gives up (false, reason). The first
// call in a context also loads the kernel (the driver compiles its PTX: milliseconds). The block,
// kernel and stream of each context are kept for the life of the process and never released, and
// a timed-out kernel is never waited for: freeing or unloading could wait for every kernel on the
// device, and an init or finalize must not wait for other communicators' kernels. Calls are
// serialized by a process-wide mutex. *out is written only on success.
bool sample_gpu_clock(format::ClockSampleTime when, format::ClockSample* out, std::string* why_not);

// The version ("2.28.9") of the NCCL library mapped at `address_in_libnccl` (any code or data
// address inside it, e.g. NCCL's logger function or one of its static strings), asked through
// that shared object's own ncclGetVersion; "" if the address is in no shared object exporting it.
std::string nccl_version_containing(const void* address_in_libnccl);

}  // namespace npkit::capture
