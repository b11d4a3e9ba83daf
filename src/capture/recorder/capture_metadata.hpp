// recorder/capture_metadata.hpp — the text facts a dump carries besides its records
// (format.hpp lists the keys of Metadata v1).
//
// Contract: each function appends (key, value) pairs to *out and never fails; a fact that cannot
// be learned is left out (GPU identity, NCCL version) or explained in *notes.
// - append_host_facts: hostname.
// - append_gpu_facts: gpu.name, gpu.uuid, gpu.pci_bus_id, gpu.cuda_device of the calling thread's
//   current CUDA context, and nccl.version of the NCCL library containing `address_in_nccl`
//   (gpu/gpu_clock.hpp; costs up to milliseconds). When the GPU is not identified, a note says why.
// - append_capture_settings: capture.events, capture.buffer_size_mb, capture.dump_dir,
//   capture.plugin_version, and append_sample_setting's keys.
// - append_sample_setting: with NPKIT_SAMPLE on, capture.sample (the setting, "1/100" or
//   "10ms/10s") and capture.sampled_events (the groups only sampled operations get, e.g.
//   "kernel,proxy,net"); nothing with sampling off.
// - append_environment: env.<NAME> for every NCCL_* and NPKIT_* variable, sorted by name.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "recorder/capture_settings.hpp"
#include "recorder/clock_note.hpp"

namespace npkit::capture {

using Metadata = std::vector<std::pair<std::string, std::string>>;

void append_host_facts(Metadata* out);
void append_gpu_facts(const void* address_in_nccl, Metadata* out, std::vector<ClockNote>* notes);
void append_capture_settings(const CaptureSettings& settings, const std::string& dump_dir,
                             Metadata* out);
void append_sample_setting(const CaptureSettings& settings, Metadata* out);
void append_environment(Metadata* out);

}  // namespace npkit::capture
