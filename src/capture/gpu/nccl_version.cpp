// nccl_version_containing: asks the NCCL library mapped at an address for its version.
#include "gpu/nccl_version.hpp"

#include <dlfcn.h>

#include "gpu/gpu_clock.hpp"

namespace npkit::capture {
namespace {

using GetVersion = int (*)(int* version);  // ncclResult_t ncclGetVersion(int*); 0 = ncclSuccess

// The load address of the object that maps `address`, or nullptr.
const void* object_base(const void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0) return nullptr;
  return info.dli_fbase;
}

}  // namespace

std::string nccl_version_text(int code) {
  if (code <= 0) return {};
  const bool since_2_9 = code >= 10000;
  const int major = since_2_9 ? code / 10000 : code / 1000;
  const int minor = since_2_9 ? code % 10000 / 100 : code % 1000 / 100;
  const int patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string nccl_version_containing(const void* address_in_libnccl) {
  if (address_in_libnccl == nullptr) return {};
  Dl_info info{};
  if (dladdr(address_in_libnccl, &info) == 0 || info.dli_fname == nullptr) return {};
  // NOLOAD: only a reference to the already mapped object, never a second load.
  void* library = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) return {};
  std::string version;
  // dlsym also searches the object's dependencies (and, for the executable, the global scope):
  // accept the symbol only if it lives in the object that maps the address.
  if (void* symbol = dlsym(library, "ncclGetVersion");
      symbol != nullptr && object_base(symbol) == info.dli_fbase) {
    int code = 0;
    if (reinterpret_cast<GetVersion>(symbol)(&code) == 0) version = nccl_version_text(code);
  }
  dlclose(library);
  return version;
}

}  // namespace npkit::capture
