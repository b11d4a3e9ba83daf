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
// - Records are written as they are in memory, except the indexes listed in `incomplete`, which
//   are written as all-zero records (kind 0): their producer may still be writing them.
// - The file appears atomically: the bytes go to "<final_path>.tmp.<pid>", which is renamed to
//   final_path only when every write succeeded; on failure the temporary file is removed and
//   *error says which path failed and why (strerror).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "npkit/format.hpp"

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
  uint64_t record_count = 0;
  std::vector<uint64_t> incomplete;  // ascending record indexes written as zero records
  bool profiler_sections = true;

  bool event_sections = false;
  std::vector<EventName> event_names;      // ascending ids
  std::vector<EventStream> event_streams;  // file order
};

bool write_dump_file(const DumpContent& content, const std::string& final_path, std::string* error);

}  // namespace npkit::capture
