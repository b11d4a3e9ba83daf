// util/rank_ranges.hpp — "2-3,5" for a sorted list of ranks (messages and tables).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npkit {

std::string rank_ranges(const std::vector<std::int32_t>& ranks);

}  // namespace npkit
