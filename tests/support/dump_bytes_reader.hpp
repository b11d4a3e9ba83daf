// dump_bytes_reader.hpp — a deliberately small, separate reader of format v1 dump bytes for the
// tests: it checks a writer's output (capture tests) and recomputes what the analyzer reports
// from real captures (real tests) against include/npkit/format.hpp without sharing any code with
// the writer (or with the analyzer's reader).
//
// Contract: parse_dump_bytes() never throws on bad bytes; every structural problem (magic,
// version, sizes, non-zero padding, section bounds, entry sizes) is appended to `problems`, and
// whatever could be parsed is returned.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "npkit/format.hpp"

namespace npkit::test {

struct ParsedName {
  uint32_t domain;
  uint32_t id;
  std::string name;
};

struct ParsedDump {
  format::FileHeader header{};
  std::vector<uint32_t> section_kinds;  // in file order
  format::CommunicatorInfo comm{};
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<format::ClockSample> clock_samples;
  std::vector<ParsedName> names;
  std::map<uint32_t, std::string> strings;
  std::vector<format::ThreadEntry> threads;
  std::vector<format::ProfilerRecord> records;
  std::vector<std::string> problems;

  // The metadata value for `key`, or "<absent>".
  std::string meta(const std::string& key) const;
};

ParsedDump parse_dump_bytes(const std::string& bytes);
std::string read_whole_file(const std::string& path);

}  // namespace npkit::test
