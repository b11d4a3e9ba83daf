#include "unit/analysis/diff/npkt_perturb.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>

namespace npkit::test {
namespace {

// ProfilerRecord fields (format.hpp): host_ns 0, event_id 8, parent_id 16, kind 24, type 25,
// thread 26, word 28, payload 32.
constexpr std::size_t kEventId = 8;
constexpr std::size_t kParentId = 16;
constexpr std::size_t kKind = 24;
constexpr std::size_t kType = 25;
constexpr std::size_t kWord = 28;
constexpr std::size_t kPayload = 32;
constexpr std::uint8_t kStart = 1;
constexpr std::uint8_t kState = 3;
constexpr std::uint8_t kColl = 1;
constexpr std::uint8_t kKernelCh = 6;
constexpr std::uint32_t kKernelChStop = 22;
// CollPayload: seq 0, count 8, root 16, func 20, datatype 22, algo 24, proto 26.
constexpr std::size_t kCollCount = kPayload + 8;
constexpr std::size_t kCollProto = kPayload + 26;

}  // namespace

NpktImage NpktImage::load(const std::string& path) {
  NpktImage image;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  image.bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  REQUIRE(image.bytes_.size() >= 64);
  std::size_t at = image.u32(12);
  const std::uint32_t count = image.u32(20);
  for (std::uint32_t i = 0; i < count; ++i) {
    REQUIRE(at + 16 <= image.bytes_.size());
    Section s;
    s.kind = image.u32(at);
    s.entry_size = image.u32(at + 4);
    s.size = image.u64(at + 8);
    s.payload = at + 16;
    REQUIRE(s.payload + s.size <= image.bytes_.size());
    image.sections_.push_back(s);
    at = (s.payload + s.size + 7) / 8 * 8;
  }
  return image;
}

void NpktImage::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes_.data()),
            static_cast<std::streamsize>(bytes_.size()));
  REQUIRE(out.good());
}

const NpktImage::Section& NpktImage::section(std::uint32_t kind) const {
  for (const auto& s : sections_) {
    if (s.kind == kind) return s;
  }
  FAIL("no section of kind " << kind);
  return sections_.front();
}

std::uint64_t NpktImage::u64(std::size_t at) const {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | bytes_.at(at + static_cast<std::size_t>(i));
  return v;
}

std::uint32_t NpktImage::u32(std::size_t at) const {
  return static_cast<std::uint32_t>(u64(at) & 0xFFFFFFFFu);
}

std::uint16_t NpktImage::u16(std::size_t at) const {
  return static_cast<std::uint16_t>(bytes_.at(at) | bytes_.at(at + 1) << 8);
}

void NpktImage::put_u64(std::size_t at, std::uint64_t v) {
  for (std::size_t i = 0; i < 8; ++i) bytes_.at(at + i) = static_cast<std::uint8_t>(v >> (8 * i));
}

void NpktImage::put_u16(std::size_t at, std::uint16_t v) {
  bytes_.at(at) = static_cast<std::uint8_t>(v);
  bytes_.at(at + 1) = static_cast<std::uint8_t>(v >> 8);
}

std::size_t NpktImage::stretch_kernels(std::uint64_t coll_count,
                                       const std::function<double(std::uint64_t coll_id)>& factor) {
  const Section& records = section(7);
  const std::size_t n = records.size / records.entry_size;
  auto record = [&](std::size_t i) { return records.payload + i * records.entry_size; };
  std::map<std::uint64_t, bool> colls;                 // Coll ids with that count
  std::map<std::uint64_t, std::uint64_t> kernel_coll;  // KernelCh id -> its Coll
  std::map<std::uint64_t, std::uint64_t> kernel_start;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = record(i);
    if (bytes_[r + kKind] != kStart) continue;
    if (bytes_[r + kType] == kColl && u64(r + kCollCount) == coll_count)
      colls[u64(r + kEventId)] = true;
    if (bytes_[r + kType] == kKernelCh && colls.count(u64(r + kParentId)) != 0) {
      kernel_coll[u64(r + kEventId)] = u64(r + kParentId);
      kernel_start[u64(r + kEventId)] = u64(r + kPayload);
    }
  }
  std::size_t changed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = record(i);
    if (bytes_[r + kKind] != kState || bytes_[r + kType] != kKernelCh ||
        u32(r + kWord) != kKernelChStop) {
      continue;
    }
    const auto k = kernel_coll.find(u64(r + kEventId));
    if (k == kernel_coll.end()) continue;
    const std::uint64_t start = kernel_start[k->first];
    const std::uint64_t stop = u64(r + kPayload);
    if (stop < start) continue;
    const double stretched = static_cast<double>(stop - start) * factor(k->second);
    put_u64(r + kPayload, start + static_cast<std::uint64_t>(std::llround(stretched)));
    ++changed;
  }
  return changed;
}

std::size_t NpktImage::set_proto(std::uint64_t coll_count, std::uint16_t proto_string) {
  const Section& records = section(7);
  std::size_t changed = 0;
  for (std::size_t i = 0; i < records.size / records.entry_size; ++i) {
    const std::size_t r = records.payload + i * records.entry_size;
    if (bytes_[r + kKind] != kStart || bytes_[r + kType] != kColl) continue;
    if (u64(r + kCollCount) != coll_count) continue;
    put_u16(r + kCollProto, proto_string);
    ++changed;
  }
  return changed;
}

std::uint16_t NpktImage::string_id(const std::string& text) const {
  const Section& s = section(5);
  for (std::size_t at = s.payload; at + 8 <= s.payload + s.size;) {
    const std::uint32_t id = u32(at);
    const std::uint32_t size = u32(at + 4);
    if (std::string(bytes_.begin() + static_cast<std::ptrdiff_t>(at + 8),
                    bytes_.begin() + static_cast<std::ptrdiff_t>(at + 8 + size)) == text) {
      return static_cast<std::uint16_t>(id);
    }
    at += 8 + size;
  }
  return 0;
}

void NpktImage::set_metadata(const std::string& key, const std::string& value) {
  const Section& s = section(2);
  for (std::size_t at = s.payload; at + 8 <= s.payload + s.size;) {
    const std::uint32_t key_size = u32(at);
    const std::uint32_t value_size = u32(at + 4);
    const std::size_t k = at + 8;
    if (std::string(bytes_.begin() + static_cast<std::ptrdiff_t>(k),
                    bytes_.begin() + static_cast<std::ptrdiff_t>(k + key_size)) == key) {
      REQUIRE(value.size() == value_size);
      std::copy(value.begin(), value.end(),
                bytes_.begin() + static_cast<std::ptrdiff_t>(k + key_size));
      return;
    }
    at = k + key_size + value_size;
  }
  FAIL("no metadata key " << key);
}

}  // namespace npkit::test
