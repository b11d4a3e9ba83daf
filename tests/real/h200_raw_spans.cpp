#include "real/h200_raw_spans.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <tuple>

namespace npkit::test {
namespace {

std::uint64_t le(const std::string& b, std::size_t off, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b[off + i]);
  return v;
}

}  // namespace

std::map<std::uint64_t, std::map<int, std::vector<RawSpan>>> h200_raw_spans_by_size(
    const std::string& dump, int entry_id) {
  // (size, rank, k) -> span
  std::map<std::tuple<std::uint64_t, int, int>, RawSpan> inst;
  for (const auto& e : std::filesystem::directory_iterator(dump)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("gpu_events_rank_", 0) != 0) continue;
    const int rank = std::stoi(name.substr(16));
    std::ifstream in(e.path(), std::ios::binary);
    const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::int64_t cpu = 0;
    std::int64_t start = 0;
    std::optional<std::uint64_t> gpu;
    std::map<std::uint64_t, int> k;  // per size
    for (std::size_t off = 0; off + 16 <= b.size(); off += 16) {
      const int id = static_cast<unsigned char>(b[off]);
      const std::uint64_t ts = le(b, off + 8, 8);
      if (id == 0x34) {
        cpu = static_cast<std::int64_t>(ts);
        gpu.reset();
        continue;
      }
      if (id == 0x33) {
        if (!gpu) gpu = ts;
        continue;
      }
      if (!gpu) gpu = ts;
      const auto delta = static_cast<std::int64_t>(ts - *gpu);
      const std::int64_t ns = cpu + (delta * 2000000 + 1980000) / (2 * 1980000);
      const std::uint64_t size = le(b, off + 1, 4);
      if (id == entry_id) start = ns;
      if (id == entry_id + 1) {
        auto [it, fresh] = inst.try_emplace({size, rank, k[size]++}, RawSpan{start, ns});
        if (!fresh) {
          it->second.start = std::min(it->second.start, start);
          it->second.end = std::max(it->second.end, ns);
        }
      }
    }
  }
  std::map<std::uint64_t, std::map<int, std::vector<RawSpan>>> out;
  for (const auto& [key, span] : inst) {
    const auto& [size, rank, k] = key;
    out[size][rank].push_back(span);
  }
  return out;
}

std::map<int, std::vector<RawSpan>> h200_raw_spans(const std::string& dump, std::uint64_t size,
                                                   int entry_id) {
  auto all = h200_raw_spans_by_size(dump, entry_id);
  return all[size];
}

}  // namespace npkit::test
