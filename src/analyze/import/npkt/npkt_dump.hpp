// import/npkt/npkt_dump.hpp — reads one npkit dump format v1 file (.npkt,
// include/npkit/format.hpp).
//
// Contract:
// - read_npkt_file never throws and never crashes on hostile bytes: a file that is not a complete,
//   well-formed v1 dump yields an Error naming the file, the byte offset and what was expected
//   (bad magic, newer major version, truncated section, entry size mismatch, ...).
// - Sections of unknown kind are skipped (forward compatibility within major 1); a newer minor
//   is read with a warning naming it (what that minor added is skipped, as the format's
//   compatibility rules allow), and so is a larger entry_size of a fixed-entry section (the known
//   prefix of each entry is read). Conditions that leave the result sound (e.g. records with kind
//   0, a missing names section) are returned as counted warnings, not errors.
// - Every known section kind may appear at most once; the Communicator section is required.
// - Event records (minor 1): a file may hold profiler records, event records, or both. Each
//   stream's records [first_record, first_record + records_written) must lie inside the
//   EventRecords section and no two streams' ranges may overlap (an Error naming the stream); an
//   EventRecords section needs a Streams section. An id named twice or above 65535 is an Error.
//   Records no stream owns, and streams or names of an unknown source, clock or kind, are counted
//   warnings (skipped). Names are kept as written; pairing and phases are the model's
//   (import/npkt/event_names.hpp).
// - Live files (minor 2, format::kFeatureLiveFile: the process ended before it wrote its dump) may
//   end anywhere inside their ProfilerRecords section: the whole records present are read, kind-0
//   records (unused room, or records being written as the process ended) are skipped uncounted,
//   and capture_end_ns becomes the last record's time (or the capture start); a warning says the
//   file is live. A live file cut before
//   its records is an Error naming the section the cut falls in.
// - read_npkt_file reads a gzip-compressed capture (.npkt.gz, .live.npkt.gz) as the capture it
//   decompresses to (import/npkt/npkt_file_bytes.hpp): offsets in its messages are offsets in the
//   decompressed bytes, and NpktDump::path is the path given.
// - The returned value owns copies of everything; it does not refer to the file.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "npkit/format.hpp"
#include "util/result.hpp"

namespace npkit {

// One EventNames entry (format.hpp EventNameEntry): what an EventRecord::id is called.
struct NpktEventName {
  uint16_t id = 0;
  format::EventKind kind = format::kEventInstant;
  std::string name;
  std::string phase;  // the phase hint; "" for none
};

struct NpktDump {
  std::string path;
  uint16_t minor_version = 0;
  uint64_t feature_bits = 0;
  // A live file (format::kFeatureLiveFile): the process ended before it wrote this dump.
  bool is_live() const { return (feature_bits & format::kFeatureLiveFile) != 0; }
  format::CommunicatorInfo comm{};
  std::vector<std::pair<std::string, std::string>> metadata;  // in file order
  std::vector<format::ClockSample> clock_samples;
  std::vector<std::pair<uint32_t, std::string>> event_type_names;  // (type bit index, name)
  std::vector<std::pair<uint32_t, std::string>> state_names;       // (state number, name)
  std::vector<std::string> strings;  // indexed by string id; strings[0] == "" (none)
  std::vector<format::ThreadEntry> threads;
  std::vector<format::ProfilerRecord> records;     // in file order
  std::vector<NpktEventName> event_names;          // in file order, known kinds only
  std::vector<format::StreamInfo> streams;         // known sources and clocks only, in file order
  std::vector<uint64_t> stream_offsets;            // file offset of each stream's entry
  std::vector<uint32_t> stream_numbers;            // each stream's index in the Streams section
  std::vector<format::EventRecord> event_records;  // in file order (streams index into it)
  uint64_t event_records_offset = 0;               // file offset of the first event record
  uint32_t event_record_size = sizeof(format::EventRecord);  // entry_size in the file
  std::vector<std::string> warnings;

  // The metadata value for `key`, or "" when absent.
  const std::string& meta(const std::string& key) const;
  // The interned string for `id`, or "" when out of range.
  const std::string& string_at(uint32_t id) const;
  // True when the file holds event streams (kSectionStreams with at least one known stream).
  bool has_event_streams() const { return !streams.empty(); }
};

// Reads and validates the file at `path` (decompressed first when it is gzip data).
Result<NpktDump> read_npkt_file(const std::string& path);

// Parses a whole file image already in memory (`name` is used in messages). Used by the fuzzer.
Result<NpktDump> parse_npkt(const std::string& name, const uint8_t* data, size_t size);

// True when the first bytes of `data` are the npkt magic.
bool looks_like_npkt(const uint8_t* data, size_t size);

}  // namespace npkit
