#include "device_recorder/recorder_memory.hpp"

#include <algorithm>
#include <cstdlib>

#include "npkit/format.hpp"
#include "recorder/capture_settings.hpp"

namespace npkit::capture {

uint64_t buffer_size_mb_from_environment(std::vector<std::string>* warnings) {
  const CaptureSettings settings =
      parse_capture_settings(nullptr, std::getenv("NPKIT_BUFFER_SIZE_MB"), nullptr);
  if (warnings != nullptr) {
    warnings->insert(warnings->end(), settings.warnings.begin(), settings.warnings.end());
  }
  return settings.buffer_size_mb;
}

uint64_t records_per_buffer(uint64_t mb, uint64_t buffers) {
  if (buffers == 0) return 0;
  const uint64_t records = (mb << 20) / (buffers * sizeof(format::EventRecord));
  return std::clamp<uint64_t>(records, 1, kMaxRecordsPerBuffer);
}

}  // namespace npkit::capture
