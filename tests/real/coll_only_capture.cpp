#include "real/coll_only_capture.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "npkit/format.hpp"
#include "util/gunzip.hpp"

namespace npkit::test {
namespace {

using Bytes = std::vector<std::uint8_t>;

template <typename T>
T load(const Bytes& b, std::size_t at) {
  REQUIRE(at + sizeof(T) <= b.size());
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

template <typename T>
void store(Bytes& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

template <typename T>
void append(Bytes& b, T v) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof v);
}

Bytes read_capture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  Bytes raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!gz::looks_like_gzip(raw.data(), raw.size())) return raw;
  Bytes out;
  const auto status = gz::gunzip(path, raw.data(), raw.size(),
                                 {gz::gunzip_bound(raw.size()), "the test's bound"}, out);
  REQUIRE(status.ok());
  return out;
}

// The metadata payload with capture.events set to `events`.
Bytes metadata_with(const Bytes& b, std::size_t at, std::size_t size, const std::string& events) {
  Bytes out;
  const std::size_t end = at + size;
  while (at + sizeof(format::MetadataEntry) <= end) {
    const auto key_size = load<std::uint32_t>(b, at);
    const auto value_size = load<std::uint32_t>(b, at + 4);
    const std::size_t key_at = at + sizeof(format::MetadataEntry);
    REQUIRE(key_at + key_size + value_size <= end);
    const std::string key(b.begin() + static_cast<std::ptrdiff_t>(key_at),
                          b.begin() + static_cast<std::ptrdiff_t>(key_at + key_size));
    std::string value(b.begin() + static_cast<std::ptrdiff_t>(key_at + key_size),
                      b.begin() + static_cast<std::ptrdiff_t>(key_at + key_size + value_size));
    if (key == "capture.events") value = events;
    append(out, static_cast<std::uint32_t>(key.size()));
    append(out, static_cast<std::uint32_t>(value.size()));
    out.insert(out.end(), key.begin(), key.end());
    out.insert(out.end(), value.begin(), value.end());
    at = key_at + key_size + value_size;
  }
  return out;
}

}  // namespace

void write_capture_with(const std::string& source, const std::string& target,
                        std::uint64_t kept_types, std::uint64_t mask, const std::string& events) {
  const Bytes in = read_capture(source);
  REQUIRE(in.size() >= sizeof(format::FileHeader));
  const bool live = (load<std::uint64_t>(in, 32) & format::kFeatureLiveFile) != 0;
  const auto old_file_size = load<std::uint64_t>(in, 24);
  const auto sections = load<std::uint32_t>(in, 20);
  Bytes out(in.begin(), in.begin() + load<std::uint32_t>(in, 12));
  std::size_t at = out.size();
  std::uint64_t removed = 0;
  std::size_t comm_at = 0;
  std::uint64_t live_tail = 0;  // a live file: bytes from its records' start to its full size
  std::size_t records_at = 0;   // where the records start in `out`
  for (std::uint32_t i = 0; i < sections && at + sizeof(format::SectionHeader) <= in.size(); ++i) {
    const auto kind = load<std::uint32_t>(in, at);
    const auto entry_size = load<std::uint32_t>(in, at + 4);
    const auto size = load<std::uint64_t>(in, at + 8);
    const std::size_t payload = at + sizeof(format::SectionHeader);
    const std::size_t present = std::min<std::size_t>(size, in.size() - payload);
    Bytes body(in.begin() + static_cast<std::ptrdiff_t>(payload),
               in.begin() + static_cast<std::ptrdiff_t>(payload + present));
    std::uint64_t written_size = size;
    if (kind == format::kSectionMetadata) {
      body = metadata_with(in, payload, present, events);
      written_size = body.size();
    } else if (kind == format::kSectionProfilerRecords) {
      REQUIRE(entry_size == sizeof(format::ProfilerRecord));
      Bytes kept;
      for (std::size_t r = 0; r + entry_size <= body.size(); r += entry_size) {
        const std::uint8_t record_kind = body[r + offsetof(format::ProfilerRecord, kind)];
        const std::uint8_t type = body[r + offsetof(format::ProfilerRecord, type)];
        if (record_kind == format::kRecordNone || ((kept_types >> type) & 1u) != 0) {
          kept.insert(kept.end(), body.begin() + static_cast<std::ptrdiff_t>(r),
                      body.begin() + static_cast<std::ptrdiff_t>(r + entry_size));
        } else {
          ++removed;
        }
      }
      body = std::move(kept);
      // A live file keeps its capacity: the records written stand at the section's start.
      if (live) {
        live_tail = old_file_size - payload;
        records_at = out.size() + sizeof(format::SectionHeader);
      } else {
        written_size = body.size();
      }
    } else if (kind == format::kSectionCommunicator) {
      comm_at = out.size() + sizeof(format::SectionHeader);
    }
    append(out, kind);
    append(out, entry_size);
    append(out, written_size);
    out.insert(out.end(), body.begin(), body.end());
    if (present < size) break;  // a live file's records end the file
    out.resize((out.size() + 7) / 8 * 8, 0);
    at = (payload + size + 7) / 8 * 8;
  }
  REQUIRE(comm_at != 0);
  store(out, comm_at + offsetof(format::CommunicatorInfo, event_mask), mask);
  if (!live) {
    const auto attempted =
        load<std::uint64_t>(out, comm_at + offsetof(format::CommunicatorInfo, records_attempted));
    store(out, comm_at + offsetof(format::CommunicatorInfo, records_attempted),
          attempted - removed);
  }
  // A live file's records section is its last: its start plus the whole capacity.
  store(out, 24, live ? records_at + live_tail : std::uint64_t{out.size()});
  std::ofstream f(target, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
  REQUIRE(f.good());
}

}  // namespace npkit::test
