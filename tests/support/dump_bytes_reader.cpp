#include "support/dump_bytes_reader.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

namespace npkit::test {
namespace {

template <typename T>
bool read_at(const std::string& bytes, uint64_t offset, T* out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(out, bytes.data() + offset, sizeof(T));
  return true;
}

// Splits a variable section into {fixed head, text...} entries; `text_sizes` gives the text
// lengths that follow each head.
template <typename Head, typename TextSizes, typename Emit>
void walk_entries(const std::string& payload, TextSizes text_sizes, Emit emit,
                  std::vector<std::string>* problems, const char* what) {
  uint64_t offset = 0;
  while (offset < payload.size()) {
    Head head;
    if (!read_at(payload, offset, &head)) {
      problems->push_back(std::string(what) + ": truncated entry head");
      return;
    }
    offset += sizeof(Head);
    const std::vector<uint64_t> sizes = text_sizes(head);
    std::vector<std::string> texts;
    for (uint64_t size : sizes) {
      if (payload.size() - offset < size) {
        problems->push_back(std::string(what) + ": truncated entry text");
        return;
      }
      texts.push_back(payload.substr(offset, size));
      offset += size;
    }
    emit(head, texts);
  }
}

template <typename Entry>
void read_array(const std::string& payload, uint32_t entry_size, std::vector<Entry>* out,
                std::vector<std::string>* problems) {
  if (entry_size != sizeof(Entry) || payload.size() % sizeof(Entry) != 0) {
    problems->push_back("array section with entry_size " + std::to_string(entry_size) +
                        " and payload " + std::to_string(payload.size()));
    return;
  }
  out->resize(payload.size() / sizeof(Entry));
  if (!payload.empty()) std::memcpy(out->data(), payload.data(), payload.size());
}

}  // namespace

std::string ParsedDump::meta(const std::string& key) const {
  for (const auto& [k, v] : metadata) {
    if (k == key) return v;
  }
  return "<absent>";
}

ParsedDump parse_dump_bytes(const std::string& bytes) {
  ParsedDump dump;
  auto& problems = dump.problems;
  if (!read_at(bytes, 0, &dump.header)) {
    problems.push_back("shorter than a file header");
    return dump;
  }
  const format::FileHeader& header = dump.header;
  if (std::memcmp(header.magic, "NPKTDUMP", 8) != 0) problems.push_back("bad magic");
  if (header.major != 1) problems.push_back("major is not 1");
  if (header.header_size != 64) problems.push_back("header_size is not 64");
  if (header.endian_marker != 0x01020304u) problems.push_back("bad endian marker");
  if (header.file_size != bytes.size()) problems.push_back("file_size differs from the size");
  for (uint8_t b : header.reserved) {
    if (b != 0) problems.push_back("header reserved byte not zero");
  }

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
    const std::string payload = bytes.substr(offset, section.payload_size);
    for (uint64_t pad = section.payload_size; pad < padded; ++pad) {
      if (bytes[offset + pad] != 0) problems.push_back("non-zero padding");
    }
    offset += padded;
    dump.section_kinds.push_back(section.kind);

    switch (section.kind) {
      case 1: {
        std::vector<format::CommunicatorInfo> infos;
        read_array(payload, section.entry_size, &infos, &problems);
        if (infos.size() == 1)
          dump.comm = infos[0];
        else
          problems.push_back("communicator section without exactly one entry");
        break;
      }
      case 2:
        walk_entries<format::MetadataEntry>(
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
        read_array(payload, section.entry_size, &dump.clock_samples, &problems);
        break;
      case 4:
        walk_entries<format::NameEntry>(
            payload, [](const format::NameEntry& e) { return std::vector<uint64_t>{e.name_size}; },
            [&](const format::NameEntry& e, const std::vector<std::string>& t) {
              dump.names.push_back({e.domain, e.id, t[0]});
            },
            &problems, "names");
        break;
      case 5:
        walk_entries<format::StringEntry>(
            payload, [](const format::StringEntry& e) { return std::vector<uint64_t>{e.size}; },
            [&](const format::StringEntry& e, const std::vector<std::string>& t) {
              if (!dump.strings.emplace(e.id, t[0]).second) problems.push_back("duplicate id");
            },
            &problems, "strings");
        break;
      case 6:
        read_array(payload, section.entry_size, &dump.threads, &problems);
        break;
      case 7:
        read_array(payload, section.entry_size, &dump.records, &problems);
        break;
      default:
        problems.push_back("unknown section kind " + std::to_string(section.kind));
    }
  }
  if (offset != bytes.size()) problems.push_back("bytes after the last section");
  return dump;
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace npkit::test
