#include "recorder/dump_writer.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "recorder/buffered_file.hpp"
#include "recorder/event_names.hpp"
#include "recorder/file_size_signal.hpp"
#include "recorder/new_file.hpp"

namespace npkit::capture {
namespace {

uint64_t padded(uint64_t size) {
  return (size + 7) & ~uint64_t{7};
}

// One section's header fields, computed before anything is written.
struct SectionPlan {
  uint32_t kind;
  uint32_t entry_size;
  uint64_t payload_size;
};

uint64_t metadata_bytes(const DumpContent& content) {
  uint64_t bytes = 0;
  for (const auto& [key, value] : content.metadata) {
    bytes += sizeof(format::MetadataEntry) + key.size() + value.size();
  }
  return bytes;
}

uint64_t names_bytes() {
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < kEventTypeCount; ++i) {
    bytes += sizeof(format::NameEntry) + std::strlen(event_type_name(i));
  }
  for (uint32_t s = 0; s < kStateCount; ++s) {
    bytes += sizeof(format::NameEntry) + std::strlen(state_name(s));
  }
  return bytes;
}

uint64_t strings_bytes(const DumpContent& content) {
  uint64_t bytes = 0;
  for (const auto& entry : content.strings) {
    bytes += sizeof(format::StringEntry) + entry.second.size();
  }
  return bytes;
}

uint64_t event_names_bytes(const DumpContent& content) {
  uint64_t bytes = 0;
  for (const EventName& name : content.event_names) {
    bytes += sizeof(format::EventNameEntry) + name.name.size() + name.phase.size();
  }
  return bytes;
}

uint64_t event_record_count(const DumpContent& content) {
  uint64_t count = 0;
  for (const EventStream& stream : content.event_streams) count += stream.info.records_written;
  return count;
}

std::vector<SectionPlan> plan_sections(const DumpContent& content, const LiveLayout* live) {
  std::vector<SectionPlan> plan;
  plan.push_back({format::kSectionCommunicator, sizeof(format::CommunicatorInfo),
                  sizeof(format::CommunicatorInfo)});
  plan.push_back({format::kSectionMetadata, 0, metadata_bytes(content)});
  if (!content.clock_samples.empty()) {
    plan.push_back({format::kSectionClockSamples, sizeof(format::ClockSample),
                    content.clock_samples.size() * sizeof(format::ClockSample)});
  }
  if (content.profiler_sections) plan.push_back({format::kSectionNames, 0, names_bytes()});
  if (live != nullptr) {
    plan.push_back({format::kSectionLiveStrings, sizeof(format::LiveStringEntry),
                    uint64_t{live->string_slots} * sizeof(format::LiveStringEntry)});
    plan.push_back({format::kSectionThreads, sizeof(format::ThreadEntry),
                    uint64_t{live->thread_slots} * sizeof(format::ThreadEntry)});
    plan.push_back({format::kSectionProfilerRecords, sizeof(format::ProfilerRecord),
                    live->record_capacity * sizeof(format::ProfilerRecord)});
    return plan;
  }
  plan.push_back({format::kSectionStrings, 0, strings_bytes(content)});
  if (content.profiler_sections) {
    plan.push_back({format::kSectionThreads, sizeof(format::ThreadEntry),
                    content.threads.size() * sizeof(format::ThreadEntry)});
    plan.push_back(
        {format::kSectionProfilerRecords, sizeof(format::ProfilerRecord),
         (content.record_order.size() + content.zero_records) * sizeof(format::ProfilerRecord)});
  }
  if (content.event_sections) {
    plan.push_back({format::kSectionEventNames, 0, event_names_bytes(content)});
    plan.push_back({format::kSectionStreams, sizeof(format::StreamInfo),
                    content.event_streams.size() * sizeof(format::StreamInfo)});
    plan.push_back({format::kSectionEventRecords, sizeof(format::EventRecord),
                    event_record_count(content) * sizeof(format::EventRecord)});
  }
  return plan;
}

template <typename Sink>
void append_name(Sink& file, uint32_t domain, uint32_t id, const char* name) {
  format::NameEntry entry{};
  entry.domain = domain;
  entry.id = id;
  entry.name_size = static_cast<uint32_t>(std::strlen(name));
  file.append(&entry, sizeof(entry));
  file.append(name, entry.name_size);
}

template <typename Sink>
void append_payload(Sink& file, const DumpContent& content, uint32_t kind) {
  switch (kind) {
    case format::kSectionCommunicator:
      file.append(&content.comm, sizeof(content.comm));
      break;
    case format::kSectionMetadata:
      for (const auto& [key, value] : content.metadata) {
        const format::MetadataEntry entry{static_cast<uint32_t>(key.size()),
                                          static_cast<uint32_t>(value.size())};
        file.append(&entry, sizeof(entry));
        file.append(key.data(), key.size());
        file.append(value.data(), value.size());
      }
      break;
    case format::kSectionClockSamples:
      file.append(content.clock_samples.data(),
                  content.clock_samples.size() * sizeof(format::ClockSample));
      break;
    case format::kSectionNames:
      for (uint32_t i = 0; i < kEventTypeCount; ++i) {
        append_name(file, format::kNameEventType, i, event_type_name(i));
      }
      for (uint32_t s = 0; s < kStateCount; ++s) {
        append_name(file, format::kNameState, s, state_name(s));
      }
      break;
    case format::kSectionStrings:
      for (const auto& [id, text] : content.strings) {
        const format::StringEntry entry{id, static_cast<uint32_t>(text.size())};
        file.append(&entry, sizeof(entry));
        file.append(text.data(), text.size());
      }
      break;
    case format::kSectionThreads:
      file.append(content.threads.data(), content.threads.size() * sizeof(format::ThreadEntry));
      break;
    case format::kSectionProfilerRecords:
      for (uint64_t index : content.record_order) {
        file.append(content.records + index, sizeof(format::ProfilerRecord));
      }
      file.append_zeros(content.zero_records * sizeof(format::ProfilerRecord));
      break;
    case format::kSectionEventNames:
      for (const EventName& name : content.event_names) {
        const format::EventNameEntry entry{name.id, name.kind,
                                           static_cast<uint32_t>(name.name.size()),
                                           static_cast<uint32_t>(name.phase.size())};
        file.append(&entry, sizeof(entry));
        file.append(name.name.data(), name.name.size());
        file.append(name.phase.data(), name.phase.size());
      }
      break;
    case format::kSectionStreams: {
      uint64_t first_record = 0;
      for (const EventStream& stream : content.event_streams) {
        format::StreamInfo info = stream.info;
        info.first_record = first_record;
        file.append(&info, sizeof(info));
        first_record += info.records_written;
      }
      break;
    }
    case format::kSectionEventRecords:
      for (const EventStream& stream : content.event_streams) {
        file.append(stream.records, stream.info.records_written * sizeof(format::EventRecord));
      }
      break;
  }
}

format::FileHeader file_header(const DumpContent& content, const std::vector<SectionPlan>& plan) {
  uint64_t file_size = sizeof(format::FileHeader);
  for (const SectionPlan& section : plan) {
    file_size += sizeof(format::SectionHeader) + padded(section.payload_size);
  }
  format::FileHeader header{};
  std::memcpy(header.magic, format::kMagic, sizeof(header.magic));
  header.major = format::kMajorVersion;
  header.minor = format::kMinorVersion;
  header.header_size = sizeof(format::FileHeader);
  header.endian_marker = format::kEndianMarker;
  header.section_count = static_cast<uint32_t>(plan.size());
  header.file_size = file_size;
  if (content.profiler_sections) header.feature_bits |= format::kFeatureProfilerRecords;
  if (content.event_sections) header.feature_bits |= format::kFeatureEventRecords;
  if (!content.clock_samples.empty()) header.feature_bits |= format::kFeatureClockCalibration;
  return header;
}

// The live file's bytes before its records, as pieces at file offsets; the reserved payloads
// (LiveStrings, Threads, ProfilerRecords) are holes, written later.
class PrefixSink {
 public:
  void append(const void* data, size_t size) {
    const char* bytes = static_cast<const char*>(data);
    bytes_.insert(bytes_.end(), bytes, bytes + size);
  }
  void append_zeros(size_t size) { bytes_.resize(bytes_.size() + size, 0); }
  // Ends the current piece and leaves a hole of `size` bytes.
  void skip(uint64_t size) {
    pieces_.push_back({offset_, std::move(bytes_)});
    offset_ += pieces_.back().second.size() + size;
    bytes_.clear();
  }
  uint64_t offset() const { return offset_ + bytes_.size(); }
  bool write(int fd, std::string* error) {
    skip(0);
    if (!within_file_size_limit(offset_)) {
      *error = "would exceed the file size limit (RLIMIT_FSIZE)";
      return false;
    }
    const BlockedFileSizeSignal no_sigxfsz;
    for (const auto& [at, bytes] : pieces_) {
      if (!write_all_at(fd, bytes.data(), bytes.size(), at)) {
        *error = std::strerror(errno);
        return false;
      }
    }
    return true;
  }

 private:
  std::vector<std::pair<uint64_t, std::vector<char>>> pieces_;
  std::vector<char> bytes_;
  uint64_t offset_ = 0;
};

}  // namespace

bool write_all_at(int fd, const void* data, size_t size, uint64_t offset) {
  const char* bytes = static_cast<const char*>(data);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = pwrite(fd, bytes + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EIO;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

uint64_t file_size_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
  return static_cast<uint64_t>(limit.rlim_cur);
}

bool within_file_size_limit(uint64_t bytes) {
  return bytes <= file_size_limit();
}

uint32_t live_thread_slots_for_page_alignment(const DumpContent& content, uint32_t minimum) {
  LiveLayout layout;
  layout.thread_slots = minimum;
  for (;; ++layout.thread_slots) {
    uint64_t offset = sizeof(format::FileHeader);
    for (const SectionPlan& section : plan_sections(content, &layout)) {
      offset += sizeof(format::SectionHeader);
      if (section.kind == format::kSectionProfilerRecords) break;
      offset += padded(section.payload_size);
    }
    if (offset % kLivePageBytes == 0) return layout.thread_slots;
  }
}

bool write_live_prefix(const DumpContent& content, const LiveLayout& layout, int fd,
                       LiveOffsets* offsets, std::string* error) {
  const std::vector<SectionPlan> plan = plan_sections(content, &layout);
  format::FileHeader header = file_header(content, plan);
  header.feature_bits |= format::kFeatureLiveFile;
  PrefixSink sink;
  sink.append(&header, sizeof(header));
  for (const SectionPlan& section : plan) {
    const format::SectionHeader section_header{section.kind, section.entry_size,
                                               section.payload_size};
    sink.append(&section_header, sizeof(section_header));
    if (section.kind == format::kSectionProfilerRecords) {
      offsets->records = sink.offset();
      break;
    }
    if (section.kind == format::kSectionLiveStrings || section.kind == format::kSectionThreads) {
      (section.kind == format::kSectionThreads ? offsets->threads : offsets->strings) =
          sink.offset();
      sink.skip(padded(section.payload_size));
      continue;
    }
    append_payload(sink, content, section.kind);
    sink.append_zeros(padded(section.payload_size) - section.payload_size);
  }
  return sink.write(fd, error);
}

bool write_dump_file(const DumpContent& content, const DumpDirectory& directory,
                     const std::string& name, WrittenDump* written, std::string* error) {
  const std::vector<SectionPlan> plan = plan_sections(content, nullptr);
  const format::FileHeader header = file_header(content, plan);
  const uint64_t limit = file_size_limit();
  if (header.file_size > limit) {
    *error = directory.file_path(name) + ": its " + std::to_string(header.file_size) +
             " bytes would exceed the file size limit (RLIMIT_FSIZE, " + std::to_string(limit) +
             " bytes)";
    return false;
  }

  BufferedFile file;  // its buffer is allocated before anything is created
  const CreatedFile temporary = create_temporary_file(directory, name, error);
  if (temporary.fd < 0) return false;
  // `temporary.fd` stays open until the file is published or removed (new_file.hpp); the writer
  // closes a descriptor of its own, to see every error of the writes.
  const int own_fd = fcntl(temporary.fd, F_DUPFD_CLOEXEC, 0);
  if (own_fd < 0) {
    *error = directory.file_path(temporary.name) + ": " + std::strerror(errno);
    remove_created_file(directory, temporary);
    close(temporary.fd);
    return false;
  }
  // A limit lowered since the check meets the writes as EFBIG, not as SIGXFSZ.
  const BlockedFileSizeSignal no_sigxfsz;
  file.adopt(own_fd, directory.file_path(temporary.name));
  file.append(&header, sizeof(header));
  for (const SectionPlan& section : plan) {
    const format::SectionHeader section_header{section.kind, section.entry_size,
                                               section.payload_size};
    file.append(&section_header, sizeof(section_header));
    append_payload(file, content, section.kind);
    file.append_zeros(padded(section.payload_size) - section.payload_size);
  }
  std::string published;
  const bool ok = file.close(error) &&
                  publish_file(directory, temporary, name, &published, &written->clash, error);
  if (ok) {
    written->path = directory.file_path(published);
  } else {
    remove_created_file(directory, temporary);
  }
  close(temporary.fd);
  return ok;
}

}  // namespace npkit::capture
