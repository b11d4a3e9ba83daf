#include "run/run_config.hpp"

#include <fmt/format.h>

namespace npkit {

std::uint64_t RunConfig::rank_count() const {
  std::uint64_t n = 0;
  for (const auto& [hash, comm] : communicators) n += comm.ranks.size();
  return n;
}

std::string communicator_key(std::uint64_t hash) {
  return hash == 0 ? std::string("legacy") : fmt::format("{:016x}", hash);
}

}  // namespace npkit
