#include "analysis/diff/row_quality.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace npkit {

bool RowQuality::below_floor() const {
  return timed == 0 || static_cast<double>(timed) < kQualityFloor * static_cast<double>(instances);
}

std::string RowQuality::text() const {
  return fmt::format(
      "{}/{} timed, {}/{} ranks{}{}", timed, instances, ranks_timed, nranks,
      stale > 0 ? fmt::format(", {} stale on a rank", stale) : "",
      incomplete > 0 ? fmt::format(", {} incomplete (records lost)", incomplete) : "");
}

RowQuality quality_of(const std::vector<const CollectiveRow*>& rows) {
  RowQuality q;
  std::set<std::int32_t> ranks;
  for (const CollectiveRow* row : rows) {
    q.instances += row->instances;
    q.timed += row->instances - std::min(row->untimed_instances, row->instances);
    q.stale += std::min(row->stale_instances, row->instances);
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
