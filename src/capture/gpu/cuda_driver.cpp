#include "gpu/cuda_driver.hpp"

#include <dlfcn.h>

#include <initializer_list>

namespace npkit::capture::cuda {
namespace {

constexpr const char* kLibrary = "libcuda.so.1";

struct LoadedDriver {
  Driver driver{};
  bool loaded = false;
  std::string why_not;
};

// Binds *entry to the first of `names` the library exports; false if none is.
template <typename Entry>
bool bind(void* library, std::initializer_list<const char*> names, Entry* entry) {
  for (const char* name : names) {
    if (void* symbol = dlsym(library, name)) {
      *entry = reinterpret_cast<Entry>(symbol);
      return true;
    }
  }
  return false;
}

// Binds every entry point; on failure returns the name of the first one missing.
std::string bind_all(void* library, Driver* d) {
  struct Binding {
    bool bound;
    const char* name;
  };
  const Binding bindings[] = {
      {bind(library, {"cuInit"}, &d->cuInit), "cuInit"},
      {bind(library, {"cuDeviceGetCount"}, &d->cuDeviceGetCount), "cuDeviceGetCount"},
      {bind(library, {"cuDeviceGet"}, &d->cuDeviceGet), "cuDeviceGet"},
      {bind(library, {"cuDevicePrimaryCtxRetain"}, &d->cuDevicePrimaryCtxRetain),
       "cuDevicePrimaryCtxRetain"},
      {bind(library, {"cuDevicePrimaryCtxRelease_v2"}, &d->cuDevicePrimaryCtxRelease),
       "cuDevicePrimaryCtxRelease_v2"},
      {bind(library, {"cuCtxGetCurrent"}, &d->cuCtxGetCurrent), "cuCtxGetCurrent"},
      {bind(library, {"cuCtxSetCurrent"}, &d->cuCtxSetCurrent), "cuCtxSetCurrent"},
      {bind(library, {"cuCtxGetDevice"}, &d->cuCtxGetDevice), "cuCtxGetDevice"},
      {bind(library, {"cuDeviceGetName"}, &d->cuDeviceGetName), "cuDeviceGetName"},
      {bind(library, {"cuDeviceGetUuid_v2", "cuDeviceGetUuid"}, &d->cuDeviceGetUuid),
       "cuDeviceGetUuid"},
      {bind(library, {"cuDeviceGetPCIBusId"}, &d->cuDeviceGetPCIBusId), "cuDeviceGetPCIBusId"},
      {bind(library, {"cuMemHostAlloc"}, &d->cuMemHostAlloc), "cuMemHostAlloc"},
      {bind(library, {"cuMemHostGetDevicePointer_v2"}, &d->cuMemHostGetDevicePointer),
       "cuMemHostGetDevicePointer_v2"},
      {bind(library, {"cuMemFreeHost"}, &d->cuMemFreeHost), "cuMemFreeHost"},
      {bind(library, {"cuModuleLoadData"}, &d->cuModuleLoadData), "cuModuleLoadData"},
      {bind(library, {"cuModuleGetFunction"}, &d->cuModuleGetFunction), "cuModuleGetFunction"},
      {bind(library, {"cuModuleUnload"}, &d->cuModuleUnload), "cuModuleUnload"},
      {bind(library, {"cuStreamCreate"}, &d->cuStreamCreate), "cuStreamCreate"},
      {bind(library, {"cuStreamDestroy_v2"}, &d->cuStreamDestroy), "cuStreamDestroy_v2"},
      {bind(library, {"cuLaunchKernel"}, &d->cuLaunchKernel), "cuLaunchKernel"},
      {bind(library, {"cuStreamSynchronize"}, &d->cuStreamSynchronize), "cuStreamSynchronize"},
      {bind(library, {"cuStreamQuery"}, &d->cuStreamQuery), "cuStreamQuery"},
      {bind(library, {"cuGetErrorString"}, &d->cuGetErrorString), "cuGetErrorString"},
  };
  for (const Binding& binding : bindings) {
    if (!binding.bound) return binding.name;
  }
  return {};
}

LoadedDriver load_driver() {
  LoadedDriver result;
  // Reuse the copy the process already has (CUDA runtime, NCCL); load it only if there is none.
  void* library = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (library == nullptr) library = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    result.why_not = std::string(kLibrary) + " not loadable: " + (error ? error : "unknown error");
    return result;
  }
  const std::string missing = bind_all(library, &result.driver);
  if (!missing.empty()) {
    dlclose(library);
    result.driver = Driver{};
    result.why_not = std::string(kLibrary) + " lacks " + missing + " (driver too old)";
    return result;
  }
  result.loaded = true;
  return result;
}

}  // namespace

const Driver* cuda_driver(std::string* why_not) {
  static const LoadedDriver loaded = load_driver();
  if (loaded.loaded) return &loaded.driver;
  if (why_not != nullptr) *why_not = loaded.why_not;
  return nullptr;
}

std::string describe_failure(const Driver& driver, const char* call, Result result) {
  const char* text = nullptr;
  if (driver.cuGetErrorString(result, &text) != kSuccess || text == nullptr) {
    text = "unknown error";
  }
  return std::string(call) + " failed: " + text + " (CUresult " + std::to_string(result) + ")";
}

Context current_context(const Driver& driver, std::string* why_not) {
  Context context = nullptr;
  const Result result = driver.cuCtxGetCurrent(&context);
  if (result != kSuccess) {
    *why_not = describe_failure(driver, "cuCtxGetCurrent", result);
    return nullptr;
  }
  if (context == nullptr) *why_not = "no current CUDA context";
  return context;
}

}  // namespace npkit::capture::cuda
