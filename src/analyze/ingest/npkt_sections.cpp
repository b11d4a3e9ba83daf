#include "ingest/npkt_sections.hpp"

#include <bit>
#include <cstring>
#include <vector>

namespace npkit::ingest::npkt {
namespace {

static_assert(std::endian::native == std::endian::little,
              "npkt entries are copied as they lie in the file: the reader needs a little-endian "
              "host");

// Payload string fields (func, datatype, algo, proto) are 16-bit: no string id can exceed this.
constexpr std::uint32_t kMaxStringId = 0xFFFF;
// Highest RecordKind and event type bit a v1 record can carry.
constexpr std::uint8_t kMaxRecordKind = format::kRecordState;
constexpr std::uint8_t kMaxEventType = 15;

template <typename T>
T load(const std::uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

Error section_error(const SectionView& s, std::uint64_t offset, const std::string& what) {
  return error_at(*s.file, offset, section_name(s.kind) + ": " + what);
}

// Copies the entries of a fixed-entry section into `out`: one memcpy when the entry size is the
// known one, the known prefix of each entry when a newer minor made entries larger.
template <typename T>
Status read_fixed(const SectionView& s, std::vector<T>& out) {
  if (s.entry_size < sizeof(T)) {
    return section_error(s, s.header_offset + 4,
                         "entry_size " + std::to_string(s.entry_size) + ": expected at least " +
                             std::to_string(sizeof(T)) + " bytes per entry");
  }
  if (s.payload_size % s.entry_size != 0) {
    return section_error(s, s.header_offset + 8,
                         "payload_size " + std::to_string(s.payload_size) +
                             ": expected a multiple of entry_size " + std::to_string(s.entry_size));
  }
  const std::size_t count = s.payload_size / s.entry_size;
  const std::size_t first = out.size();
  out.resize(first + count);
  if (s.entry_size == sizeof(T)) {
    if (count > 0) std::memcpy(&out[first], s.payload(), count * sizeof(T));
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      std::memcpy(&out[first + i], s.payload() + i * s.entry_size, sizeof(T));
    }
  }
  return Ok{};
}

Status require_variable(const SectionView& s) {
  if (s.entry_size == 0) return Ok{};
  return section_error(s, s.header_offset + 4,
                       "entry_size " + std::to_string(s.entry_size) +
                           ": expected 0 (a section of variable-size entries)");
}

// Walks {fixed header of `header_size` bytes, text of the size that `text_size` reads from the
// header} entries, calling `take(header, text, entry_offset)` for each.
template <typename TextSize, typename Take>
Status walk_text_entries(const SectionView& s, std::size_t header_size, TextSize text_size,
                         Take take) {
  NPKIT_TRY(require_variable(s));
  std::uint64_t pos = 0;
  while (pos < s.payload_size) {
    const std::uint64_t entry_offset = s.payload_offset() + pos;
    const std::uint64_t left = s.payload_size - pos;
    if (left < header_size) {
      return section_error(s, entry_offset,
                           "expected an entry header of " + std::to_string(header_size) +
                               " bytes, only " + std::to_string(left) +
                               " bytes left in the section");
    }
    const std::uint8_t* header = s.payload() + pos;
    const std::uint64_t size = text_size(header);
    if (size > left - header_size) {
      return section_error(
          s, entry_offset,
          "entry text of " + std::to_string(size) + " bytes runs past the end of the section (" +
              std::to_string(left - header_size) + " bytes left after the entry header)");
    }
    const char* text = reinterpret_cast<const char*>(header + header_size);
    NPKIT_TRY(take(header, std::string(text, size), entry_offset));
    pos += header_size + size;
  }
  return Ok{};
}

Status read_communicator(const SectionView& s, NpktDump& dump) {
  std::vector<format::CommunicatorInfo> entries;
  NPKIT_TRY(read_fixed(s, entries));
  if (entries.size() != 1) {
    return section_error(s, s.header_offset + 8,
                         "payload_size " + std::to_string(s.payload_size) +
                             ": expected exactly one entry of " + std::to_string(s.entry_size) +
                             " bytes");
  }
  dump.comm = entries[0];
  return Ok{};
}

Status read_metadata(const SectionView& s, NpktDump& dump) {
  constexpr std::size_t kHeader = sizeof(format::MetadataEntry);
  return walk_text_entries(
      s, kHeader,
      [](const std::uint8_t* h) {
        return std::uint64_t{load<std::uint32_t>(h)} + load<std::uint32_t>(h + 4);
      },
      [&](const std::uint8_t* h, std::string text, std::uint64_t) -> Status {
        const std::uint32_t key_size = load<std::uint32_t>(h);
        dump.metadata.emplace_back(text.substr(0, key_size), text.substr(key_size));
        return Ok{};
      });
}

Status read_names(const SectionView& s, NpktDump& dump) {
  constexpr std::size_t kHeader = sizeof(format::NameEntry);
  std::uint64_t unknown_domain = 0;
  NPKIT_TRY(walk_text_entries(
      s, kHeader, [](const std::uint8_t* h) { return std::uint64_t{load<std::uint32_t>(h + 8)}; },
      [&](const std::uint8_t* h, std::string text, std::uint64_t) -> Status {
        const std::uint32_t domain = load<std::uint32_t>(h);
        const std::uint32_t id = load<std::uint32_t>(h + 4);
        if (domain == format::kNameEventType) {
          dump.event_type_names.emplace_back(id, std::move(text));
        } else if (domain == format::kNameState) {
          dump.state_names.emplace_back(id, std::move(text));
        } else {
          ++unknown_domain;
        }
        return Ok{};
      }));
  if (unknown_domain > 0) {
    dump.warnings.push_back(std::to_string(unknown_domain) +
                            " name(s) of an unknown domain skipped (known: 1 event type, 2 state)");
  }
  return Ok{};
}

Status read_strings(const SectionView& s, NpktDump& dump) {
  constexpr std::size_t kHeader = sizeof(format::StringEntry);
  std::vector<bool> listed(dump.strings.size(), false);
  return walk_text_entries(
      s, kHeader, [](const std::uint8_t* h) { return std::uint64_t{load<std::uint32_t>(h + 4)}; },
      [&](const std::uint8_t* h, std::string text, std::uint64_t offset) -> Status {
        const std::uint32_t id = load<std::uint32_t>(h);
        if (id == 0) {
          return section_error(s, offset,
                               "string id 0 is reserved for \"none\"; expected ids from 1");
        }
        if (id > kMaxStringId) {
          return section_error(s, offset,
                               "string id " + std::to_string(id) + ": expected at most " +
                                   std::to_string(kMaxStringId) + " (payload fields are 16-bit)");
        }
        if (id >= dump.strings.size()) {
          dump.strings.resize(id + 1);
          listed.resize(id + 1, false);
        }
        if (listed[id]) {
          return section_error(
              s, offset, "string id " + std::to_string(id) + " listed twice; expected unique ids");
        }
        listed[id] = true;
        dump.strings[id] = std::move(text);
        return Ok{};
      });
}

// Keeps the finished records of known kind and type, in file order, compacting in place; counts
// the rest in warnings.
void filter_records(const SectionView& s, NpktDump& dump) {
  std::uint64_t unfinished = 0;
  std::uint64_t unknown = 0;
  std::string first_unknown;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < dump.records.size(); ++i) {
    const format::ProfilerRecord& r = dump.records[i];
    if (r.kind == format::kRecordNone) {
      ++unfinished;
      continue;
    }
    if (r.kind > kMaxRecordKind || r.type > kMaxEventType) {
      if (unknown++ == 0) {
        first_unknown = "offset " + std::to_string(s.payload_offset() + i * s.entry_size) +
                        ": kind " + std::to_string(r.kind) + ", type " + std::to_string(r.type);
      }
      continue;
    }
    if (kept != i) dump.records[kept] = r;
    ++kept;
  }
  dump.records.resize(kept);
  if (unfinished > 0) {
    dump.warnings.push_back(std::to_string(unfinished) +
                            " record(s) not finished when the dump was taken (kind 0) left out");
  }
  if (unknown > 0) {
    dump.warnings.push_back(std::to_string(unknown) +
                            " record(s) of an unknown kind (> 3) or event type (> 15) skipped; "
                            "first at " +
                            first_unknown);
  }
}

Status read_records(const SectionView& s, NpktDump& dump) {
  NPKIT_TRY(read_fixed(s, dump.records));
  filter_records(s, dump);
  return Ok{};
}

}  // namespace

Error error_at(const std::string& file, std::uint64_t offset, const std::string& what) {
  return Error{file + ": offset " + std::to_string(offset) + ": " + what};
}

std::string section_name(std::uint32_t kind) {
  switch (kind) {
    case format::kSectionCommunicator:
      return "Communicator section";
    case format::kSectionMetadata:
      return "Metadata section";
    case format::kSectionClockSamples:
      return "ClockSamples section";
    case format::kSectionNames:
      return "Names section";
    case format::kSectionStrings:
      return "Strings section";
    case format::kSectionThreads:
      return "Threads section";
    case format::kSectionProfilerRecords:
      return "ProfilerRecords section";
    default:
      return "section of kind " + std::to_string(kind);
  }
}

bool is_known_section(std::uint32_t kind) {
  return kind >= format::kSectionCommunicator && kind <= format::kSectionProfilerRecords;
}

Status decode_section(const SectionView& section, NpktDump& dump) {
  switch (section.kind) {
    case format::kSectionCommunicator:
      return read_communicator(section, dump);
    case format::kSectionMetadata:
      return read_metadata(section, dump);
    case format::kSectionClockSamples:
      return read_fixed(section, dump.clock_samples);
    case format::kSectionNames:
      return read_names(section, dump);
    case format::kSectionStrings:
      return read_strings(section, dump);
    case format::kSectionThreads:
      return read_fixed(section, dump.threads);
    case format::kSectionProfilerRecords:
      return read_records(section, dump);
    default:
      return section_error(section, section.header_offset,
                           "not a section kind this reader decodes");
  }
}

}  // namespace npkit::ingest::npkt
