// rank_filter.hpp — the `--ranks` selection: "all", or a list such as "0,2-5,7".
// Contract: parse() rejects malformed lists with a message quoting the bad part; an empty
// filter selects every rank.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "util/result.hpp"

namespace npkit {

class RankFilter {
 public:
  static Result<RankFilter> parse(std::string_view text);
  bool contains(std::uint32_t rank) const;
  bool selects_all() const { return ranges_.empty(); }

 private:
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges_;  // inclusive
};

}  // namespace npkit
