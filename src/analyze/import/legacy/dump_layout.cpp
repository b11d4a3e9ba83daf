#include "import/legacy/dump_layout.hpp"

#include <algorithm>
#include <map>
#include <string_view>

#include "util/file_io.hpp"

namespace npkit {
namespace {

constexpr std::uint32_t kMaxIndex = 1u << 24;

// Parses "<prefix><digits>" or "<prefix><digits><mid><digits>"; false on anything else.
bool parse_number(std::string_view& s, std::uint32_t& out) {
  std::size_t i = 0;
  std::uint64_t v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i < 9) {
    v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
    ++i;
  }
  if (i == 0 || (i < s.size() && s[i] >= '0' && s[i] <= '9') || v >= kMaxIndex) return false;
  out = static_cast<std::uint32_t>(v);
  s.remove_prefix(i);
  return true;
}

bool consume(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

bool match_rank_index(std::string_view name, std::string_view prefix, std::string_view mid,
                      std::uint32_t& rank, std::uint32_t& index) {
  return consume(name, prefix) && parse_number(name, rank) && consume(name, mid) &&
         parse_number(name, index) && name.empty();
}

bool match_rank(std::string_view name, std::string_view prefix, std::uint32_t& rank) {
  return consume(name, prefix) && parse_number(name, rank) && name.empty();
}

// Ranks may hold different buffer sets (missing files read as empty; `info` lists the counts);
// a gap in the rank numbers is worth a warning.
void check_rank_numbers(const DumpLayout& layout, Diagnostics& diagnostics) {
  for (std::size_t i = 0; i < layout.ranks.size(); ++i) {
    const std::uint32_t expected = i == 0 ? 0 : layout.ranks[i - 1].rank + 1;
    if (layout.ranks[i].rank != expected) {
      diagnostics.warn("missing ranks", layout.dir + ": no files for rank(s) " +
                                            std::to_string(expected) + ".." +
                                            std::to_string(layout.ranks[i].rank - 1));
    }
  }
}

}  // namespace

Result<DumpLayout> scan_dump_layout(const std::string& dir, Diagnostics& diagnostics,
                                    std::optional<std::vector<io::DirEntry>> listing) {
  if (!io::path_exists(dir)) return Error{dir + ": " + io::unreachable_reason(dir)};
  if (!io::is_directory(dir)) {
    return Error{dir +
                 ": not a directory; expected an NPKit dump directory (gpu_events_rank_*_buf_*, "
                 "cpu_events_rank_*_channel_*, clock files)"};
  }
  if (!listing) {
    NPKIT_ASSIGN(listing, io::list_directory(dir));
  }

  DumpLayout layout;
  layout.dir = dir;
  std::map<std::uint32_t, RankFiles> ranks;
  bool saw_buf_naming = false;
  bool saw_channel_naming = false;
  for (const auto& e : *listing) {
    if (!e.regular) {
      ++layout.ignored_files;
      continue;
    }
    std::uint32_t rank = 0;
    std::uint32_t index = 0;
    const std::string path = io::join_path(dir, e.name);
    if (match_rank_index(e.name, "gpu_events_rank_", "_buf_", rank, index)) {
      saw_buf_naming = true;
      ranks[rank].gpu.push_back({{rank, TrackKind::kGpu, index}, path, e.size});
    } else if (match_rank_index(e.name, "gpu_events_rank_", "_channel_", rank, index)) {
      saw_channel_naming = true;
      ranks[rank].gpu.push_back({{rank, TrackKind::kGpu, index}, path, e.size});
    } else if (match_rank_index(e.name, "cpu_events_rank_", "_channel_", rank, index)) {
      ranks[rank].cpu.push_back({{rank, TrackKind::kCpu, index}, path, e.size});
    } else if (match_rank(e.name, "cpu_clock_period_num_rank_", rank)) {
      ranks[rank].cpu_period_num_path = path;
    } else if (match_rank(e.name, "cpu_clock_period_den_rank_", rank)) {
      ranks[rank].cpu_period_den_path = path;
    } else if (match_rank(e.name, "gpu_clock_rate_rank_", rank)) {
      ranks[rank].gpu_clock_rate_path = path;
    } else if (e.name.rfind("clock_calibration_", 0) == 0) {
      std::string_view rest = e.name;
      const auto pos = rest.rfind("_rank_");
      if (pos != std::string_view::npos) {
        rest.remove_prefix(pos);
        if (match_rank(rest, "_rank_", rank)) ranks[rank].has_calibration_files = true;
      }
    } else {
      ++layout.ignored_files;
    }
  }
  if (saw_buf_naming && saw_channel_naming) {
    return Error{dir +
                 ": mixes gpu_events_rank_*_buf_* and gpu_events_rank_*_channel_* files; "
                 "expected one dump per directory"};
  }
  layout.naming = saw_channel_naming ? GpuFileNaming::kChannel : GpuFileNaming::kBuffer;
  for (auto& [rank, files] : ranks) {
    if (files.gpu.empty() && files.cpu.empty()) continue;  // clock files only
    files.rank = rank;
    const auto by_index = [](const TrackFile& a, const TrackFile& b) {
      return a.track.index < b.track.index;
    };
    std::sort(files.gpu.begin(), files.gpu.end(), by_index);
    std::sort(files.cpu.begin(), files.cpu.end(), by_index);
    layout.ranks.push_back(std::move(files));
  }
  if (layout.ranks.empty()) {
    return Error{dir +
                 ": no NPKit event files (expected gpu_events_rank_<R>_buf_<B> or "
                 "cpu_events_rank_<R>_channel_<C>)"};
  }
  if (layout.ignored_files > 0) {
    diagnostics.warn("ignored files",
                     dir + ": " + std::to_string(layout.ignored_files) +
                         " file(s) are not part of an NPKit dump and were ignored");
  }
  check_rank_numbers(layout, diagnostics);
  return layout;
}

}  // namespace npkit
