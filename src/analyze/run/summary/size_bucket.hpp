// run/summary/size_bucket.hpp — which size a collective row is keyed by.
// Contract: sizes of a collective stay exact (nccl-tests sweeps, training loops with a few fixed
// bucket sizes) unless more than kMaxExactSizes distinct sizes of it were seen; then each size
// maps to the power of two at or below it (0 stays 0). see() every size first, then assign().
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "run/summary/run_summary.hpp"

namespace npkit {

std::uint64_t pow2_floor(std::uint64_t bytes);

class SizeBuckets {
 public:
  void see(const std::string& collective, std::uint64_t bytes);
  // Sets key.size_bytes and key.size_kind for an instance of `collective` of `bytes`.
  void assign(const std::string& collective, std::uint64_t bytes, CollectiveKey& key) const;

 private:
  std::map<std::string, std::set<std::uint64_t>> sizes_;
};

}  // namespace npkit
