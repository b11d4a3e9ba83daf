// gpu/cuda_driver.hpp — the CUDA driver API entry points the capture side uses, reached through
// dlopen("libcuda.so.1") so that nothing links CUDA.
//
// Contract:
// - cuda_driver() loads the driver once per process (thread-safe) and returns the same table, or
//   nullptr with the same reason ("libcuda.so.1 not loadable: ...") on every call; a machine
//   without CUDA pays one failed dlopen, once.
// - The library stays loaded for the life of the process (the table is never invalidated).
// - Entry points are bound to the versioned names the driver exports (cuDeviceGetUuid_v2,
//   cuMemHostGetDevicePointer_v2, cuStreamDestroy_v2, cuDevicePrimaryCtxRelease_v2), i.e. the
//   ones cuda.h maps the plain names to; cuDeviceGetUuid falls back to the unversioned symbol on
//   drivers older than CUDA 11.4.
// - The types below mirror cuda.h (CUDA 13) in size and meaning, in a namespace of their own so
//   that a translation unit may also include the real cuda.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace npkit::capture::cuda {

using Result = int;  // CUresult
inline constexpr Result kSuccess = 0;

struct ContextOpaque;
struct ModuleOpaque;
struct FunctionOpaque;
struct StreamOpaque;
using Device = int;                    // CUdevice: a device ordinal
using DevicePtr = unsigned long long;  // CUdeviceptr (64-bit)
using Context = ContextOpaque*;        // CUcontext
using Module = ModuleOpaque*;          // CUmodule
using Function = FunctionOpaque*;      // CUfunction
using Stream = StreamOpaque*;          // CUstream

struct Uuid {  // CUuuid
  char bytes[16];
};
static_assert(sizeof(Uuid) == 16);

// cuMemHostAlloc flags.
inline constexpr unsigned kMemHostAllocPortable = 0x01;   // CU_MEMHOSTALLOC_PORTABLE
inline constexpr unsigned kMemHostAllocDeviceMap = 0x02;  // CU_MEMHOSTALLOC_DEVICEMAP
// cuStreamCreate flags.
inline constexpr unsigned kStreamNonBlocking = 0x1;  // CU_STREAM_NON_BLOCKING

struct Driver {
  // Process and device enumeration.
  Result (*cuInit)(unsigned flags);
  Result (*cuDeviceGetCount)(int* count);
  Result (*cuDeviceGet)(Device* device, int ordinal);
  Result (*cuDevicePrimaryCtxRetain)(Context* context, Device device);
  Result (*cuDevicePrimaryCtxRelease)(Device device);  // _v2
  // Current context.
  Result (*cuCtxGetCurrent)(Context* context);
  Result (*cuCtxSetCurrent)(Context context);
  Result (*cuCtxGetDevice)(Device* device);
  // Device identity.
  Result (*cuDeviceGetName)(char* name, int length, Device device);
  Result (*cuDeviceGetUuid)(Uuid* uuid, Device device);  // _v2 when exported
  Result (*cuDeviceGetPCIBusId)(char* bus_id, int length, Device device);
  // Mapped pinned host memory.
  Result (*cuMemHostAlloc)(void** host, size_t bytes, unsigned flags);
  Result (*cuMemHostGetDevicePointer)(DevicePtr* device, void* host, unsigned flags);  // _v2
  Result (*cuMemFreeHost)(void* host);
  // Modules, streams, launches.
  Result (*cuModuleLoadData)(Module* module, const void* image);
  Result (*cuModuleGetFunction)(Function* function, Module module, const char* name);
  Result (*cuModuleUnload)(Module module);
  Result (*cuStreamCreate)(Stream* stream, unsigned flags);
  Result (*cuStreamDestroy)(Stream stream);  // _v2
  Result (*cuLaunchKernel)(Function function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                           unsigned block_x, unsigned block_y, unsigned block_z,
                           unsigned shared_bytes, Stream stream, void** params, void** extra);
  Result (*cuStreamSynchronize)(Stream stream);
  Result (*cuStreamQuery)(Stream stream);  // kSuccess when all work on the stream has finished
  Result (*cuGetErrorString)(Result result, const char** text);
};

// The process's driver table, or nullptr with the reason in *why_not (why_not may be null).
const Driver* cuda_driver(std::string* why_not);

// "<call> failed: <cuGetErrorString text> (CUresult <n>)".
std::string describe_failure(const Driver& driver, const char* call, Result result);

// The calling thread's current context, or nullptr with the reason in *why_not ("no current CUDA
// context", or the failure of cuCtxGetCurrent, e.g. before cuInit).
Context current_context(const Driver& driver, std::string* why_not);

}  // namespace npkit::capture::cuda
