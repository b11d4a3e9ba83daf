#include "import/spans/collective_spans.hpp"

#include <fmt/format.h>

namespace npkit {

CollectiveSpans::CollectiveSpans(const PhaseAssignment& phases,
                                 const std::vector<std::string>& base_names, std::string track_kind)
    : phases_(phases) {
  table_.set_track_kind(std::move(track_kind));
  for (std::size_t b = 0; b < phases.collective_of_base.size() && b < base_names.size(); ++b) {
    const std::int32_t c = phases.collective_of_base[b];
    if (c == kNoCollective) continue;
    table_.define(static_cast<std::uint16_t>(b), base_names[b], phases.collectives[c].func,
                  phases.collectives[c].algo);
  }
}

void CollectiveSpans::begin_track(const TrackFile& file, TimeDomain domain) {
  if (file.track.kind == TrackKind::kGpu && domain != TimeDomain::kHost) {
    off_host_.insert({file.track.rank, file.track.index});
    table_.note_incomplete(
        static_cast<std::int32_t>(file.track.rank), file.track.index,
        "no TIME_SYNC: spans on the GPU counter's own clock, not comparable across ranks");
  }
}

void CollectiveSpans::on_span(const Span& span) {
  if (span.depth != 0 || span.track.kind != TrackKind::kGpu) return;
  if (span.base >= phases_.collective_of_base.size()) return;
  const std::int32_t c = phases_.collective_of_base[span.base];
  if (c == kNoCollective || phases_.collectives[c].algo == "p2p") return;
  const auto rank = static_cast<std::int32_t>(span.track.rank);
  if (!off_host_.empty() && off_host_.contains({span.track.rank, span.track.index})) {
    table_.touch(rank, span.track.index, span.base);
    return;
  }
  table_.add(rank, span.track.index, span.base, span.entry_size, span.start_ns, span.end_ns);
}

void CollectiveSpans::end_track(const TrackFile& file, const TrackStats& stats) {
  if (file.track.kind != TrackKind::kGpu) return;
  std::string note;
  auto add = [&](const std::string& s) { note += (note.empty() ? "" : "; ") + s; };
  if (stats.overflowed) add(fmt::format("buffer probably overflowed ({} records)", stats.records));
  if (stats.unmatched_entries + stats.unmatched_exits > 0) {
    add(fmt::format("{} ENTRY without EXIT, {} EXIT without ENTRY", stats.unmatched_entries,
                    stats.unmatched_exits));
  }
  if (stats.partial_bytes > 0) {
    add(fmt::format("{} trailing byte(s) of a partial record", stats.partial_bytes));
  }
  if (!note.empty()) {
    table_.note_incomplete(static_cast<std::int32_t>(file.track.rank), file.track.index, note);
  }
}

void CollectiveSpans::merge(CollectiveSpans&& other) {
  table_.merge(std::move(other.table_));
  off_host_.insert(other.off_host_.begin(), other.off_host_.end());
}

RunCommunicator CollectiveSpans::join(std::string scope, std::string time_source,
                                      std::int32_t nranks, const std::vector<std::int32_t>& ranks,
                                      const std::map<std::int32_t, std::string>& hosts) const {
  return table_.join(std::move(scope), std::move(time_source), nranks, ranks, hosts);
}

}  // namespace npkit
