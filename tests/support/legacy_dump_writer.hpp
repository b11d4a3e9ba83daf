// legacy_dump_writer.hpp — TEST-ONLY writer of legacy NPKit dump directories.
// Contract: writes exactly the files a spec lists, byte for byte, so a test's expected answer
// can be computed by hand from the spec. Records are little-endian: u8 id, u32 size, u24 rsvd,
// u64 timestamp (16 bytes); 18-byte CPU records add u8 sender, u8 receiver; 22-byte ones add
// u32 step. It does not share code with the analyzer. Bad specs throw std::invalid_argument
// naming the spec line.
//
// Text spec, one statement per line ('#' starts a comment):
//   naming buf|channel                   GPU file names: gpu_events_rank_R_buf_B (default) or
//                                        the 2021 gpu_events_rank_R_channel_C
//   cpu_record_size 16|18|22             layout of CPU records (default 16)
//   rank R clock [cpu_num=T] [cpu_den=T] [gpu_khz=T]
//                                        clock files of rank R; a key left out writes no file;
//                                        T is written verbatim (`gpu_khz=` writes an empty file)
//   rank R gpu B: REC | REC | ...        records of GPU buffer B (repeated lines append; no
//   rank R cpu C: REC | REC | ...        records = an empty file); CPU channel C likewise
//   rank R gpu B tail: HH HH ...         raw hex bytes appended after the records (truncation)
//   file NAME: TEXT                      any other file, TEXT verbatim (trimmed)
//   REC = ID [size=N] [rsvd=N] [ts=N] [from=N] [to=N] [step=N]
//         numbers are decimal or 0x-hex; fields left out are 0; from/to/step: 18/22-byte CPU.
// Example (1 GHz GPU clock, so one tick = 1 ns):
//   rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1000000
//   rank 0 gpu 0: 0x34 ts=5000 | 0x33 ts=100 | 0x01 size=1024 ts=110 | 0x02 size=1024 ts=200
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/temp_dir.hpp"

namespace npkit::test {

struct RecordSpec {
  std::uint8_t id = 0;
  std::uint32_t size = 0;
  std::uint32_t rsvd = 0;  // 24 bits
  std::uint64_t ts = 0;
  std::uint8_t sender = 0;    // 18/22-byte CPU records
  std::uint8_t receiver = 0;  // 18/22-byte CPU records
  std::uint32_t step = 0;     // 22-byte CPU records
};

struct TrackSpec {
  std::uint32_t rank = 0;
  std::uint32_t index = 0;
  std::vector<RecordSpec> records;
  std::string tail;  // raw bytes written after the records
};

struct ClockSpec {
  std::uint32_t rank = 0;
  std::optional<std::string> cpu_num;
  std::optional<std::string> cpu_den;
  std::optional<std::string> gpu_khz;
};

enum class GpuNaming { kBuf, kChannel };

struct LegacyDumpSpec {
  GpuNaming naming = GpuNaming::kBuf;
  unsigned cpu_record_size = 16;
  std::vector<ClockSpec> clocks;
  std::vector<TrackSpec> gpu;
  std::vector<TrackSpec> cpu;
  std::vector<std::pair<std::string, std::string>> extra_files;  // name, content

  // Find-or-add accessors.
  TrackSpec& gpu_track(std::uint32_t rank, std::uint32_t index);
  TrackSpec& cpu_track(std::uint32_t rank, std::uint32_t index);
  ClockSpec& clock(std::uint32_t rank);
};

LegacyDumpSpec parse_legacy_dump_spec(std::string_view text);

std::string encode_record(const RecordSpec& record, unsigned record_size);
std::string gpu_file_name(GpuNaming naming, std::uint32_t rank, std::uint32_t index);
std::string cpu_file_name(std::uint32_t rank, std::uint32_t channel);

// Writes the dump's files into `dir` (created if missing).
void write_legacy_dump(const LegacyDumpSpec& spec, const std::string& dir);

// Writes the dump into `tmp`/`subdir` and returns that directory's path.
std::string write_legacy_dump(const TempDir& tmp, const LegacyDumpSpec& spec,
                              std::string_view subdir = "dump");
std::string write_legacy_dump(const TempDir& tmp, std::string_view spec_text,
                              std::string_view subdir = "dump");

}  // namespace npkit::test
