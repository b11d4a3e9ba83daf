#include "analysis/diff/row_quality.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

namespace npkit {

bool RowQuality::below_floor() const {
  const std::uint64_t sampled = instances - std::min(not_sampled, instances);
  return timed == 0 || static_cast<double>(timed) < kQualityFloor * static_cast<double>(sampled);
}

bool RowQuality::too_few_clean() const {
  return timed > 0 && static_cast<double>(timed - std::min(flagged, timed)) <
                          kQualityFloor * static_cast<double>(timed);
}

std::string RowQuality::flag_text() const {
  std::vector<std::string> kinds;
  if (host_disagree > 0) kinds.push_back(fmt::format("{} host-disagree", host_disagree));
  if (short_ > 0) kinds.push_back(fmt::format("{} implausibly short", short_));
  return fmt::format("{}/{} timed flagged: {}", flagged, timed, fmt::join(kinds, ", "));
}

std::string RowQuality::text() const {
  const std::uint64_t sampled = instances - std::min(not_sampled, instances);
  return fmt::format(
      "{}{}/{} timed, {}/{} ranks{}{}{}",
      not_sampled > 0 ? fmt::format("sampled {} of {}: ", sampled, instances) : "", timed, sampled,
      ranks_timed, nranks, stale > 0 ? fmt::format(", {} stale on a rank", stale) : "",
      flagged > 0 ? fmt::format(", {} flagged", flagged) : "",
      incomplete > 0 ? fmt::format(", {} incomplete (records lost)", incomplete) : "");
}

RowQuality quality_of(const std::vector<const CollectiveRow*>& rows) {
  RowQuality q;
  std::set<std::int32_t> ranks;
  for (const CollectiveRow* row : rows) {
    q.instances += row->instances;
    q.timed += row->instances - std::min(row->untimed_instances, row->instances);
    q.not_sampled += std::min(row->not_sampled_instances, row->untimed_instances);
    q.stale += std::min(row->stale_instances, row->instances);
    q.flagged += std::min(row->flagged_instances, row->instances);
    q.host_disagree += std::min(row->host_disagree_instances, row->instances);
    q.short_ += std::min(row->short_instances, row->instances);
    q.incomplete += std::min(row->incomplete_instances, row->instances);
    q.nranks = std::max(q.nranks, row->key.nranks);
    for (const auto& r : row->ranks) {
      if (!r.time_ns.empty()) ranks.insert(r.rank);
    }
  }
  q.ranks_timed = static_cast<std::int32_t>(ranks.size());
  return q;
}

}  // namespace npkit
