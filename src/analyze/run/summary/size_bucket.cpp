#include "run/summary/size_bucket.hpp"

#include <bit>

namespace npkit {

std::uint64_t pow2_floor(std::uint64_t bytes) {
  return bytes == 0 ? 0 : std::bit_floor(bytes);
}

void SizeBuckets::see(const std::string& collective, std::uint64_t bytes) {
  sizes_[collective].insert(bytes);
}

void SizeBuckets::assign(const std::string& collective, std::uint64_t bytes,
                         CollectiveKey& key) const {
  const auto it = sizes_.find(collective);
  const bool exact = it == sizes_.end() || it->second.size() <= kMaxExactSizes;
  key.size_kind = exact ? SizeKind::kExact : SizeKind::kPow2;
  key.size_bytes = exact ? bytes : pow2_floor(bytes);
}

}  // namespace npkit
