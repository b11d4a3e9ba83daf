#include "recorder/capture_metadata.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "gpu/gpu_clock.hpp"
#include "npkit/version.hpp"

extern char** environ;

namespace npkit::capture {

void append_host_facts(Metadata* out) {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) out->emplace_back("hostname", host);
}

void append_gpu_facts(const void* address_in_nccl, Metadata* out, std::vector<ClockNote>* notes) {
  GpuIdentity gpu;
  std::string why_not;
  if (identify_current_gpu(&gpu, &why_not)) {
    out->emplace_back("gpu.name", gpu.name);
    out->emplace_back("gpu.uuid", gpu.uuid);
    out->emplace_back("gpu.pci_bus_id", gpu.pci_bus_id);
    out->emplace_back("gpu.cuda_device", std::to_string(gpu.cuda_device));
  } else {
    notes->push_back({"GPU not identified", why_not});
  }
  const std::string version = nccl_version_containing(address_in_nccl);
  if (!version.empty()) out->emplace_back("nccl.version", version);
}

void append_capture_settings(const CaptureSettings& settings, const std::string& dump_dir,
                             Metadata* out) {
  out->emplace_back("capture.events", settings.events);
  out->emplace_back("capture.buffer_size_mb", std::to_string(settings.buffer_size_mb));
  out->emplace_back("capture.dump_dir", dump_dir);
  out->emplace_back("capture.live_file", settings.live_file ? "on" : "off");
  out->emplace_back("capture.plugin_version", NPKIT_VERSION_STRING);
  append_sample_setting(settings, out);
}

void append_sample_setting(const CaptureSettings& settings, Metadata* out) {
  if (settings.sample.mode == SampleSetting::Mode::kOff) return;
  out->emplace_back("capture.sample", settings.sample.text);
  std::string groups;
  for (const auto& [word, mask] : {std::pair<const char*, uint64_t>{"kernel", kEventKernelCh},
                                   {"proxy", kEventProxyOp | kEventProxyStep},
                                   {"net", kEventNetPlugin},
                                   {"phase", kEventKernelPhase}}) {
    if ((settings.event_mask & mask) == 0) continue;
    groups += (groups.empty() ? "" : ",") + std::string(word);
  }
  out->emplace_back("capture.sampled_events", groups);
}

void append_environment(Metadata* out) {
  Metadata variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const char* text = *entry;
    if (std::strncmp(text, "NCCL_", 5) != 0 && std::strncmp(text, "NPKIT_", 6) != 0) continue;
    const char* equals = std::strchr(text, '=');
    if (equals == nullptr) continue;
    variables.emplace_back("env." + std::string(text, equals), std::string(equals + 1));
  }
  std::sort(variables.begin(), variables.end());
  out->insert(out->end(), variables.begin(), variables.end());
}

}  // namespace npkit::capture
