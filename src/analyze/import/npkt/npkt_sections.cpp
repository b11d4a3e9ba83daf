#include "import/npkt/npkt_sections.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <vector>

#include "import/rank_limit.hpp"

namespace npkit::npkt {
namespace {

static_assert(std::endian::native == std::endian::little,
              "npkt entries are copied as they lie in the file: the reader needs a little-endian "
              "host");

// Payload string fields (func, datatype, algo, proto) are 16-bit: no string id can exceed this.
constexpr std::uint32_t kMaxStringId = 0xFFFF;
// The most entries of a Metadata or a Names section (docs/formats.md, "Limits"): a capture writes
// a few dozen of each; an entry's header is 8 or 12 bytes, so a small compressed file could
// otherwise hold tens of millions of empty ones.
constexpr std::size_t kMaxTextEntries = 65536;

// Highest RecordKind (minor 3: detail records) and event type bit (minor 4: KernelPhase) a record
// of the minors this reader knows can carry.
constexpr std::uint8_t kMaxRecordKind = format::kRecordDetail;
constexpr std::uint8_t kMaxEventType = format::kLastEventType;

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

Status too_many_entries(const SectionView& s, std::uint64_t offset) {
  return section_error(s, offset,
                       "more than " + std::to_string(kMaxTextEntries) +
                           " entries; expected at most that many (a capture writes a few dozen)");
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
  const format::CommunicatorInfo& c = entries[0];
  if (c.nranks < 0 || c.nranks > kMaxRanks) {
    return section_error(s, s.payload_offset() + offsetof(format::CommunicatorInfo, nranks),
                         "nranks " + std::to_string(c.nranks) + ": expected 0 to " +
                             std::to_string(kMaxRanks) +
                             " (the largest communicator npkit-analyze reads)");
  }
  if (c.rank < -1 || c.rank >= kMaxRanks || (c.nranks > 0 && c.rank >= c.nranks)) {
    return section_error(s, s.payload_offset() + offsetof(format::CommunicatorInfo, rank),
                         "rank " + std::to_string(c.rank) + ": expected -1 (unknown) or 0 to " +
                             std::to_string((c.nranks > 0 ? c.nranks : kMaxRanks) - 1));
  }
  dump.comm = c;
  return Ok{};
}

Status read_metadata(const SectionView& s, NpktDump& dump) {
  constexpr std::size_t kHeader = sizeof(format::MetadataEntry);
  return walk_text_entries(
      s, kHeader,
      [](const std::uint8_t* h) {
        return std::uint64_t{load<std::uint32_t>(h)} + load<std::uint32_t>(h + 4);
      },
      [&](const std::uint8_t* h, std::string text, std::uint64_t offset) -> Status {
        if (dump.metadata.size() == kMaxTextEntries) return too_many_entries(s, offset);
        const std::uint32_t key_size = load<std::uint32_t>(h);
        dump.metadata.emplace_back(text.substr(0, key_size), text.substr(key_size));
        return Ok{};
      });
}

Status read_names(const SectionView& s, NpktDump& dump) {
  constexpr std::size_t kHeader = sizeof(format::NameEntry);
  std::uint64_t unknown_domain = 0;
  std::size_t entries = 0;
  NPKIT_TRY(walk_text_entries(
      s, kHeader, [](const std::uint8_t* h) { return std::uint64_t{load<std::uint32_t>(h + 8)}; },
      [&](const std::uint8_t* h, std::string text, std::uint64_t offset) -> Status {
        if (++entries > kMaxTextEntries) return too_many_entries(s, offset);
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

// Live files reserve a Threads entry per possible thread: those never written (os_tid 0) are left
// out.
Status read_threads(const SectionView& s, NpktDump& dump) {
  NPKIT_TRY(read_fixed(s, dump.threads));
  if (dump.is_live()) {
    std::erase_if(dump.threads, [](const format::ThreadEntry& t) { return t.os_tid == 0; });
  }
  return Ok{};
}

// A live file's strings: entry i holds string id i + 1 once written (id 0: not written).
Status read_live_strings(const SectionView& s, NpktDump& dump) {
  std::vector<format::LiveStringEntry> entries;
  NPKIT_TRY(read_fixed(s, entries));
  const std::uint64_t first = s.payload_offset();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const format::LiveStringEntry& e = entries[i];
    if (e.id == 0) continue;
    const std::uint64_t offset = first + i * s.entry_size;
    if (e.id != i + 1 || e.id > kMaxStringId) {
      return section_error(s, offset,
                           "entry " + std::to_string(i) + " holds string id " +
                               std::to_string(e.id) + "; expected " + std::to_string(i + 1) +
                               " (or 0: not written)");
    }
    if (e.size > sizeof(e.text)) {
      return section_error(s, offset + 4,
                           "string size " + std::to_string(e.size) + ": expected at most " +
                               std::to_string(sizeof(e.text)));
    }
    if (e.id >= dump.strings.size()) dump.strings.resize(e.id + 1);
    dump.strings[e.id].assign(e.text, e.size);
  }
  return Ok{};
}

// Keeps the finished records of known kind and type, in file order, compacting in place; counts
// the rest in warnings.
void filter_records(const SectionView& s, NpktDump& dump) {
  std::uint64_t unfinished = 0;
  std::uint64_t unknown = 0;
  std::string first_unknown;
  std::size_t kept = 0;
  // A live file's kind-0 records are room not used yet (segments that threads took and had not
  // filled), or records being written when the process ended: neither is counted.
  const bool live = dump.is_live();
  for (std::size_t i = 0; i < dump.records.size(); ++i) {
    const format::ProfilerRecord& r = dump.records[i];
    if (r.kind == format::kRecordNone) {
      if (!live) ++unfinished;
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
                            " record(s) of an unknown kind (> 4) or event type (> 15) skipped; "
                            "first at " +
                            first_unknown);
  }
}

Status read_records(const SectionView& s, NpktDump& dump) {
  NPKIT_TRY(read_fixed(s, dump.records));
  filter_records(s, dump);
  return Ok{};
}

Status read_event_names(const SectionView& s, NpktDump& dump) {
  constexpr std::size_t kHeader = sizeof(format::EventNameEntry);
  constexpr std::uint32_t kMaxEventId = 0xFFFF;
  std::vector<bool> named(kMaxEventId + 1, false);
  std::uint64_t unknown_kind = 0;
  std::string first_unknown;
  NPKIT_TRY(walk_text_entries(
      s, kHeader,
      [](const std::uint8_t* h) {
        return std::uint64_t{load<std::uint32_t>(h + 8)} + load<std::uint32_t>(h + 12);
      },
      [&](const std::uint8_t* h, std::string text, std::uint64_t offset) -> Status {
        const std::uint32_t id = load<std::uint32_t>(h);
        const std::uint32_t kind = load<std::uint32_t>(h + 4);
        const std::uint32_t name_size = load<std::uint32_t>(h + 8);
        if (id > kMaxEventId) {
          return section_error(s, offset,
                               "event id " + std::to_string(id) +
                                   ": expected at most 65535 (EventRecord ids are 16-bit)");
        }
        if (named[id]) {
          return section_error(
              s, offset, "event id " + std::to_string(id) + " named twice; expected unique ids");
        }
        named[id] = true;
        if (kind < format::kEventEntry || kind > format::kEventInstant) {
          if (unknown_kind++ == 0) {
            first_unknown = "offset " + std::to_string(offset) + ": id " + std::to_string(id) +
                            ", kind " + std::to_string(kind);
          }
          return Ok{};
        }
        dump.event_names.push_back(
            NpktEventName{static_cast<std::uint16_t>(id), static_cast<format::EventKind>(kind),
                          text.substr(0, name_size), text.substr(name_size)});
        return Ok{};
      }));
  if (unknown_kind > 0) {
    dump.warnings.push_back(std::to_string(unknown_kind) +
                            " event name(s) of an unknown kind (known: 1 ENTRY, 2 EXIT, 3 instant) "
                            "skipped; their records read as unnamed; first at " +
                            first_unknown);
  }
  return Ok{};
}

Status read_streams(const SectionView& s, NpktDump& dump) {
  const std::size_t first = dump.streams.size();
  NPKIT_TRY(read_fixed(s, dump.streams));
  for (std::size_t i = first; i < dump.streams.size(); ++i) {
    dump.stream_offsets.push_back(s.payload_offset() + (i - first) * s.entry_size);
    dump.stream_numbers.push_back(static_cast<std::uint32_t>(i - first));
  }
  return Ok{};
}

Status read_event_records(const SectionView& s, NpktDump& dump) {
  NPKIT_TRY(read_fixed(s, dump.event_records));
  dump.event_records_offset = s.payload_offset();
  dump.event_record_size = s.entry_size;
  return Ok{};
}

std::string record_range(std::uint64_t first, std::uint64_t count) {
  return "[" + std::to_string(first) + ", " + std::to_string(first) + " + " +
         std::to_string(count) + ")";
}

bool known_stream(const format::StreamInfo& s) {
  return s.source >= format::kStreamGpuBlock && s.source <= format::kStreamHostThread &&
         s.clock >= format::kStreamClockGlobalTimer && s.clock <= format::kStreamClockHost;
}

struct SectionKind {
  std::uint32_t kind;
  const char* name;
  Status (*decode)(const SectionView&, NpktDump&);
};

Status read_clock_samples(const SectionView& s, NpktDump& dump) {
  return read_fixed(s, dump.clock_samples);
}

constexpr SectionKind kSectionKinds[] = {
    {format::kSectionCommunicator, "Communicator", read_communicator},
    {format::kSectionMetadata, "Metadata", read_metadata},
    {format::kSectionClockSamples, "ClockSamples", read_clock_samples},
    {format::kSectionNames, "Names", read_names},
    {format::kSectionStrings, "Strings", read_strings},
    {format::kSectionThreads, "Threads", read_threads},
    {format::kSectionProfilerRecords, "ProfilerRecords", read_records},
    {format::kSectionEventNames, "EventNames", read_event_names},
    {format::kSectionStreams, "Streams", read_streams},
    {format::kSectionEventRecords, "EventRecords", read_event_records},
    {format::kSectionLiveStrings, "LiveStrings", read_live_strings},
};

const SectionKind* find_kind(std::uint32_t kind) {
  for (const auto& k : kSectionKinds) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

}  // namespace

Status check_event_streams(const std::string& file, bool streams_seen, std::uint64_t records_header,
                           NpktDump& dump) {
  const std::uint64_t total = dump.event_records.size();
  if (!streams_seen && total > 0) {
    return error_at(file, records_header,
                    "EventRecords section: " + std::to_string(total) +
                        " record(s) but no Streams section to say whose they are; expected a "
                        "Streams section (kind 9)");
  }
  constexpr std::uint64_t kFirstRecordField = 24;
  std::vector<std::size_t> order;
  std::uint64_t owned = 0;
  for (std::size_t i = 0; i < dump.streams.size(); ++i) {
    const format::StreamInfo& s = dump.streams[i];
    if (s.first_record > total || s.records_written > total - s.first_record) {
      return error_at(file, dump.stream_offsets[i] + kFirstRecordField,
                      "Streams section: stream " + std::to_string(dump.stream_numbers[i]) +
                          ": records " + record_range(s.first_record, s.records_written) +
                          " run past the " + std::to_string(total) +
                          " record(s) of the EventRecords section");
    }
    if (s.records_written == 0) continue;
    order.push_back(i);
    owned += s.records_written;
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return dump.streams[a].first_record < dump.streams[b].first_record;
  });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const format::StreamInfo& prev = dump.streams[order[k - 1]];
    const format::StreamInfo& next = dump.streams[order[k]];
    if (next.first_record < prev.first_record + prev.records_written) {
      return error_at(file, dump.stream_offsets[order[k]] + kFirstRecordField,
                      "Streams section: stream " + std::to_string(dump.stream_numbers[order[k]]) +
                          ": records " + record_range(next.first_record, next.records_written) +
                          " overlap stream " + std::to_string(dump.stream_numbers[order[k - 1]]) +
                          "'s records " + record_range(prev.first_record, prev.records_written));
    }
  }
  if (owned < total) {
    dump.warnings.push_back(std::to_string(total - owned) +
                            " event record(s) belong to no stream and were ignored");
  }
  std::size_t kept = 0;
  std::uint64_t unknown = 0;
  std::string first_unknown;
  for (std::size_t i = 0; i < dump.streams.size(); ++i) {
    const format::StreamInfo& s = dump.streams[i];
    if (!known_stream(s)) {
      if (unknown++ == 0) {
        first_unknown = "stream " + std::to_string(dump.stream_numbers[i]) + " at offset " +
                        std::to_string(dump.stream_offsets[i]) + ": source " +
                        std::to_string(s.source) + ", clock " + std::to_string(s.clock);
      }
      continue;
    }
    dump.streams[kept] = s;
    dump.stream_offsets[kept] = dump.stream_offsets[i];
    dump.stream_numbers[kept] = dump.stream_numbers[i];
    ++kept;
  }
  dump.streams.resize(kept);
  dump.stream_offsets.resize(kept);
  dump.stream_numbers.resize(kept);
  if (unknown > 0) {
    dump.warnings.push_back(std::to_string(unknown) +
                            " stream(s) of an unknown source (known: 1-3) or clock (known: 1-3) "
                            "skipped with their records; first: " +
                            first_unknown);
  }
  return Ok{};
}

Error error_at(const std::string& file, std::uint64_t offset, const std::string& what) {
  return Error{file + ": offset " + std::to_string(offset) + ": " + what};
}

std::string section_name(std::uint32_t kind) {
  const SectionKind* k = find_kind(kind);
  return k ? std::string(k->name) + " section" : "section of kind " + std::to_string(kind);
}

bool is_known_section(std::uint32_t kind) {
  return find_kind(kind) != nullptr;
}

Status decode_section(const SectionView& section, NpktDump& dump) {
  const SectionKind* k = find_kind(section.kind);
  if (k == nullptr) {
    return section_error(section, section.header_offset, "not a section kind this reader decodes");
  }
  return k->decode(section, dump);
}

}  // namespace npkit::npkt
