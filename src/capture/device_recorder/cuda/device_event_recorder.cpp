// DeviceEventRecorder: device buffers for kernels instrumented with npkit/device.cuh, through the
// CUDA runtime (npkit/host.hpp). Clock samples and the clock64 rate come from the capture core,
// which reaches the same (primary) context through the driver library.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>

#include "device_recorder/cycle_rate.hpp"
#include "device_recorder/recorder_memory.hpp"
#include "gpu/gpu_clock.hpp"
#include "npkit/host.hpp"
#include "recorder/host_clock.hpp"
#include "recorder/log_text.hpp"

namespace npkit {
namespace {

std::string cuda_failure(const char* call, cudaError_t status) {
  return std::string(call) + " failed: " + cudaGetErrorString(status) + " (" +
         std::to_string(static_cast<int>(status)) + ")";
}

// enter() makes `device` current; the destructor gives the caller its device back.
class DeviceScope {
 public:
  DeviceScope() = default;
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  ~DeviceScope() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }

  bool enter(int device, std::string* error) {
    int previous = -1;
    if (cudaError_t status = cudaGetDevice(&previous); status != cudaSuccess) {
      *error = cuda_failure("cudaGetDevice", status);
      return false;
    }
    if (cudaError_t status = cudaSetDevice(device); status != cudaSuccess) {
      *error = cuda_failure("cudaSetDevice", status);
      return false;
    }
    previous_ = previous;
    return true;
  }

 private:
  int previous_ = -1;
};

// One clock sample and one rate measurement of the current device; what fails becomes a note.
void calibrate(format::ClockSampleTime when, std::vector<format::ClockSample>* samples,
               uint64_t* cycles_per_second, GpuCapture* notes_to) {
  const char* moment = when == format::kSampleAtInit ? "at creation" : "at capture";
  format::ClockSample sample{};
  std::string why_not;
  if (capture::sample_gpu_clock(when, &sample, &why_not)) {
    samples->push_back(sample);
  } else {
    notes_to->notes.emplace_back(std::string("no clock sample ") + moment, why_not);
  }
  if (!capture::measure_cycle_rate(kCycleRateWindowNs, cycles_per_second, &why_not)) {
    *cycles_per_second = 0;
    notes_to->notes.emplace_back(std::string("no clock64 rate ") + moment, why_not);
  }
}

}  // namespace

uint32_t DeviceEventRecorder::buffer_count() const {
  return handle_.block_buffers + handle_.warp_blocks * handle_.warps_per_block;
}

std::unique_ptr<DeviceEventRecorder> DeviceEventRecorder::create(const Options& options,
                                                                 std::string* error) {
  if (options.blocks == 0 || (!options.block_buffers && options.warps_per_block == 0)) {
    *error = "DeviceEventRecorder: no buffers asked for (blocks " + std::to_string(options.blocks) +
             ", block_buffers " + (options.block_buffers ? "on" : "off") + ", warps_per_block " +
             std::to_string(options.warps_per_block) + ")";
    return nullptr;
  }
  if (options.warps_per_block > 32) {
    *error = "DeviceEventRecorder: warps_per_block " + std::to_string(options.warps_per_block) +
             " is more than a block of 1024 threads has";
    return nullptr;
  }
  std::unique_ptr<DeviceEventRecorder> recorder(new DeviceEventRecorder);
  recorder->options_ = options;
  int device = options.cuda_device;
  if (device < 0) {
    if (cudaError_t status = cudaGetDevice(&device); status != cudaSuccess) {
      *error = cuda_failure("cudaGetDevice", status);
      return nullptr;
    }
  }
  recorder->device_ = device;
  DeviceScope scope;
  if (!scope.enter(device, error)) return nullptr;

  DeviceRecorder& handle = recorder->handle_;
  handle.block_buffers = options.block_buffers ? options.blocks : 0;
  handle.warp_blocks = options.warps_per_block != 0 ? options.blocks : 0;
  handle.warps_per_block = options.warps_per_block;
  const uint64_t buffers = recorder->buffer_count();
  GpuCapture& created = recorder->at_creation_;
  std::vector<std::string> warnings;
  created.buffer_size_mb = capture::buffer_size_mb_from_environment(&warnings);
  for (const std::string& warning : warnings) {
    std::fprintf(stderr, "npkit: %s\n", capture::escaped_for_log(warning).c_str());
  }
  const uint64_t capacity =
      options.records_per_buffer != 0
          ? std::min(options.records_per_buffer, capture::kMaxRecordsPerBuffer)
          : capture::records_per_buffer(created.buffer_size_mb, buffers);
  handle.capacity = static_cast<uint32_t>(capacity);
  created.records_per_buffer = capacity;

  void* records = nullptr;
  const size_t record_bytes = buffers * capacity * sizeof(format::EventRecord);
  if (cudaError_t status = cudaMalloc(&records, record_bytes); status != cudaSuccess) {
    *error = cuda_failure("cudaMalloc", status) + " for " + std::to_string(record_bytes) +
             " bytes of event records";
    return nullptr;
  }
  handle.records = static_cast<format::EventRecord*>(records);
  void* states = nullptr;
  if (cudaError_t status = cudaMalloc(&states, (buffers + 1) * sizeof(unsigned long long));
      status != cudaSuccess) {
    *error = cuda_failure("cudaMalloc", status) + " for the buffer counters";
    return nullptr;
  }
  handle.states = static_cast<unsigned long long*>(states);
  handle.unbuffered = handle.states + buffers;
  if (!recorder->reset(error)) return nullptr;

  capture::GpuIdentity identity;
  std::string why_not;
  if (capture::identify_current_gpu(&identity, &why_not)) {
    created.facts = {{"gpu.name", identity.name},
                     {"gpu.uuid", identity.uuid},
                     {"gpu.pci_bus_id", identity.pci_bus_id},
                     {"gpu.cuda_device", std::to_string(identity.cuda_device)}};
  } else {
    created.notes.emplace_back("GPU not identified", why_not);
  }
  calibrate(format::kSampleAtInit, &created.clock_samples,
            &recorder->cycles_per_second_at_creation_, &created);
  created.cuda_device = device;
  created.created_ns = capture::host_now_ns();
  return recorder;
}

DeviceEventRecorder::~DeviceEventRecorder() {
  if (handle_.records == nullptr && handle_.states == nullptr) return;
  DeviceScope scope;
  std::string ignored;
  if (!scope.enter(device_, &ignored)) return;
  if (handle_.records != nullptr) cudaFree(handle_.records);
  if (handle_.states != nullptr) cudaFree(handle_.states);
}

bool DeviceEventRecorder::reset(std::string* error) {
  DeviceScope scope;
  if (!scope.enter(device_, error)) return false;
  const size_t bytes = (buffer_count() + 1) * sizeof(unsigned long long);
  if (cudaError_t status = cudaMemset(handle_.states, 0, bytes); status != cudaSuccess) {
    *error = cuda_failure("cudaMemset", status);
    return false;
  }
  if (cudaError_t status = cudaDeviceSynchronize(); status != cudaSuccess) {
    *error = cuda_failure("cudaDeviceSynchronize", status);
    return false;
  }
  return true;
}

bool DeviceEventRecorder::capture(GpuCapture* out, std::string* error) {
  DeviceScope scope;
  if (!scope.enter(device_, error)) return false;
  if (cudaError_t status = cudaDeviceSynchronize(); status != cudaSuccess) {
    *error = cuda_failure("cudaDeviceSynchronize", status);
    return false;
  }
  const uint32_t buffers = buffer_count();
  std::vector<unsigned long long> states(buffers + 1);
  if (cudaError_t status =
          cudaMemcpy(states.data(), handle_.states, states.size() * sizeof(unsigned long long),
                     cudaMemcpyDeviceToHost);
      status != cudaSuccess) {
    *error = cuda_failure("cudaMemcpy", status) + " of the buffer counters";
    return false;
  }
  GpuCapture captured = at_creation_;
  uint64_t cycles_at_capture = 0;
  calibrate(format::kSampleAtEnd, &captured.clock_samples, &cycles_at_capture, &captured);
  const uint64_t rates = (cycles_per_second_at_creation_ != 0) + (cycles_at_capture != 0);
  const uint64_t cycles_per_second =
      rates == 0 ? 0 : (cycles_per_second_at_creation_ + cycles_at_capture) / rates;
  if (cycles_per_second_at_creation_ != 0) {
    captured.facts.emplace_back("clock.cycles_per_second_at_creation",
                                std::to_string(cycles_per_second_at_creation_));
  }
  if (cycles_at_capture != 0) {
    captured.facts.emplace_back("clock.cycles_per_second_at_capture",
                                std::to_string(cycles_at_capture));
  }
  captured.events_without_buffer = states[buffers];
  bool cycle_streams_without_rate = false;

  for (uint32_t buffer = 0; buffer < buffers; ++buffer) {
    const unsigned long long state = states[buffer];
    const uint64_t attempted = state & kStateAttemptedMask;
    if (attempted == 0) continue;
    const bool global_timer = (state & kStateClockGlobalTimer) != 0;
    const bool cycles = (state & kStateClockCycles) != 0;
    if (global_timer && cycles) {
      *error = "buffer " + std::to_string(buffer) +
               " holds both %globaltimer and clock64 records: kernels built with and without "
               "NPKIT_CLOCK_CYCLES share this recorder";
      return false;
    }
    CapturedStream stream;
    format::StreamInfo& info = stream.info;
    const bool warp = buffer >= handle_.block_buffers;
    const uint32_t index = warp ? buffer - handle_.block_buffers : buffer;
    info.source = warp ? format::kStreamGpuWarp : format::kStreamGpuBlock;
    info.clock = cycles ? format::kStreamClockCycles : format::kStreamClockGlobalTimer;
    info.cuda_device = device_;
    info.block = warp ? index / handle_.warps_per_block : index;
    info.warp = warp ? index % handle_.warps_per_block : 0;
    info.records_written = std::min<uint64_t>(attempted, handle_.capacity);
    info.records_dropped = attempted - info.records_written;
    info.capacity = handle_.capacity;
    info.cycles_per_second = cycles ? cycles_per_second : 0;
    stream.name = options_.name;
    stream.records.resize(info.records_written);
    if (cudaError_t status =
            cudaMemcpy(stream.records.data(),
                       handle_.records + static_cast<uint64_t>(buffer) * handle_.capacity,
                       info.records_written * sizeof(format::EventRecord), cudaMemcpyDeviceToHost);
        status != cudaSuccess) {
      *error = cuda_failure("cudaMemcpy", status) + " of buffer " + std::to_string(buffer);
      return false;
    }
    cycle_streams_without_rate |= cycles && cycles_per_second == 0;
    captured.streams.push_back(std::move(stream));
  }
  if (cycle_streams_without_rate) {
    captured.notes.emplace_back("clock64 streams without a measured rate",
                                "no clock64 rate measurement succeeded");
  }
  *out = std::move(captured);
  return true;
}

}  // namespace npkit
