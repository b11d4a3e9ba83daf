// write_event_dump: one rank's file of device and host event records (npkit/host.hpp).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "device_recorder/dump_event_names.hpp"
#include "npkit/host.hpp"
#include "npkit/version.hpp"
#include "recorder/capture_metadata.hpp"
#include "recorder/capture_settings.hpp"
#include "recorder/clock_note.hpp"
#include "recorder/dump_directory.hpp"
#include "recorder/dump_writer.hpp"
#include "recorder/host_clock.hpp"
#include "recorder/log_text.hpp"

namespace npkit {
namespace {

using capture::Metadata;

// The recorders' warnings go to stderr, as DeviceEventRecorder's do; they name paths and link
// targets, whose control characters are escaped (recorder/log_text.hpp).
void warn(const std::string& text) {
  std::fprintf(stderr, "npkit: %s\n", capture::escaped_for_log(text).c_str());
}

// Of `samples`, the one taken at `when` with the narrowest host bracket; false if none.
bool narrowest(const std::vector<format::ClockSample>& samples, uint32_t when,
               format::ClockSample* best) {
  bool found = false;
  for (const format::ClockSample& sample : samples) {
    if (sample.when != when) continue;
    if (!found ||
        sample.host_after_ns - sample.host_before_ns < best->host_after_ns - best->host_before_ns) {
      *best = sample;
      found = true;
    }
  }
  return found;
}

std::vector<format::ClockSample> clock_samples_of(const std::vector<GpuCapture>& gpus) {
  std::vector<format::ClockSample> all;
  for (const GpuCapture& gpu : gpus) {
    all.insert(all.end(), gpu.clock_samples.begin(), gpu.clock_samples.end());
  }
  std::vector<format::ClockSample> kept;
  for (uint32_t when : {format::kSampleAtInit, format::kSampleAtEnd}) {
    format::ClockSample best{};
    if (narrowest(all, when, &best)) kept.push_back(best);
  }
  return kept;
}

// "" when every capture of the file fits together, else why not.
std::string inconsistency(const RankEvents& events) {
  for (const GpuCapture& gpu : events.gpus) {
    if (gpu.cuda_device != events.gpus.front().cuda_device) {
      return "GPU captures of devices " + std::to_string(events.gpus.front().cuda_device) +
             " and " + std::to_string(gpu.cuda_device) + " in one rank's file";
    }
  }
  auto check_streams = [](const std::vector<CapturedStream>& streams) -> std::string {
    for (const CapturedStream& stream : streams) {
      if (stream.info.records_written != stream.records.size()) {
        return "stream '" + stream.name + "' says " + std::to_string(stream.info.records_written) +
               " records but holds " + std::to_string(stream.records.size());
      }
    }
    return "";
  };
  for (const GpuCapture& gpu : events.gpus) {
    if (std::string why = check_streams(gpu.streams); !why.empty()) return why;
  }
  for (const HostCapture& host : events.hosts) {
    if (std::string why = check_streams(host.streams); !why.empty()) return why;
  }
  return "";
}

Metadata metadata_of(const RankEvents& events, const std::string& directory, uint32_t unnamed) {
  Metadata out;
  capture::append_host_facts(&out);
  if (!events.identity.group_name.empty())
    out.emplace_back("comm_name", events.identity.group_name);
  std::string recorders;
  uint64_t buffer_size_mb = 0;
  if (!events.gpus.empty()) {
    const GpuCapture& gpu = events.gpus.front();
    out.insert(out.end(), gpu.facts.begin(), gpu.facts.end());
    recorders = "device";
    buffer_size_mb = gpu.buffer_size_mb;
    out.emplace_back("capture.records_per_buffer", std::to_string(gpu.records_per_buffer));
  }
  if (!events.hosts.empty()) {
    recorders += recorders.empty() ? "host" : ",host";
    if (buffer_size_mb == 0) buffer_size_mb = events.hosts.front().buffer_size_mb;
  }
  out.emplace_back("capture.recorders", recorders);
  out.emplace_back("capture.buffer_size_mb", std::to_string(buffer_size_mb));
  out.emplace_back("capture.dump_dir", directory);
  out.emplace_back("capture.plugin_version", NPKIT_VERSION_STRING);
  uint64_t without_buffer = 0;
  for (const GpuCapture& gpu : events.gpus) without_buffer += gpu.events_without_buffer;
  if (without_buffer != 0) {
    out.emplace_back("capture.events_without_buffer", std::to_string(without_buffer));
  }
  uint64_t without_stream = 0;
  for (const HostCapture& host : events.hosts) without_stream += host.events_without_stream;
  if (without_stream != 0) {
    out.emplace_back("capture.host_events_without_stream", std::to_string(without_stream));
  }
  if (unnamed != 0) out.emplace_back("capture.unnamed_event_ids", std::to_string(unnamed));
  std::vector<capture::ClockNote> notes;
  for (const GpuCapture& gpu : events.gpus) {
    for (const auto& [what, why] : gpu.notes) notes.push_back({what, why});
  }
  const std::string note = capture::clock_note_text(notes);
  if (!note.empty()) out.emplace_back("clock.note", note);
  capture::append_environment(&out);
  return out;
}

// Streams in file order (GPU captures, then host captures) with their names interned.
struct StreamTable {
  std::vector<const CapturedStream*> streams;
  std::vector<capture::EventStream> entries;
  std::vector<std::pair<uint16_t, std::string>> strings;
};

StreamTable stream_table(const RankEvents& events) {
  StreamTable table;
  for (const GpuCapture& gpu : events.gpus) {
    for (const CapturedStream& stream : gpu.streams) table.streams.push_back(&stream);
  }
  for (const HostCapture& host : events.hosts) {
    for (const CapturedStream& stream : host.streams) table.streams.push_back(&stream);
  }
  std::map<std::string, uint16_t> ids;
  for (const CapturedStream* stream : table.streams) {
    format::StreamInfo info = stream->info;
    info.name_string = 0;
    auto at = ids.find(stream->name);
    if (at == ids.end() && !stream->name.empty() && ids.size() < 0xFFFF) {
      at = ids.emplace(stream->name, static_cast<uint16_t>(ids.size() + 1)).first;
      table.strings.emplace_back(at->second, stream->name);
    }
    if (at != ids.end()) info.name_string = at->second;
    table.entries.push_back({info, stream->records.data()});
  }
  return table;
}

}  // namespace

bool write_event_dump(const std::string& directory, const RankEvents& events, std::string* path,
                      std::string* error) {
  if (std::string why = inconsistency(events); !why.empty()) {
    *error = "event dump not written: " + why;
    return false;
  }
  std::string dir = directory;
  if (dir.empty()) {
    const char* from_environment = std::getenv("NPKIT_DUMP_DIR");
    dir = from_environment != nullptr && *from_environment != '\0' ? from_environment
                                                                   : capture::kDefaultDumpDir;
  }
  std::string why_not;
  bool newly_opened = false;
  const std::shared_ptr<const capture::DumpDirectory> opened =
      capture::open_dump_directory(dir, &why_not, &newly_opened);
  if (opened == nullptr) {
    *error = "event dump not written: cannot use the dump directory: " + why_not;
    return false;
  }
  if (newly_opened && !opened->warning().empty()) warn(opened->warning());
  dir = opened->path();

  const StreamTable streams = stream_table(events);
  capture::DumpContent content;
  content.profiler_sections = false;
  content.event_sections = true;
  uint32_t unnamed = 0;
  content.event_names = capture::event_names_for_dump(events.names, streams.streams, &unnamed);
  content.event_streams = streams.entries;
  content.strings = streams.strings;
  content.clock_samples = clock_samples_of(events.gpus);
  content.metadata = metadata_of(events, dir, unnamed);

  format::CommunicatorInfo& comm = content.comm;
  comm.comm_hash = events.identity.group_hash;
  comm.rank = events.identity.rank;
  comm.nranks = events.identity.nranks;
  comm.nnodes = events.identity.nnodes;
  comm.pid = static_cast<int32_t>(getpid());
  const int64_t now = capture::host_now_ns();
  comm.capture_start_ns = now;
  for (const GpuCapture& gpu : events.gpus) {
    if (gpu.created_ns != 0 && gpu.created_ns < comm.capture_start_ns) {
      comm.capture_start_ns = gpu.created_ns;
    }
  }
  for (const HostCapture& host : events.hosts) {
    if (host.created_ns != 0 && host.created_ns < comm.capture_start_ns) {
      comm.capture_start_ns = host.created_ns;
    }
  }
  comm.capture_end_ns = now;
  comm.end_reason = format::kEndFinalize;
  comm.clock_method =
      content.clock_samples.empty() ? format::kClockNone : format::kClockKernelBracket;
  comm.host_clock = format::kHostClockRealtime;

  capture::WrittenDump written;
  if (!capture::write_dump_file(
          content, *opened,
          capture::communicator_dump_name(events.identity.group_hash, events.identity.rank),
          &written, error)) {
    return false;
  }
  if (!written.clash.empty()) warn(written.clash);
  if (path != nullptr) *path = written.path;
  return true;
}

}  // namespace npkit
