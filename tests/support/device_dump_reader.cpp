#include "support/device_dump_reader.hpp"

#include <cstring>

namespace npkit::test {
namespace {

template <typename T>
bool read_at(const std::string& bytes, uint64_t offset, T* out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(out, bytes.data() + offset, sizeof(T));
  return true;
}

template <typename T>
void read_array(const std::string& payload, uint32_t entry_size, std::vector<T>* out,
                std::vector<std::string>* problems, const char* what) {
  if (entry_size != sizeof(T)) {
    problems->push_back(std::string(what) + ": entry_size " + std::to_string(entry_size));
    return;
  }
  if (payload.size() % sizeof(T) != 0) {
    problems->push_back(std::string(what) + ": payload not a whole number of entries");
    return;
  }
  out->resize(payload.size() / sizeof(T));
  if (!out->empty()) std::memcpy(out->data(), payload.data(), payload.size());
}

// Reads a {Head, text, text...} sequence; sizes(head) gives the text sizes.
template <typename Head, typename Sizes, typename Take>
void read_entries(const std::string& payload, Sizes sizes, Take take,
                  std::vector<std::string>* problems, const char* what) {
  uint64_t offset = 0;
  while (offset < payload.size()) {
    Head head;
    if (!read_at(payload, offset, &head)) {
      problems->push_back(std::string(what) + ": entry header past the end");
      return;
    }
    offset += sizeof(Head);
    std::vector<std::string> texts;
    for (uint64_t size : sizes(head)) {
      if (payload.size() - offset < size) {
        problems->push_back(std::string(what) + ": text past the end");
        return;
      }
      texts.push_back(payload.substr(offset, size));
      offset += size;
    }
    take(head, texts);
  }
}

}  // namespace

std::string ReadEventDump::meta(const std::string& key) const {
  for (const auto& [k, v] : metadata) {
    if (k == key) return v;
  }
  return "<absent>";
}

ReadEventDump read_event_dump(const std::string& bytes) {
  ReadEventDump dump;
  auto& problems = dump.problems;
  if (!read_at(bytes, 0, &dump.header)) {
    problems.push_back("shorter than a file header");
    return dump;
  }
  const format::FileHeader& header = dump.header;
  if (std::memcmp(header.magic, "NPKTDUMP", 8) != 0) problems.push_back("bad magic");
  if (header.major != 1 || header.minor < 1) problems.push_back("version is not 1.1 or later");
  if (header.header_size != 64) problems.push_back("header_size is not 64");
  if (header.endian_marker != 0x01020304u) problems.push_back("bad endian marker");
  if (header.file_size != bytes.size()) problems.push_back("file_size differs from the size");

  uint64_t offset = 64;
  for (uint32_t index = 0; index < header.section_count; ++index) {
    format::SectionHeader section;
    if (!read_at(bytes, offset, &section)) {
      problems.push_back("section header past the end");
      return dump;
    }
    offset += sizeof(section);
    const uint64_t padded = (section.payload_size + 7) / 8 * 8;
    if (bytes.size() - offset < padded) {
      problems.push_back("section payload past the end");
      return dump;
    }
    for (uint64_t pad = section.payload_size; pad < padded; ++pad) {
      if (bytes[offset + pad] != 0) problems.push_back("non-zero padding");
    }
    const std::string payload = bytes.substr(offset, section.payload_size);
    dump.sections.push_back({section.kind, section.entry_size, offset, section.payload_size});
    dump.section_kinds.push_back(section.kind);
    offset += padded;

    switch (section.kind) {
      case 1: {
        std::vector<format::CommunicatorInfo> infos;
        read_array(payload, section.entry_size, &infos, &problems, "communicator");
        if (infos.size() == 1) {
          dump.comm = infos[0];
        } else {
          problems.push_back("communicator section without exactly one entry");
        }
        break;
      }
      case 2:
        read_entries<format::MetadataEntry>(
            payload,
            [](const format::MetadataEntry& e) {
              return std::vector<uint64_t>{e.key_size, e.value_size};
            },
            [&](const format::MetadataEntry&, const std::vector<std::string>& t) {
              dump.metadata.emplace_back(t[0], t[1]);
            },
            &problems, "metadata");
        break;
      case 3:
        read_array(payload, section.entry_size, &dump.clock_samples, &problems, "clock samples");
        break;
      case 5:
        read_entries<format::StringEntry>(
            payload, [](const format::StringEntry& e) { return std::vector<uint64_t>{e.size}; },
            [&](const format::StringEntry& e, const std::vector<std::string>& t) {
              if (!dump.strings.emplace(e.id, t[0]).second) problems.push_back("duplicate string");
            },
            &problems, "strings");
        break;
      case 8:
        read_entries<format::EventNameEntry>(
            payload,
            [](const format::EventNameEntry& e) {
              return std::vector<uint64_t>{e.name_size, e.phase_size};
            },
            [&](const format::EventNameEntry& e, const std::vector<std::string>& t) {
              dump.event_names.push_back({e.id, e.kind, t[0], t[1]});
            },
            &problems, "event names");
        break;
      case 9:
        read_array(payload, section.entry_size, &dump.streams, &problems, "streams");
        break;
      case 10:
        read_array(payload, section.entry_size, &dump.records, &problems, "event records");
        break;
      default:
        break;
    }
  }
  if (offset != bytes.size()) problems.push_back("bytes after the last section");
  return dump;
}

}  // namespace npkit::test
