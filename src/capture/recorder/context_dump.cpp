#include "recorder/context_dump.hpp"

#include <unistd.h>

#include <algorithm>

#include "recorder/dump_writer.hpp"
#include "recorder/host_clock.hpp"
#include "recorder/string_interner.hpp"
#include "recorder/thread_registry.hpp"

namespace npkit::capture {
namespace {

// The published records in time order (host clock, then claim order): threads record into
// segments of their own, so claim order alone interleaves them by segment. Incomplete records are
// left out (the dump writes them as zero records at the end).
std::vector<uint64_t> records_in_time_order(const RecordBuffer::Closed& closed) {
  std::vector<uint64_t> order;
  order.reserve(closed.count - closed.incomplete.size());
  size_t next_incomplete = 0;
  for (const RecordBuffer::Range& range : closed.ranges) {
    for (uint64_t i = range.begin; i < range.end; ++i) {
      if (next_incomplete < closed.incomplete.size() && closed.incomplete[next_incomplete] == i) {
        ++next_incomplete;
        continue;
      }
      order.push_back(i);
    }
  }
  const format::ProfilerRecord* records = closed.records;
  auto earlier = [records](uint64_t a, uint64_t b) {
    return records[a].host_ns != records[b].host_ns ? records[a].host_ns < records[b].host_ns
                                                    : a < b;
  };
  if (!std::is_sorted(order.begin(), order.end(), earlier)) {
    std::sort(order.begin(), order.end(), earlier);
  }
  return order;
}

// The registered threads that wrote one of `order`'s records, ascending slots.
std::vector<format::ThreadEntry> threads_of(const format::ProfilerRecord* records,
                                            const std::vector<uint64_t>& order) {
  std::vector<bool> used(ThreadRegistry::kCapacity, false);
  for (uint64_t index : order) {
    const uint16_t slot = records[index].thread;
    if (slot < ThreadRegistry::kCapacity) used[slot] = true;
  }
  std::vector<format::ThreadEntry> threads;
  for (uint32_t slot = 0; slot < ThreadRegistry::kCapacity; ++slot) {
    format::ThreadEntry entry{};
    if (used[slot] && process_thread_registry().entry(static_cast<uint16_t>(slot), &entry)) {
      threads.push_back(entry);
    }
  }
  return threads;
}

// The parts of a dump that do not depend on the records: identity, metadata, clock samples.
DumpContent describe_context(const CaptureContext& context,
                             const std::vector<format::ClockSample>& end_samples,
                             const std::vector<ClockNote>& end_notes) {
  DumpContent content;
  content.clock_samples = context.clock_samples;
  content.clock_samples.insert(content.clock_samples.end(), end_samples.begin(), end_samples.end());
  content.metadata = context.metadata;
  std::vector<ClockNote> notes = context.clock_notes;
  notes.insert(notes.end(), end_notes.begin(), end_notes.end());
  const std::string note = clock_note_text(notes);
  if (!note.empty()) content.metadata.emplace_back("clock.note", note);

  format::CommunicatorInfo& comm = content.comm;
  comm.comm_hash = context.comm_hash;
  comm.rank = context.rank;
  comm.nranks = context.nranks;
  comm.nnodes = context.nnodes;
  comm.pid = context.pid;
  comm.capture_start_ns = context.capture_start_ns;
  comm.clock_method =
      content.clock_samples.empty() ? format::kClockNone : format::kClockKernelBracket;
  comm.profiler_api = context.profiler_api;
  comm.host_clock = format::kHostClockRealtime;
  comm.event_mask = context.event_mask;
  return content;
}

// "capture.live_file" as the dump tells it: the live file's fate, when it had one.
void note_live_file(const CaptureContext& context, DumpContent* content) {
  const std::string& stopped = context.buffer.live_stop_reason();
  if (stopped.empty()) return;
  for (auto& [key, value] : content->metadata) {
    if (key == "capture.live_file") value = stopped;
  }
}

// Where the records are when the dump could not be written: in the live file as far as it grew,
// the rest lost.
std::string records_left(const CaptureContext& context, const RecordBuffer::Closed& closed) {
  const std::string total = std::to_string(closed.count);
  const LiveFile* live = context.buffer.live_file();
  if (live == nullptr) return "; its " + total + " records are lost (no live file)";
  const uint64_t end = context.buffer.live_records_end();
  uint64_t in_file = 0;
  for (const RecordBuffer::Range& range : closed.ranges) {
    if (range.begin < end) in_file += std::min(range.end, end) - range.begin;
  }
  if (in_file == closed.count) return "; all " + total + " records are in " + live->path();
  return "; " + std::to_string(in_file) + " of " + total + " records are in " + live->path() +
         "; the rest are lost: the live file " + context.buffer.live_stop_reason();
}

}  // namespace

DumpContent live_file_prefix(const CaptureContext& context, uint64_t capacity) {
  DumpContent content = describe_context(context, {}, {});
  content.comm.end_reason = format::kEndLive;
  content.comm.records_capacity = capacity;
  return content;
}

DumpResult dump_context(CaptureContext& context, format::EndReason reason,
                        const std::vector<format::ClockSample>& end_samples,
                        const std::vector<ClockNote>& end_notes) {
  DumpResult result;
  result.path = context.directory->file_path(context.dump_name);
  if (context.dump_taken.exchange(true, std::memory_order_acq_rel)) return result;

  const int64_t end_ns = host_now_ns();
  RecordBuffer::Closed closed;
  if (!context.buffer.close(kDumpWaitBudget, &closed)) return result;

  DumpContent content = describe_context(context, end_samples, end_notes);
  note_live_file(context, &content);
  content.strings = process_string_interner().snapshot();
  content.records = closed.records;
  content.record_order = records_in_time_order(closed);
  content.zero_records = closed.incomplete.size();
  content.threads = threads_of(content.records, content.record_order);

  format::CommunicatorInfo& comm = content.comm;
  comm.capture_end_ns = end_ns;
  comm.end_reason = reason;
  comm.records_capacity = context.buffer.capacity();
  comm.records_attempted = closed.attempted;
  comm.records_dropped = closed.dropped;
  comm.records_incomplete = closed.incomplete.size();
  comm.events_after_dump = context.buffer.claims_after_close();

  WrittenDump written;
  result.status =
      write_dump_file(content, *context.directory, context.dump_name, &written, &result.error)
          ? DumpResult::kWritten
          : DumpResult::kFailed;
  if (result.status == DumpResult::kWritten) result.path = written.path;
  result.warning = written.clash;
  // The dump holds every record: the live file goes. When it could not be written, the live
  // file is what is left of the records, and stays.
  if (result.status == DumpResult::kFailed) result.error += records_left(context, closed);
  context.buffer.end_live_file(result.status == DumpResult::kFailed);
  context.buffer.release(closed);
  return result;
}

std::vector<DumpResult> dump_live_contexts(ContextRegistry& registry, format::EndReason reason) {
  std::vector<DumpResult> results;
  const int32_t pid = static_cast<int32_t>(getpid());
  for (CaptureContext* context : registry.all()) {
    if (context->pid != pid || context->dump_taken.load(std::memory_order_acquire)) continue;
    if (context->slot == ContextRegistry::kDetachedSlot && context->buffer.claimed() == 0) {
      continue;
    }
    DumpResult result = dump_context(*context, reason, {}, {});
    if (result.status != DumpResult::kAlreadyTaken) results.push_back(std::move(result));
  }
  return results;
}

}  // namespace npkit::capture
