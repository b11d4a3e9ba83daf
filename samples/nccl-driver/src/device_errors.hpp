// device_errors.hpp — turns failed CUDA runtime and NCCL calls into exceptions whose message names
// the call and the library's own explanation.
//
// Contract: DRIVER_CUDA(call) and DRIVER_NCCL(call, comm) evaluate `call` once and throw
// DriverError("<call text> failed: <error name>: <error string>[: <NCCL last error>]") unless it
// succeeded. Used only inside rank processes, whose entry point catches DriverError.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <stdexcept>
#include <string>

namespace npkit::driver {

class DriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  throw DriverError(std::string(call) + " failed: " + cudaGetErrorName(status) + ": " +
                    cudaGetErrorString(status));
}

inline void check_nccl(ncclResult_t status, const char* call, ncclComm_t comm) {
  if (status == ncclSuccess) return;
  std::string message = std::string(call) + " failed: " + ncclGetErrorString(status);
  const char* detail = ncclGetLastError(comm);
  if (detail != nullptr && detail[0] != '\0') message += std::string(": ") + detail;
  throw DriverError(message);
}

}  // namespace npkit::driver

#define DRIVER_CUDA(call) ::npkit::driver::check_cuda((call), #call)
#define DRIVER_NCCL(call, comm) ::npkit::driver::check_nccl((call), #call, (comm))
