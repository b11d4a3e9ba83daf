// legacy_dump.hpp — a legacy NPKit dump directory, opened and understood, not yet decoded.
// Contract: open_legacy_dump scans the directory, reads every rank's clock files, detects the
// CPU record size (16, 18 or 22 bytes — from the records themselves, not the file size alone),
// and selects the event table (`auto` chooses by the evidence listed in docs/formats.md and
// says why). It reads only the small clock files and the first records of event files; the
// record streams are decoded later by read_legacy_spans (import/legacy/span_reader.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "import/legacy/clock_files.hpp"
#include "import/legacy/dump_layout.hpp"
#include "run/event_table.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit {

struct LegacyDumpOptions {
  std::string event_table = "auto";  // a built-in name, "auto", or a path to npkit_event.h
  unsigned cpu_record_size = 0;      // 0 = detect; else 16, 18 or 22
  std::optional<std::vector<io::DirEntry>> listing;  // the directory's, where listed already
};

struct LegacyDump {
  DumpLayout layout;
  std::vector<RankClocks> clocks;  // parallel to layout.ranks
  EventTable table;
  std::string table_reason;
  unsigned cpu_record_size = 16;
  std::string cpu_record_reason;
  std::uint64_t gpu_buffer_capacity = 65536;  // records a GPU buffer holds before dropping
  std::uint64_t cpu_buffer_capacity = 2097152;
  std::string variant;  // human-readable description of what was recognised
};

Result<LegacyDump> open_legacy_dump(const std::string& dir, const LegacyDumpOptions& options,
                                    Diagnostics& diagnostics);

// Detects the CPU record size of the dump's CPU event files (16, 18 or 22 bytes); `reason`
// says what decided it.
Result<unsigned> detect_cpu_record_size(const DumpLayout& layout, std::string& reason,
                                        Diagnostics& diagnostics);

// Reads the clock files of every rank (missing files borrow the other ranks' agreeing values,
// with a warning).
std::vector<RankClocks> read_rank_clocks(const DumpLayout& layout, Diagnostics& diagnostics);

}  // namespace npkit
