#include "gpu/gpu_identity_text.hpp"

#include <cctype>
#include <cstring>

namespace npkit::capture {

std::string gpu_uuid_text(const unsigned char (&bytes)[16]) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kHex[bytes[i] >> 4];
    text += kHex[bytes[i] & 0xf];
  }
  return text;
}

std::string pci_bus_id_text(const char* driver_text, size_t capacity) {
  std::string text(driver_text, strnlen(driver_text, capacity));
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace npkit::capture
