// ingest/npkt_dump.hpp — reads one npkit dump format v1 file (.npkt, include/npkit/format.hpp).
//
// Contract:
// - read_npkt_file never throws and never crashes on hostile bytes: a file that is not a complete,
//   well-formed v1 dump yields an Error naming the file, the byte offset and what was expected
//   (bad magic, newer major version, truncated section, entry size mismatch, ...).
// - Sections of unknown kind are skipped (forward compatibility within major 1); an unknown
//   minor is accepted, and so is a larger entry_size of a fixed-entry section (the known prefix of
//   each entry is read). Conditions that leave the result sound (e.g. records with kind 0, a
//   missing names section) are returned as counted warnings, not errors.
// - Every known section kind may appear at most once; the Communicator section is required.
// - The returned value owns copies of everything; it does not refer to the file.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "npkit/format.hpp"
#include "util/result.hpp"

namespace npkit::ingest {

struct NpktDump {
  std::string path;
  uint16_t minor_version = 0;
  uint64_t feature_bits = 0;
  format::CommunicatorInfo comm{};
  std::vector<std::pair<std::string, std::string>> metadata;  // in file order
  std::vector<format::ClockSample> clock_samples;
  std::vector<std::pair<uint32_t, std::string>> event_type_names;  // (type bit index, name)
  std::vector<std::pair<uint32_t, std::string>> state_names;       // (state number, name)
  std::vector<std::string> strings;  // indexed by string id; strings[0] == "" (none)
  std::vector<format::ThreadEntry> threads;
  std::vector<format::ProfilerRecord> records;  // in file order
  std::vector<std::string> warnings;

  // The metadata value for `key`, or "" when absent.
  const std::string& meta(const std::string& key) const;
  // The interned string for `id`, or "" when out of range.
  const std::string& string_at(uint32_t id) const;
};

// Reads and validates the file at `path`.
Result<NpktDump> read_npkt_file(const std::string& path);

// Parses a whole file image already in memory (`name` is used in messages). Used by the fuzzer.
Result<NpktDump> parse_npkt(const std::string& name, const uint8_t* data, size_t size);

// True when the first bytes of `data` are the npkt magic.
bool looks_like_npkt(const uint8_t* data, size_t size);

}  // namespace npkit::ingest
