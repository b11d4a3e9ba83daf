// recorder/dump_writer.hpp — writes one dump file in format v1 (include/npkit/format.hpp).
//
// Contract:
// - Sections, in this order: Communicator, Metadata, ClockSamples (only when there are samples),
//   Names (the 12 event types and states 0..24, recorder/event_names.hpp), Strings, Threads,
//   ProfilerRecords, then EventNames, Streams, EventRecords. Names, Threads and ProfilerRecords
//   are written when `profiler_sections` is set (the plugin's files), the three event sections
//   when `event_sections` is set (the device and host recorders' files). Each payload is padded
//   with zeros to a multiple of 8; FileHeader::file_size is the exact file size; feature_bits has
//   kFeatureProfilerRecords and kFeatureEventRecords for the sections present, plus
//   kFeatureClockCalibration when clock samples are present.
// - Event streams are written in the given order; each stream's StreamInfo is written as given
//   except first_record, which the writer sets to the number of event records before it.
// - Records are written as they are in memory, in `record_order`, followed by `zero_records`
//   all-zero records (kind 0: records whose producer may still be writing them).
// - Live files (write_live_prefix): the same header and first sections, written before any record;
//   see format::kFeatureLiveFile.
// - write_dump_file() makes the file appear atomically as `name` in `directory`, and never over
//   anything: the bytes go to a new file of an unpredictable hidden name, which is published
//   under `name` only when every write succeeded, and under a fresh name when `name` is taken
//   (recorder/new_file.hpp; WrittenDump says where and why). A file larger than RLIMIT_FSIZE
//   allows is not begun (*error names the dump, its size and the limit); a write that fails
//   (EFBIG with SIGXFSZ held off, ENOSPC, EDQUOT, EMFILE, ...) removes the temporary file, and
//   *error says which path failed and why (strerror).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "npkit/format.hpp"
#include "recorder/dump_directory.hpp"

namespace npkit::capture {

// One kSectionEventNames entry.
struct EventName {
  uint16_t id;
  uint32_t kind;  // format::EventKind
  std::string name;
  std::string phase;
};

// One record stream: its StreamInfo and info.records_written records at `records`.
struct EventStream {
  format::StreamInfo info;
  const format::EventRecord* records;
};

struct DumpContent {
  format::CommunicatorInfo comm{};
  std::vector<std::pair<std::string, std::string>> metadata;  // in file order
  std::vector<format::ClockSample> clock_samples;
  std::vector<std::pair<uint16_t, std::string>> strings;  // (id >= 1, text)
  std::vector<format::ThreadEntry> threads;
  const format::ProfilerRecord* records = nullptr;
  std::vector<uint64_t> record_order;  // indexes into `records`, written in this order
  uint64_t zero_records = 0;           // then written as all-zero records (kind 0)
  bool profiler_sections = true;

  bool event_sections = false;
  std::vector<EventName> event_names;      // ascending ids
  std::vector<EventStream> event_streams;  // file order
};

// Where write_dump_file() put the file: its path, and what it found at the name asked for when it
// had to take another (recorder/new_file.hpp); "" when it got that name.
struct WrittenDump {
  std::string path;
  std::string clash;
};
bool write_dump_file(const DumpContent& content, const DumpDirectory& directory,
                     const std::string& name, WrittenDump* written, std::string* error);

// A live file's reserved room (format::kFeatureLiveFile): LiveStrings and Threads entries, and the
// records' capacity.
inline constexpr uint64_t kLivePageBytes = 4096;
struct LiveLayout {
  uint32_t string_slots = 0;
  uint32_t thread_slots = 0;
  uint64_t record_capacity = 0;
};

// pwrite of all `size` bytes at `offset`, short writes and EINTR retried; false with errno set.
bool write_all_at(int fd, const void* data, size_t size, uint64_t offset);

// RLIMIT_FSIZE's soft limit in bytes (UINT64_MAX when there is none), and whether a file may
// reach `bytes` without exceeding it (writing past it raises SIGXFSZ, whose default action ends
// the process: the capture's writes also hold it off, recorder/file_size_signal.hpp).
uint64_t file_size_limit();
bool within_file_size_limit(uint64_t bytes);

// The smallest thread_slots >= minimum that puts the live file's records at a multiple of
// kLivePageBytes (so they can be mapped on their own).
uint32_t live_thread_slots_for_page_alignment(const DumpContent& content, uint32_t minimum);

// Writes, with pwrite into `fd` (an empty file), a live file's header and its sections up to the
// ProfilerRecords section header: Communicator, Metadata, ClockSamples, Names as write_dump_file
// writes them (plus kFeatureLiveFile), then LiveStrings and Threads as holes of their reserved
// size. *offsets says where their entries and record 0 go. False with strerror on a failed write,
// and without writing when the prefix would exceed RLIMIT_FSIZE.
struct LiveOffsets {
  uint64_t strings = 0;  // LiveStrings entry 0
  uint64_t threads = 0;  // Threads entry 0
  uint64_t records = 0;  // ProfilerRecords record 0
};
bool write_live_prefix(const DumpContent& content, const LiveLayout& layout, int fd,
                       LiveOffsets* offsets, std::string* error);

}  // namespace npkit::capture
