// import/npkt/npkt_sections.hpp — decoders of the section payloads of npkit dump format v1
// (include/npkit/format.hpp), used by parse_npkt once the file header and the section framing
// have been checked.
// Contract: a decoder reads only its section's payload, checks every size and count against it
// before reading, and appends what it decodes to the NpktDump. Errors read
// "<file>: offset <N>: <what was expected>" with N the absolute file offset of the field at
// fault. Fixed-entry sections accept an entry_size larger than the known entry (a newer minor)
// and read the known prefix of each entry; a smaller one is an error.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "import/npkt/npkt_dump.hpp"
#include "util/result.hpp"

namespace npkit::npkt {

// One section of a file image, its header already read and its payload known to lie inside the
// image.
struct SectionView {
  const std::string* file = nullptr;  // name used in messages
  const std::uint8_t* image = nullptr;
  std::uint64_t header_offset = 0;  // the SectionHeader
  std::uint32_t kind = 0;
  std::uint32_t entry_size = 0;
  std::uint64_t payload_size = 0;

  std::uint64_t payload_offset() const { return header_offset + 16; }
  const std::uint8_t* payload() const { return image + payload_offset(); }
};

// The T at `p` (little-endian on every host the format is read on), whatever p's alignment.
template <typename T>
T load(const std::uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// "<file>: offset <offset>: <what>".
Error error_at(const std::string& file, std::uint64_t offset, const std::string& what);

// "Communicator section", ... for the known kinds; "section of kind K" otherwise.
std::string section_name(std::uint32_t kind);

// Whether parse_npkt knows how to decode sections of this kind.
bool is_known_section(std::uint32_t kind);

// Decodes the section into `dump` (kind must be known). Strings sections need `dump.strings` to
// hold just the "none" entry (they fill it by id).
Status decode_section(const SectionView& section, NpktDump& dump);

// Once every section is decoded: checks that each stream's record range lies inside the
// EventRecords section and that no two ranges overlap (Errors name the stream and the offset of
// its first_record field), that records have a Streams section to belong to (`records_header`:
// the EventRecords section header's offset, 0 when there is none; `streams_seen`: whether a
// Streams section was read); then drops streams of an unknown source or clock and counts records
// that no stream owns, as warnings.
Status check_event_streams(const std::string& file, bool streams_seen, std::uint64_t records_header,
                           NpktDump& dump);

}  // namespace npkit::npkt
