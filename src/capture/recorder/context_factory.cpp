#include "recorder/context_factory.hpp"

#include <unistd.h>

#include <memory>
#include <mutex>

#include "gpu/gpu_clock.hpp"
#include "recorder/capture_metadata.hpp"
#include "recorder/context_dump.hpp"
#include "recorder/dump_directory.hpp"
#include "recorder/host_clock.hpp"
#include "recorder/live_file.hpp"

namespace npkit::capture {
namespace {

std::mutex g_detached_mutex;

// The parts every context has: directory, buffer, capture settings and host facts.
std::unique_ptr<CaptureContext> new_context(const CaptureSettings& settings, uint32_t profiler_api,
                                            std::string* why_not) {
  bool newly_opened = false;
  std::shared_ptr<const DumpDirectory> directory =
      open_dump_directory(settings.dump_dir, why_not, &newly_opened);
  if (directory == nullptr) {
    *why_not = "cannot use the dump directory: " + *why_not;
    return nullptr;
  }
  auto context = std::make_unique<CaptureContext>();
  if (newly_opened && !directory->warning().empty()) {
    context->warnings.push_back(directory->warning());
  }
  context->directory = std::move(directory);
  context->pid = static_cast<int32_t>(getpid());
  context->profiler_api = profiler_api;
  context->event_mask = settings.event_mask;
  context->capture_start_ns = host_now_ns();
  return context;
}

void take_init_clock_sample(CaptureContext* context) {
  format::ClockSample sample{};
  std::string why_not;
  if (sample_gpu_clock(format::kSampleAtInit, &sample, &why_not)) {
    context->clock_samples.push_back(sample);
    return;
  }
  context->clock_notes.push_back({"no clock sample at init", why_not});
}

// Reserves the record buffer, in a live file where settings ask for one and it can be made (the
// "capture.live_file" metadata then says "on"; otherwise why not). False only when not even
// anonymous memory can be mapped.
bool reserve_buffer(CaptureContext* context, const CaptureSettings& settings,
                    std::string* why_not) {
  const uint64_t capacity = settings.buffer_records;
  if (settings.live_file) {
    std::string why_no_live;
    std::unique_ptr<LiveFile> live =
        LiveFile::create(context->directory, live_file_name(context->dump_name),
                         live_file_prefix(*context, capacity), capacity, &why_no_live);
    if (live != nullptr) {
      if (!live->clash().empty()) context->warnings.push_back(live->clash());
      LiveFile* file = live.get();
      if (context->buffer.reserve_live(std::move(live), capacity, &why_no_live)) {
        file->list();
        return true;
      }
    }
    for (auto& [key, value] : context->metadata) {
      if (key == "capture.live_file") value = "not written: " + why_no_live;
    }
    context->warnings.push_back("no live file for " + context->dump_name + " (" + why_no_live +
                                "): its records are kept in memory until the dump is written, "
                                "and are lost if the process dies first");
  }
  return context->buffer.reserve(capacity, why_not);
}

}  // namespace

CaptureContext* open_communicator_context(ContextRegistry& registry,
                                          const CommunicatorIdentity& identity,
                                          const CaptureSettings& settings,
                                          const void* address_in_nccl, std::string* why_not,
                                          const Metadata& extra_metadata) {
  std::unique_ptr<CaptureContext> context = new_context(settings, identity.profiler_api, why_not);
  if (context == nullptr) return nullptr;
  context->comm_hash = identity.comm_hash;
  context->rank = identity.rank;
  context->nranks = identity.nranks;
  context->nnodes = identity.nnodes;
  context->dump_name = communicator_dump_name(identity.comm_hash, identity.rank);
  const std::string& directory = context->directory->path();

  Metadata& metadata = context->metadata;
  append_host_facts(&metadata);
  if (identity.comm_name != nullptr) metadata.emplace_back("comm_name", identity.comm_name);
  append_gpu_facts(address_in_nccl, &metadata, &context->clock_notes);
  append_capture_settings(settings, directory, &metadata);
  metadata.insert(metadata.end(), extra_metadata.begin(), extra_metadata.end());
  append_environment(&metadata);
  take_init_clock_sample(context.get());
  if (!reserve_buffer(context.get(), settings, why_not)) return nullptr;

  if (!registry.add(context.get())) {
    *why_not = "too many communicators in this process (" +
               std::to_string(ContextRegistry::kSlots - 1) + ")";
    return nullptr;
  }
  return context.release();
}

CaptureContext* ensure_detached_context(ContextRegistry& registry,
                                        const CaptureSettings& communicator_settings,
                                        uint32_t profiler_api, std::string* why_not) {
  std::lock_guard<std::mutex> lock(g_detached_mutex);
  if (CaptureContext* existing = registry.at(ContextRegistry::kDetachedSlot)) return existing;
  // Every process has one and most record nothing into it: no live file, whose file would stay
  // behind empty.
  CaptureSettings settings = communicator_settings;
  settings.live_file = false;
  std::unique_ptr<CaptureContext> context = new_context(settings, profiler_api, why_not);
  if (context == nullptr) return nullptr;
  context->comm_hash = 0;
  context->rank = -1;
  context->dump_name = detached_dump_name(context->pid);
  const std::string& directory = context->directory->path();
  append_host_facts(&context->metadata);
  append_capture_settings(settings, directory, &context->metadata);
  append_environment(&context->metadata);
  context->clock_notes.push_back(
      {"no GPU identity or clock samples", "detached operations of other processes (PXN)"});
  if (!reserve_buffer(context.get(), settings, why_not)) return nullptr;
  if (!registry.set_detached(context.get())) return registry.at(ContextRegistry::kDetachedSlot);
  return context.release();
}

}  // namespace npkit::capture
