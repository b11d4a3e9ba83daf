#include "output/html/legacy_timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "output/html/svg.hpp"
#include "output/trace/trace_lanes.hpp"

namespace npkit::html {

void WindowSpans::begin_track(const TrackFile&, TimeDomain domain) {
  on_host_ = domain == TimeDomain::kHost;
}

void WindowSpans::on_span(const Span& span) {
  if (!on_host_) {
    ++unplaced_;
    return;
  }
  if (span.end_ns < start_ || span.start_ns > end_) return;
  spans_.push_back(span);
}

void WindowSpans::merge(WindowSpans&& other) {
  spans_.insert(spans_.end(), other.spans_.begin(), other.spans_.end());
  unplaced_ += other.unplaced_;
}

Timeline legacy_timeline(const WindowSpans& window_spans,
                         const std::vector<std::string>& base_names, const PhaseAssignment& phases,
                         const InstanceWindow& window, const std::string& title,
                         const std::string& choice, std::size_t max_rows) {
  std::vector<const Span*> spans;
  for (const Span& s : window_spans.spans()) spans.push_back(&s);
  std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) {
    if (a->start_ns != b->start_ns) return a->start_ns < b->start_ns;
    return a->end_ns > b->end_ns;
  });
  using Key = std::tuple<std::uint32_t, int, std::uint32_t>;  // rank, kind (gpu 0), index
  std::map<Key, LanePacker> packers;
  std::vector<std::uint32_t> lane(spans.size());
  std::map<Key, std::uint32_t> lanes;
  std::map<std::uint32_t, bool> ranks;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const Span& s = *spans[i];
    const Key key{s.track.rank, s.track.kind == TrackKind::kGpu ? 0 : 1, s.track.index};
    lane[i] = packers[key].place(s.start_ns, s.end_ns);
    lanes[key] = std::max(lanes[key], lane[i] + 1);
    ranks[s.track.rank] = true;
  }
  std::size_t total = 0;
  for (const auto& [key, n] : lanes) total += n;
  std::size_t rank_step = 1;
  if (total > max_rows) rank_step = (total + max_rows - 1) / max_rows;
  std::map<std::uint32_t, std::size_t> rank_order;
  for (const auto& [rank, _] : ranks) rank_order.emplace(rank, rank_order.size());

  Timeline t;
  t.title = title;
  t.origin_ns = window.start_ns;
  std::map<std::pair<Key, std::uint32_t>, std::uint32_t> row_of;
  std::map<std::uint32_t, std::uint32_t> group_of;
  for (const auto& [key, n] : lanes) {
    const std::uint32_t rank = std::get<0>(key);
    if (rank_order[rank] % rank_step != 0) continue;
    auto [g, added] = group_of.emplace(rank, static_cast<std::uint32_t>(t.groups.size()));
    if (added) t.groups.push_back(fmt::format("rank {}", rank));
    for (std::uint32_t l = 0; l < n; ++l) {
      std::string label = std::get<1>(key) == 0 ? fmt::format("buf {}", std::get<2>(key))
                                                : fmt::format("cpu ch {}", std::get<2>(key));
      if (l > 0) label += fmt::format(" +{}", l);
      row_of[{key, l}] = static_cast<std::uint32_t>(t.rows.size());
      t.rows.push_back({std::move(label), g->second});
    }
  }
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const Span& s = *spans[i];
    const Key key{s.track.rank, s.track.kind == TrackKind::kGpu ? 0 : 1, s.track.index};
    const auto it = row_of.find({key, lane[i]});
    if (it == row_of.end()) continue;
    const std::string& name = s.base < base_names.size() ? base_names[s.base] : "?";
    const std::string& phase =
        s.phase < phases.phase_names.size() ? phases.phase_names[s.phase] : "other";
    const double duration = static_cast<double>(s.duration_ns());
    std::string tooltip = fmt::format(
        "rank {} {} {}, depth {}", s.track.rank,
        s.track.kind == TrackKind::kGpu ? "GPU buffer" : "CPU channel", s.track.index, s.depth);
    if (s.exit_size > 0) {
      tooltip += fmt::format("\nsize {}", format_bytes(static_cast<double>(s.exit_size)));
      if (duration > 0) {
        tooltip += fmt::format(", {} GB/s over the span",
                               format_number(static_cast<double>(s.exit_size) / duration));
      }
    }
    t.spans.push_back(
        {it->second, s.start_ns, std::max(s.start_ns, s.end_ns), phase, name, std::move(tooltip)});
  }
  t.note = choice +
           " Drawn: every span on the host clock overlapping the window, coloured by phase; nested "
           "spans are drawn over their parent on its row. Time axis: after the window's start.";
  if (window_spans.unplaced() > 0) {
    t.note += fmt::format(
        " {} span(s) of GPU buffers without TIME_SYNC are on their own clock "
        "and not drawn.",
        window_spans.unplaced());
  }
  if (rank_step > 1) t.note += fmt::format(" Only every {}th rank is shown.", rank_step);
  return t;
}

}  // namespace npkit::html
