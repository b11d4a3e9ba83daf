// device_dump_reader.hpp — a small reader of event-record dumps (format v1.1) for the tests (the
// capture unit tests, and the real tests' recount of the device captures), written from
// include/npkit/format.hpp alone: it shares no code with the writer or with the analyzer's
// reader.
//
// Contract: read_event_dump() never throws on bad bytes; each structural problem (magic, version,
// file size, non-zero padding, section bounds, entry sizes, a variable entry past its section) is
// appended to `problems`, and whatever could be decoded is returned. Sections it does not decode
// are listed in section_kinds and otherwise skipped.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "npkit/format.hpp"

namespace npkit::test {

struct ReadEventName {
  uint32_t id;
  uint32_t kind;
  std::string name;
  std::string phase;
};

struct ReadSection {
  uint32_t kind;
  uint32_t entry_size;
  uint64_t payload_offset;  // file offset of the payload
  uint64_t payload_size;
};

struct ReadEventDump {
  format::FileHeader header{};
  std::vector<uint32_t> section_kinds;  // in file order
  std::vector<ReadSection> sections;
  format::CommunicatorInfo comm{};
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<format::ClockSample> clock_samples;
  std::map<uint32_t, std::string> strings;
  std::vector<ReadEventName> event_names;
  std::vector<format::StreamInfo> streams;
  std::vector<format::EventRecord> records;
  std::vector<std::string> problems;

  // The metadata value of `key`, or "<absent>".
  std::string meta(const std::string& key) const;
};

ReadEventDump read_event_dump(const std::string& bytes);

}  // namespace npkit::test
