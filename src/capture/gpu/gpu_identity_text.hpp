// gpu/gpu_identity_text.hpp — how the capture side writes a GPU's identity as text (the forms
// nvidia-smi and NCCL print), kept apart from the driver calls so it can be checked without a GPU.
//
// Contract:
// - gpu_uuid_text: "GPU-" + the 16 bytes as lower-case hex in 8-4-4-4-12 groups, byte 0 first.
// - pci_bus_id_text: the driver's "domain:bus:device.function" text (e.g. "0000:19:00.0"), up to
//   the first NUL or `capacity` bytes, hex digits in lower case (the sysfs / NCCL spelling).
#pragma once

#include <cstddef>
#include <string>

namespace npkit::capture {

std::string gpu_uuid_text(const unsigned char (&bytes)[16]);

std::string pci_bus_id_text(const char* driver_text, size_t capacity);

}  // namespace npkit::capture
