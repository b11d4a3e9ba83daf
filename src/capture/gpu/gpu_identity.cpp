// identify_current_gpu: the device of the current context, named the way nvidia-smi and NCCL do.
#include <cstring>
#include <utility>

#include "gpu/cuda_driver.hpp"
#include "gpu/gpu_clock.hpp"
#include "gpu/gpu_identity_text.hpp"

namespace npkit::capture {

bool identify_current_gpu(GpuIdentity* out, std::string* why_not) {
  std::string reason;
  const auto fail = [&](std::string text) {
    if (why_not != nullptr) *why_not = std::move(text);
    return false;
  };
  if (out == nullptr) return fail("no GpuIdentity to fill");
  const cuda::Driver* driver = cuda::cuda_driver(&reason);
  if (driver == nullptr) return fail(reason);
  if (cuda::current_context(*driver, &reason) == nullptr) return fail(reason);

  cuda::Device device = -1;
  if (cuda::Result r = driver->cuCtxGetDevice(&device); r != cuda::kSuccess) {
    return fail(cuda::describe_failure(*driver, "cuCtxGetDevice", r));
  }
  char name[256] = {};
  if (cuda::Result r = driver->cuDeviceGetName(name, sizeof(name) - 1, device);
      r != cuda::kSuccess) {
    return fail(cuda::describe_failure(*driver, "cuDeviceGetName", r));
  }
  cuda::Uuid uuid{};
  if (cuda::Result r = driver->cuDeviceGetUuid(&uuid, device); r != cuda::kSuccess) {
    return fail(cuda::describe_failure(*driver, "cuDeviceGetUuid", r));
  }
  char bus_id[64] = {};
  if (cuda::Result r = driver->cuDeviceGetPCIBusId(bus_id, sizeof(bus_id) - 1, device);
      r != cuda::kSuccess) {
    return fail(cuda::describe_failure(*driver, "cuDeviceGetPCIBusId", r));
  }
  unsigned char uuid_bytes[16];
  std::memcpy(uuid_bytes, uuid.bytes, sizeof(uuid_bytes));
  out->name.assign(name, strnlen(name, sizeof(name)));
  out->uuid = gpu_uuid_text(uuid_bytes);
  out->pci_bus_id = pci_bus_id_text(bus_id, sizeof(bus_id));
  out->cuda_device = device;
  return true;
}

}  // namespace npkit::capture
