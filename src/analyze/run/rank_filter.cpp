#include "run/rank_filter.hpp"

#include <charconv>
#include <string>

namespace npkit {
namespace {

bool parse_u32(std::string_view s, std::uint32_t& out) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

Result<RankFilter> RankFilter::parse(std::string_view text) {
  RankFilter f;
  if (text.empty() || text == "all") return f;
  for (bool more = true; more;) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    more = comma != std::string_view::npos;
    text = more ? text.substr(comma + 1) : std::string_view{};
    const auto dash = item.find('-');
    std::uint32_t lo = 0;
    std::uint32_t hi = 0;
    const bool ok = dash == std::string_view::npos ? parse_u32(item, lo) && parse_u32(item, hi)
                                                   : parse_u32(item.substr(0, dash), lo) &&
                                                         parse_u32(item.substr(dash + 1), hi);
    if (!ok || lo > hi) {
      return Error{"--ranks: '" + std::string(item) +
                   "' is not a rank or a range; expected e.g. 0,2-5,7"};
    }
    f.ranges_.emplace_back(lo, hi);
  }
  return f;
}

bool RankFilter::contains(std::uint32_t rank) const {
  if (ranges_.empty()) return true;
  for (const auto& [lo, hi] : ranges_) {
    if (rank >= lo && rank <= hi) return true;
  }
  return false;
}

}  // namespace npkit
