// npkt_perturb.hpp — TEST-ONLY rewriting of a real .npkt file's records, for perturbed copies.
// Contract: works on the bytes alone (a second reading of include/npkit/format.hpp: file header
// fields at 12 (header_size) and 20 (section_count), 16-byte section headers, 8-byte padding),
// independent of the analyzer's reader. NpktImage::load REQUIREs a file with a records section.
// - stretch_kernels: every KernelCh whose parent Coll has the given Coll count (the payload's
//   count field) gets GPU stop = start + (stop − start) × factor(Coll event id), rounded; the
//   start (payload) and every host timestamp stay. factor 1.15 slows that collective by 15 %.
// - set_proto: the proto string id of every Coll start record with that count.
// - string_id: the id of an interned string (Strings section), 0 when absent.
// - set_metadata: replaces a metadata value by one of the same length (the layout stays).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npkit::test {

class NpktImage {
 public:
  static NpktImage load(const std::string& path);
  void save(const std::string& path) const;

  // Returns the number of KernelCh events changed.
  std::size_t stretch_kernels(std::uint64_t coll_count,
                              const std::function<double(std::uint64_t coll_id)>& factor);
  std::size_t set_proto(std::uint64_t coll_count, std::uint16_t proto_string);
  std::uint16_t string_id(const std::string& text) const;
  void set_metadata(const std::string& key, const std::string& value);

 private:
  struct Section {
    std::uint32_t kind = 0;
    std::uint32_t entry_size = 0;
    std::size_t payload = 0;
    std::size_t size = 0;
  };
  const Section& section(std::uint32_t kind) const;
  std::uint64_t u64(std::size_t at) const;
  std::uint32_t u32(std::size_t at) const;
  std::uint16_t u16(std::size_t at) const;
  void put_u64(std::size_t at, std::uint64_t v);
  void put_u16(std::size_t at, std::uint16_t v);

  std::vector<std::uint8_t> bytes_;
  std::vector<Section> sections_;
};

}  // namespace npkit::test
