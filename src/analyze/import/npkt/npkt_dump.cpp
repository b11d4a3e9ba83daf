#include "import/npkt/npkt_dump.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

#include "import/npkt/npkt_file_bytes.hpp"
#include "import/npkt/npkt_sections.hpp"
#include "util/file_io.hpp"
#include "util/out_of_memory.hpp"

namespace npkit {
namespace {

using npkt::error_at;
using npkt::load;

constexpr std::uint64_t kHeaderSize = sizeof(format::FileHeader);
constexpr std::uint64_t kSectionHeaderSize = sizeof(format::SectionHeader);
// Section kinds are small numbers; a seen-set this big covers every kind v1 knows.
constexpr std::uint32_t kKnownKinds = format::kSectionLiveStrings + 1;
// How many distinct unknown kinds the warning lists.
constexpr std::size_t kListedUnknownKinds = 8;

std::string hex(std::uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}

constexpr std::uint32_t byte_swapped(std::uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

struct Framing {
  std::uint64_t header_size = 0;
  std::uint32_t section_count = 0;
};

// Checks the file header of an image of `size` bytes; returns where sections start and how many.
Result<Framing> check_header(const std::string& name, const std::uint8_t* data, std::size_t size,
                             NpktDump& dump) {
  if (size < sizeof(format::kMagic)) {
    return error_at(name, 0,
                    "expected the 8-byte magic \"NPKTDUMP\", the file has only " +
                        std::to_string(size) + " bytes");
  }
  if (!looks_like_npkt(data, size)) {
    return error_at(name, 0, "expected the magic \"NPKTDUMP\" of an npkit dump (.npkt)");
  }
  if (size < kHeaderSize) {
    return error_at(name, size,
                    "truncated file header: expected " + std::to_string(kHeaderSize) +
                        " bytes, the file has " + std::to_string(size));
  }
  const std::uint32_t marker = load<std::uint32_t>(data + 16);
  if (marker == byte_swapped(format::kEndianMarker)) {
    return error_at(name, 16,
                    "endian marker reads " + hex(marker, 8) +
                        ": the file was written big-endian; expected a little-endian file "
                        "(marker " +
                        hex(format::kEndianMarker, 8) + ")");
  }
  const std::uint16_t major = load<std::uint16_t>(data + 8);
  if (major > format::kMajorVersion) {
    return error_at(name, 8,
                    "was written by a newer npkit (format " + std::to_string(major) +
                        ".x); this reader knows 1.x");
  }
  if (major != format::kMajorVersion) {
    return error_at(name, 8,
                    "format version " + std::to_string(major) +
                        ".x: expected major version 1 (this reader knows 1.x)");
  }
  if (marker != format::kEndianMarker) {
    return error_at(name, 16,
                    "expected the endian marker " + hex(format::kEndianMarker, 8) + ", found " +
                        hex(marker, 8));
  }
  const std::uint32_t header_size = load<std::uint32_t>(data + 12);
  if (header_size < kHeaderSize || header_size % 8 != 0) {
    return error_at(name, 12,
                    "header_size " + std::to_string(header_size) + ": expected at least " +
                        std::to_string(kHeaderSize) + " and a multiple of 8");
  }
  const std::uint64_t file_size = load<std::uint64_t>(data + 24);
  const bool live = (load<std::uint64_t>(data + 32) & format::kFeatureLiveFile) != 0;
  if (file_size > size && !live) {
    return error_at(name, size,
                    "truncated: header says " + std::to_string(file_size) + " bytes, file has " +
                        std::to_string(size));
  }
  if (file_size < size) {
    return error_at(name, file_size,
                    "expected the end of the file (header says " + std::to_string(file_size) +
                        " bytes), the file has " + std::to_string(size));
  }
  if (live && header_size > size) {
    return error_at(name, 12,
                    "header_size " + std::to_string(header_size) +
                        ": expected at most the file's " + std::to_string(size) + " bytes");
  }
  if (header_size > file_size) {
    return error_at(name, 12,
                    "header_size " + std::to_string(header_size) +
                        ": expected at most the file size " + std::to_string(file_size));
  }
  dump.minor_version = load<std::uint16_t>(data + 10);
  dump.feature_bits = load<std::uint64_t>(data + 32);
  return Framing{header_size, load<std::uint32_t>(data + 20)};
}

// Checks that the section at `offset` (header and payload) and its padding lie in the file;
// returns the offset of the next section.
// A live file's ProfilerRecords section may be cut anywhere: it is read as the whole records
// present (`view.payload_size` shrinks to them) and must be the file's last section.
Result<std::uint64_t> check_section_bounds(const std::string& name, const std::uint8_t* data,
                                           std::uint64_t file_size, std::uint64_t offset,
                                           std::uint32_t index, std::uint32_t count, bool live,
                                           npkt::SectionView& view) {
  const std::uint64_t left = file_size - offset;
  if (left < kSectionHeaderSize) {
    return error_at(name, offset,
                    "expected section header " + std::to_string(index + 1) + " of " +
                        std::to_string(count) + " (16 bytes), only " + std::to_string(left) +
                        " bytes left in the file");
  }
  view.header_offset = offset;
  view.kind = load<std::uint32_t>(data + offset);
  view.entry_size = load<std::uint32_t>(data + offset + 4);
  view.payload_size = load<std::uint64_t>(data + offset + 8);
  const std::uint64_t room = left - kSectionHeaderSize;
  if (live && view.kind == format::kSectionProfilerRecords && view.entry_size > 0) {
    if (index + 1 != count) {
      return error_at(name, offset,
                      "a live file's ProfilerRecords section must be its last; it is section " +
                          std::to_string(index + 1) + " of " + std::to_string(count));
    }
    if (view.payload_size > room) view.payload_size = room - room % view.entry_size;
    return view.payload_offset() + view.payload_size;
  }
  if (view.payload_size > room) {
    return error_at(name, offset + 8,
                    npkt::section_name(view.kind) + ": payload_size " +
                        std::to_string(view.payload_size) + " runs past the end of the file (" +
                        std::to_string(room) + " bytes left after the section header)");
  }
  const std::uint64_t end = view.payload_offset() + view.payload_size;
  const std::uint64_t padding = (8 - view.payload_size % 8) % 8;
  if (padding > file_size - end) {
    return error_at(name, end,
                    npkt::section_name(view.kind) + ": expected " + std::to_string(padding) +
                        " bytes of zero padding to an 8-byte boundary, only " +
                        std::to_string(file_size - end) + " bytes left in the file");
  }
  for (std::uint64_t p = end; p < end + padding; ++p) {
    if (data[p] != 0) {
      return error_at(
          name, p,
          npkt::section_name(view.kind) + ": expected zero padding, found " + hex(data[p], 2));
    }
  }
  return end + padding;
}

// What a live file cannot say itself: when its capture ended (its last record) and how many
// records it attempted (those it holds; drops are unknown).
void finish_live_dump(bool records_seen, NpktDump& dump) {
  std::int64_t end = dump.comm.capture_start_ns;
  for (const format::ProfilerRecord& r : dump.records) {
    end = std::max(
        end, static_cast<std::int64_t>(std::min<std::uint64_t>(
                 r.host_ns, static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))));
  }
  dump.comm.capture_end_ns = end;
  dump.comm.records_attempted = dump.records.size();
  dump.warnings.push_back(
      "live file: no dump was written (the process was killed, crashed or called _exit, or is "
      "still running); " +
      std::to_string(dump.records.size()) + " record(s) up to its last write" +
      (records_seen ? "" : " (its records section is missing)") +
      "; records being written as it ended, and records dropped for a full buffer, are not "
      "counted");
}

}  // namespace

const std::string& NpktDump::meta(const std::string& key) const {
  static const std::string kNone;
  for (const auto& [k, v] : metadata) {
    if (k == key) return v;
  }
  return kNone;
}

const std::string& NpktDump::string_at(std::uint32_t id) const {
  static const std::string kNone;
  return id < strings.size() ? strings[id] : kNone;
}

bool looks_like_npkt(const std::uint8_t* data, std::size_t size) {
  return size >= sizeof(format::kMagic) &&
         std::memcmp(data, format::kMagic, sizeof(format::kMagic)) == 0;
}

Result<NpktDump> parse_npkt(const std::string& name, const std::uint8_t* data, std::size_t size) {
  NpktDump dump;
  dump.path = name;
  dump.strings.assign(1, std::string());
  NPKIT_ASSIGN(auto framing, check_header(name, data, size, dump));

  npkt::SectionView view;
  view.file = &name;
  view.image = data;
  bool seen[kKnownKinds] = {};
  std::uint64_t records_header = 0;
  std::uint64_t unknown_sections = 0;
  std::vector<std::uint32_t> unknown_kinds;
  std::uint64_t offset = framing.header_size;
  for (std::uint32_t i = 0; i < framing.section_count; ++i) {
    NPKIT_ASSIGN(auto next, check_section_bounds(name, data, size, offset, i, framing.section_count,
                                                 dump.is_live(), view));
    if (!npkt::is_known_section(view.kind)) {
      ++unknown_sections;
      if (unknown_kinds.size() < kListedUnknownKinds &&
          std::find(unknown_kinds.begin(), unknown_kinds.end(), view.kind) == unknown_kinds.end()) {
        unknown_kinds.push_back(view.kind);
      }
    } else if (seen[view.kind]) {
      return error_at(name, offset,
                      "a second " + npkt::section_name(view.kind) + "; expected at most one");
    } else {
      seen[view.kind] = true;
      if (view.kind == format::kSectionEventRecords) records_header = offset;
      NPKIT_TRY(npkt::decode_section(view, dump));
    }
    offset = next;
  }
  if (offset != size && !dump.is_live()) {
    return error_at(name, offset,
                    "expected the end of the file after " + std::to_string(framing.section_count) +
                        " sections, found " + std::to_string(size - offset) + " more bytes");
  }
  if (!seen[format::kSectionCommunicator]) {
    return error_at(name, size,
                    "expected a Communicator section (kind 1); none among the " +
                        std::to_string(framing.section_count) + " sections");
  }
  if (dump.minor_version > format::kMinorVersion) {
    dump.warnings.push_back(
        "written by a newer npkit (format 1." + std::to_string(dump.minor_version) +
        "; this reader knows 1." + std::to_string(format::kMinorVersion) +
        "): sections, records, event types and details it added are skipped, the rest is read "
        "(format.md, Compatibility rules)");
  }
  if (dump.is_live()) finish_live_dump(seen[format::kSectionProfilerRecords], dump);
  NPKIT_TRY(npkt::check_event_streams(name, seen[format::kSectionStreams], records_header, dump));
  const bool event_sections = seen[format::kSectionStreams] || seen[format::kSectionEventRecords];
  if (!seen[format::kSectionNames] && (!event_sections || !dump.records.empty())) {
    dump.warnings.push_back("no Names section: event types and states are unnamed in this file");
  }
  if (!dump.event_records.empty() && !seen[format::kSectionEventNames]) {
    dump.warnings.push_back(
        "no EventNames section: every event record reads as an unnamed instant");
  }
  if (unknown_sections > 0) {
    std::string kinds;
    for (std::uint32_t k : unknown_kinds) kinds += (kinds.empty() ? "" : ", ") + std::to_string(k);
    dump.warnings.push_back(std::to_string(unknown_sections) +
                            " section(s) of unknown kind skipped (kinds " + kinds +
                            (unknown_kinds.size() == kListedUnknownKinds ? ", ...)" : ")"));
  }
  return dump;
}

Result<NpktDump> read_npkt_file(const std::string& path) {
  if (io::is_directory(path)) {
    return Error{path + ": is a directory, expected an npkit dump file (.npkt)"};
  }
  if (io::is_special_file(path)) {
    return Error{path +
                 ": not a regular file (a device, FIFO or socket), expected an npkit dump "
                 "file (.npkt)"};
  }
  return reading_guarded(path, [&]() -> Result<NpktDump> {
    std::vector<std::uint8_t> bytes;
    NPKIT_TRY(read_npkt_bytes(path, bytes));
    return parse_npkt(path, bytes.data(), bytes.size());
  });
}

}  // namespace npkit
