#include "output/html/timeline_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <compare>
#include <map>
#include <utility>

#include "output/trace/trace_lanes.hpp"

namespace npkit::html {
namespace {

constexpr std::uint32_t kAllLanes = 0xFFFFFFFFu;
constexpr std::uint32_t kMergedLanes = 4;

struct RowKey {
  std::int32_t rank = 0;
  std::uint8_t kind = 0;
  std::uint32_t channel = 0;  // 0 where channels share rows
  auto operator<=>(const RowKey&) const = default;
};

struct Placement {
  std::vector<std::pair<RowKey, std::uint32_t>> lane_of;  // per item
  std::map<RowKey, std::uint32_t> lanes;
  std::size_t rows = 0;
};

Placement place(const std::vector<TimelineItem>& items, bool merged) {
  const std::uint32_t max_lanes = merged ? kMergedLanes : kAllLanes;
  Placement p;
  std::map<RowKey, LanePacker> packers;
  for (const auto& it : items) {
    const RowKey key{it.rank, it.kind, merged ? 0 : it.channel};
    const std::uint32_t lane =
        std::min(packers[key].place(it.start, it.end, it.leaf), max_lanes - 1);
    p.lane_of.emplace_back(key, lane);
    std::uint32_t& n = p.lanes[key];
    n = std::max(n, lane + 1);
  }
  for (const auto& [key, n] : p.lanes) p.rows += n;
  return p;
}

}  // namespace

Timeline lay_out_timeline(std::vector<TimelineItem> items, const RowLabel& row_label,
                          std::size_t max_rows) {
  std::stable_sort(items.begin(), items.end(), [](const TimelineItem& a, const TimelineItem& b) {
    if (a.start != b.start) return a.start < b.start;
    return a.end > b.end;
  });
  Placement p = place(items, false);
  const bool merged = p.rows > max_rows;
  if (merged) p = place(items, true);
  const std::size_t rank_step = p.rows > max_rows ? (p.rows + max_rows - 1) / max_rows : 1;

  Timeline t;
  std::map<std::int32_t, std::size_t> rank_order;
  for (const auto& [key, n] : p.lanes) rank_order.emplace(key.rank, rank_order.size());
  std::map<std::pair<RowKey, std::uint32_t>, std::uint32_t> row_of;
  std::map<std::int32_t, std::uint32_t> group_of;
  for (const auto& [key, n] : p.lanes) {
    if (rank_order[key.rank] % rank_step != 0) continue;
    auto [g, added] = group_of.emplace(key.rank, static_cast<std::uint32_t>(t.groups.size()));
    if (added) t.groups.push_back(fmt::format("rank {}", key.rank));
    const std::string label =
        row_label(key.kind, merged ? std::nullopt : std::optional<std::uint32_t>(key.channel));
    for (std::uint32_t lane = 0; lane < n; ++lane) {
      row_of[{key, lane}] = static_cast<std::uint32_t>(t.rows.size());
      t.rows.push_back({lane == 0 ? label : fmt::format("{} +{}", label, lane), g->second});
    }
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto row = row_of.find(p.lane_of[i]);
    if (row == row_of.end()) continue;
    TimelineItem& it = items[i];
    t.spans.push_back({row->second, it.start, std::max(it.start, it.end), std::move(it.category),
                       std::move(it.label), std::move(it.tooltip)});
  }
  if (merged) {
    t.note =
        " Too many channels to show one row each: each rank's channels share rows (at most 4 "
        "lanes; overlapping spans beyond them are drawn on the last).";
  }
  if (rank_step > 1) t.note += fmt::format(" One rank in {} is shown.", rank_step);
  return t;
}

}  // namespace npkit::html
