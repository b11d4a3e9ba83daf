// dump_layout.hpp — which files a legacy NPKit dump directory holds, grouped by rank.
// Contract: scan_dump_layout lists the directory once and classifies every file by name
// (docs/formats.md, "Files"); it opens nothing. Ranks are sorted; each rank's track files are
// sorted by index. Ranks may hold different buffer sets (a missing file reads as an empty
// buffer). Anything unexpected (unknown names, gaps in the rank numbers) becomes a counted
// warning, not an error; a directory with no event files at all is an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run/track.hpp"
#include "util/diagnostics.hpp"
#include "util/file_io.hpp"
#include "util/result.hpp"

namespace npkit {

enum class GpuFileNaming : std::uint8_t {
  kBuffer,   // gpu_events_rank_R_buf_B (2022 onwards)
  kChannel,  // gpu_events_rank_R_channel_C (NPKit's first release, 2021)
};

struct RankFiles {
  std::uint32_t rank = 0;
  std::vector<TrackFile> gpu;
  std::vector<TrackFile> cpu;
  std::optional<std::string> cpu_period_num_path;
  std::optional<std::string> cpu_period_den_path;
  std::optional<std::string> gpu_clock_rate_path;
  bool has_calibration_files = false;  // RCCL 2023-02..05 clock_calibration_* files
};

struct DumpLayout {
  std::string dir;
  GpuFileNaming naming = GpuFileNaming::kBuffer;
  std::vector<RankFiles> ranks;
  std::uint64_t ignored_files = 0;
};

// `listing`: the directory's entries (io::list_directory), where the caller listed it already.
Result<DumpLayout> scan_dump_layout(const std::string& dir, Diagnostics& diagnostics,
                                    std::optional<std::vector<io::DirEntry>> listing = {});

}  // namespace npkit
