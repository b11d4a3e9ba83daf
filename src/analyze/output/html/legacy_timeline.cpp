#include "output/html/legacy_timeline.hpp"

#include <fmt/format.h>

#include <optional>

#include "output/html/svg.hpp"
#include "output/html/timeline_layout.hpp"

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
  std::vector<TimelineItem> items;
  for (const Span& s : window_spans.spans()) {
    TimelineItem item;
    item.rank = static_cast<std::int32_t>(s.track.rank);
    item.kind = s.track.kind == TrackKind::kGpu ? 0 : 1;
    item.channel = s.track.index;
    item.leaf = false;
    item.start = s.start_ns;
    item.end = s.end_ns;
    item.category = s.phase < phases.phase_names.size() ? phases.phase_names[s.phase] : "other";
    item.label = s.base < base_names.size() ? base_names[s.base] : "?";
    item.tooltip = fmt::format("rank {} {} {}, depth {}", s.track.rank,
                               s.track.kind == TrackKind::kGpu ? "GPU buffer" : "CPU channel",
                               s.track.index, s.depth);
    const double duration = static_cast<double>(s.duration_ns());
    if (s.exit_size > 0) {
      item.tooltip += fmt::format("\nsize {}", format_bytes(static_cast<double>(s.exit_size)));
      if (duration > 0) {
        item.tooltip += fmt::format(", {} GB/s over the span",
                                    format_number(static_cast<double>(s.exit_size) / duration));
      }
    }
    items.push_back(std::move(item));
  }
  Timeline t = lay_out_timeline(
      std::move(items),
      [](std::uint8_t kind, std::optional<std::uint32_t> index) {
        const char* track = kind == 0 ? "buf" : "cpu ch";
        return index ? fmt::format("{} {}", track, *index) : fmt::format("{} (all)", track);
      },
      max_rows);
  t.title = title;
  t.origin_ns = window.start_ns;
  t.note = choice +
           " Drawn: every span on the host clock overlapping the window, coloured by phase; nested "
           "spans are drawn over their parent on its row. Time axis: after the window's start." +
           t.note;
  if (window_spans.unplaced() > 0) {
    t.note += fmt::format(
        " {} span(s) of GPU buffers without TIME_SYNC are on their own clock "
        "and not drawn.",
        window_spans.unplaced());
  }
  return t;
}

}  // namespace npkit::html
