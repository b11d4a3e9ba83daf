#include "gpu/gpu_identity_text.hpp"

#include <catch2/catch.hpp>

using npkit::capture::gpu_uuid_text;
using npkit::capture::pci_bus_id_text;

TEST_CASE("gpu uuid text: GPU- and 8-4-4-4-12 lower-case hex, byte 0 first", "[gpu]") {
  const unsigned char bytes[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                   0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
  CHECK(gpu_uuid_text(bytes) == "GPU-00112233-4455-6677-8899-aabbccddeeff");
  const unsigned char ones[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF,
                                  0xFE, 0xDC, 0xBA, 0x98, 0x76, 0x54, 0x32, 0x10};
  CHECK(gpu_uuid_text(ones) == "GPU-01234567-89ab-cdef-fedc-ba9876543210");
}

TEST_CASE("gpu pci bus id text: lower case, ends at the NUL or the buffer's end", "[gpu]") {
  const char upper[16] = "0000:3B:00.0";
  CHECK(pci_bus_id_text(upper, sizeof(upper)) == "0000:3b:00.0");
  const char lower[16] = "0000:19:00.0";
  CHECK(pci_bus_id_text(lower, sizeof(lower)) == "0000:19:00.0");
  const char unterminated[7] = {'0', '0', '0', '0', ':', 'A', 'B'};
  CHECK(pci_bus_id_text(unterminated, sizeof(unterminated)) == "0000:ab");
}
