#include "recorder/context_factory.hpp"

#include <unistd.h>

#include <memory>
#include <mutex>

#include "gpu/gpu_clock.hpp"
#include "recorder/capture_metadata.hpp"
#include "recorder/dump_directory.hpp"
#include "recorder/host_clock.hpp"

namespace npkit::capture {
namespace {

std::mutex g_detached_mutex;

// The parts every context has: directory, buffer, capture settings and host facts.
std::unique_ptr<CaptureContext> new_context(const CaptureSettings& settings, uint32_t profiler_api,
                                            std::string* directory, std::string* why_not) {
  *directory = absolute_directory(settings.dump_dir);
  if (directory->empty()) {
    *why_not = "cannot resolve the dump directory '" + settings.dump_dir +
               "' (working directory unreadable)";
    return nullptr;
  }
  if (!make_directories(*directory, why_not)) {
    *why_not = "cannot create the dump directory " + *directory + ": " + *why_not;
    return nullptr;
  }
  auto context = std::make_unique<CaptureContext>();
  if (!context->buffer.reserve(settings.buffer_records, why_not)) return nullptr;
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

}  // namespace

CaptureContext* open_communicator_context(ContextRegistry& registry,
                                          const CommunicatorIdentity& identity,
                                          const CaptureSettings& settings,
                                          const void* address_in_nccl, std::string* why_not) {
  std::string directory;
  std::unique_ptr<CaptureContext> context =
      new_context(settings, identity.profiler_api, &directory, why_not);
  if (context == nullptr) return nullptr;
  context->comm_hash = identity.comm_hash;
  context->rank = identity.rank;
  context->nranks = identity.nranks;
  context->nnodes = identity.nnodes;
  context->dump_path = directory + "/" + communicator_dump_name(identity.comm_hash, identity.rank);

  Metadata& metadata = context->metadata;
  append_host_facts(&metadata);
  if (identity.comm_name != nullptr) metadata.emplace_back("comm_name", identity.comm_name);
  append_gpu_facts(address_in_nccl, &metadata, &context->clock_notes);
  append_capture_settings(settings, directory, &metadata);
  append_environment(&metadata);
  take_init_clock_sample(context.get());

  if (!registry.add(context.get())) {
    *why_not = "too many communicators in this process (" +
               std::to_string(ContextRegistry::kSlots - 1) + ")";
    return nullptr;
  }
  return context.release();
}

CaptureContext* ensure_detached_context(ContextRegistry& registry, const CaptureSettings& settings,
                                        uint32_t profiler_api, std::string* why_not) {
  std::lock_guard<std::mutex> lock(g_detached_mutex);
  if (CaptureContext* existing = registry.at(ContextRegistry::kDetachedSlot)) return existing;
  std::string directory;
  std::unique_ptr<CaptureContext> context =
      new_context(settings, profiler_api, &directory, why_not);
  if (context == nullptr) return nullptr;
  context->comm_hash = 0;
  context->rank = -1;
  context->dump_path = directory + "/" + detached_dump_name(context->pid);
  append_host_facts(&context->metadata);
  append_capture_settings(settings, directory, &context->metadata);
  append_environment(&context->metadata);
  context->clock_notes.push_back(
      {"no GPU identity or clock samples", "detached operations of other processes (PXN)"});
  if (!registry.set_detached(context.get())) return registry.at(ContextRegistry::kDetachedSlot);
  return context.release();
}

}  // namespace npkit::capture
