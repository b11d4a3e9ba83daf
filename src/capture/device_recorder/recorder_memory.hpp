// device_recorder/recorder_memory.hpp — how many records each buffer of an event recorder holds.
//
// Contract:
// - buffer_size_mb_from_environment(): NPKIT_BUFFER_SIZE_MB as the NCCL plugin reads it
//   (recorder/capture_settings.hpp: a whole number of MiB in [1, 1048576], default 64); a bad value
//   gives the default and one warning line in *warnings (may be null).
// - records_per_buffer(mb, buffers): the records of 24 bytes that `buffers` equal buffers hold in
//   `mb` MiB together, at least 1 and at most kMaxRecordsPerBuffer; 0 buffers give 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npkit::capture {

inline constexpr uint64_t kMaxRecordsPerBuffer = 0xFFFFFFFFull;  // DeviceRecorder::capacity is u32

uint64_t buffer_size_mb_from_environment(std::vector<std::string>* warnings);
uint64_t records_per_buffer(uint64_t mb, uint64_t buffers);

}  // namespace npkit::capture
