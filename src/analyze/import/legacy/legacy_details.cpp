// What `info` shows of a legacy NPKit dump beyond what every input shows (run/input_details.hpp):
// each rank's clock sources and how its GPU time was put on the host clock (text); in JSON also
// the variant, event table and CPU record size with their reasons.
#include <fmt/format.h>

#include <algorithm>

#include "import/legacy/legacy_input.hpp"

namespace npkit {
namespace {

std::string gpu_time_method(const LegacyRankTracks& r) {
  if (r.gpu_files == 0) return "no GPU buffers";
  if (r.unaligned_gpu_tracks == 0) return "TIME_SYNC aligned (per-launch CPU/GPU sync pairs)";
  return fmt::format("{} GPU buffer(s) without TIME_SYNC: on the GPU counter, not host-aligned",
                     r.unaligned_gpu_tracks);
}

const LegacyRankTracks* tracks_of(const std::vector<LegacyRankTracks>& tracks, std::uint32_t rank) {
  for (const auto& r : tracks) {
    if (r.rank == rank) return &r;
  }
  return nullptr;
}

}  // namespace

LegacyRankTracks& LegacyRankTracks::of(std::vector<LegacyRankTracks>& tracks, std::uint32_t rank) {
  auto it = std::find_if(tracks.begin(), tracks.end(),
                         [&](const LegacyRankTracks& r) { return r.rank == rank; });
  if (it != tracks.end()) return *it;
  tracks.push_back(LegacyRankTracks{});
  tracks.back().rank = rank;
  return tracks.back();
}

void LegacyRankTracks::begin(std::vector<LegacyRankTracks>& tracks, const TrackFile& file) {
  LegacyRankTracks& r = of(tracks, file.track.rank);
  (file.track.kind == TrackKind::kGpu ? r.gpu_files : r.cpu_files) += 1;
}

void LegacyRankTracks::end(std::vector<LegacyRankTracks>& tracks, const TrackFile& file,
                           const TrackStats& s) {
  LegacyRankTracks& r = of(tracks, file.track.rank);
  if (s.overflowed && r.overflowed_files.size() < 5) r.overflowed_files.push_back(file.path);
  if (file.track.kind == TrackKind::kGpu && s.domain == TimeDomain::kGpuCounter && s.records > 0) {
    ++r.unaligned_gpu_tracks;
  }
}

void LegacyRankTracks::merge(std::vector<LegacyRankTracks>& tracks,
                             const std::vector<LegacyRankTracks>& later) {
  for (const auto& r : later) {
    LegacyRankTracks& mine = of(tracks, r.rank);
    mine.gpu_files += r.gpu_files;
    mine.cpu_files += r.cpu_files;
    mine.unaligned_gpu_tracks += r.unaligned_gpu_tracks;
    for (const auto& f : r.overflowed_files) {
      if (mine.overflowed_files.size() < 5) mine.overflowed_files.push_back(f);
    }
  }
}

InputDetails LegacyInput::details() const {
  const LegacyDump& d = dump_;
  InputDetails out;
  DetailBlock clocks{DetailBlock::Kind::kList, "clocks", {}, {}, {}};
  for (std::size_t k = 0; k < d.layout.ranks.size(); ++k) {
    const LegacyRankTracks* r = tracks_of(tracks_, d.layout.ranks[k].rank);
    if (r == nullptr) continue;
    clocks.items.push_back(fmt::format("rank {}: cpu {}; gpu {}; GPU time {}", r->rank,
                                       d.clocks[k].cpu_source, d.clocks[k].gpu_source,
                                       gpu_time_method(*r)));
  }
  out.blocks.push_back(std::move(clocks));
  DetailWriter w(out.json);
  w.field("variant", d.variant);
  w.object("event_table", [&] {
    w.field("name", d.table.label());
    w.field("reason", d.table_reason);
  });
  w.object("cpu_record_size", [&] {
    w.field("bytes", d.cpu_record_size);
    w.field("reason", d.cpu_record_reason);
  });
  w.key("ranks");
  w.begin_array();
  for (std::size_t k = 0; k < d.layout.ranks.size(); ++k) {
    const LegacyRankTracks* r = tracks_of(tracks_, d.layout.ranks[k].rank);
    if (r == nullptr) continue;
    w.begin_object();
    w.field("rank", r->rank);
    w.field("gpu_files", r->gpu_files);
    w.field("cpu_files", r->cpu_files);
    w.field("gpu_time", gpu_time_method(*r));
    w.object("clocks", [&] {
      w.field("cpu", d.clocks[k].cpu_source);
      w.field("gpu", d.clocks[k].gpu_source);
    });
    w.values("overflowed_files", r->overflowed_files);
    w.end_object();
  }
  w.end_array();
  return out;
}

}  // namespace npkit
