#include "import/legacy/legacy_dump.hpp"

#include "import/legacy/legacy_record.hpp"
#include "util/file_io.hpp"

namespace npkit {
namespace {

// The ids of the first two records of the first non-empty GPU files (TIME_SYNC_CPU then
// TIME_SYNC_GPU in every variant that writes them: 0x34/0x33 standard, 0x02/0x01 MSCCL++,
// 0x2C/0x2B msccl 0.1).
struct LeadingIds {
  int first = -1;
  int second = -1;
};

Result<LeadingIds> leading_gpu_ids(const DumpLayout& layout) {
  std::vector<std::uint8_t> bytes;
  for (const auto& rank : layout.ranks) {
    for (const auto& f : rank.gpu) {
      if (f.bytes < 2 * kLegacyRecordSize) continue;
      NPKIT_TRY(io::read_prefix_into(f.path, 2 * kLegacyRecordSize, bytes));
      if (bytes.size() < 2 * kLegacyRecordSize) continue;
      return LeadingIds{bytes[0], bytes[kLegacyRecordSize]};
    }
  }
  return LeadingIds{};
}

bool is_amd_clock(const RankClocks& c) {
  if (!c.gpu_khz) return false;
  const Rational k = *c.gpu_khz;
  return k.den != 1 || k.num == 25000 || k.num == 100000;
}

struct TableChoice {
  std::string name;
  std::string reason;
};

Result<TableChoice> choose_table(const LegacyDump& dump) {
  if (dump.layout.naming == GpuFileNaming::kChannel) {
    return TableChoice{"npkit-2021", "GPU files are named per channel (NPKit's 2021 release)"};
  }
  if (dump.cpu_record_size != kLegacyRecordSize) {
    return TableChoice{"nccl-2.20-port",
                       std::to_string(dump.cpu_record_size) + "-byte CPU records (NCCL 2.20 port)"};
  }
  NPKIT_ASSIGN(auto ids, leading_gpu_ids(dump.layout));
  if (ids.first == 0x02 && ids.second == 0x01) {
    return TableChoice{"mscclpp", "GPU buffers start with ids 0x02/0x01 (MSCCL++ TIME_SYNC)"};
  }
  if (ids.first == 0x2C && ids.second == 0x2B) {
    return TableChoice{"msccl-0.1", "GPU buffers start with ids 0x2C/0x2B (msccl 0.1 TIME_SYNC)"};
  }
  std::size_t max_gpu_files = 0;
  for (const auto& r : dump.layout.ranks) max_gpu_files = std::max(max_gpu_files, r.gpu.size());
  for (const auto& c : dump.clocks) {
    if (is_amd_clock(c)) {
      return TableChoice{"rccl", "GPU clock rate " + format_rational(*c.gpu_khz) +
                                     " kHz is an AMD wall clock (RCCL)"};
    }
  }
  if (max_gpu_files > 512) {
    return TableChoice{"rccl", std::to_string(max_gpu_files) + " GPU buffer files per rank (RCCL)"};
  }
  std::string why = "standard NCCL NPKit table";
  if (ids.first == 0x34 && ids.second == 0x33)
    why += " (GPU buffers start with TIME_SYNC 0x34/0x33)";
  return TableChoice{"nccl", why};
}

std::string describe_variant(const LegacyDump& d) {
  std::size_t gpu = 0;
  std::size_t cpu = 0;
  for (const auto& r : d.layout.ranks) {
    gpu = std::max(gpu, r.gpu.size());
    cpu = std::max(cpu, r.cpu.size());
  }
  std::string s = "legacy NPKit dump, " + std::to_string(d.layout.ranks.size()) +
                  " rank(s), up to " + std::to_string(gpu) + " GPU " +
                  (d.layout.naming == GpuFileNaming::kChannel ? "channel" : "buffer") + " and " +
                  std::to_string(cpu) + " CPU channel files per rank, " +
                  std::to_string(d.cpu_record_size) + "-byte CPU records";
  return s;
}

}  // namespace

Result<LegacyDump> open_legacy_dump(const std::string& dir, const LegacyDumpOptions& options,
                                    Diagnostics& diagnostics) {
  NPKIT_ASSIGN(auto layout, scan_dump_layout(dir, diagnostics, options.listing));
  LegacyDump dump;
  dump.layout = std::move(layout);
  dump.clocks = read_rank_clocks(dump.layout, diagnostics);

  if (options.cpu_record_size != 0) {
    const unsigned s = options.cpu_record_size;
    if (s != 16 && s != 18 && s != 22) {
      return Error{"--cpu-record-size " + std::to_string(s) + ": expected 16, 18 or 22"};
    }
    dump.cpu_record_size = s;
    dump.cpu_record_reason = std::to_string(s) + " bytes (set with --cpu-record-size)";
  } else {
    NPKIT_ASSIGN(dump.cpu_record_size,
                 detect_cpu_record_size(dump.layout, dump.cpu_record_reason, diagnostics));
  }

  std::string table_spec = options.event_table;
  if (table_spec == "auto") {
    NPKIT_ASSIGN(auto choice, choose_table(dump));
    table_spec = choice.name;
    dump.table_reason = "auto: " + choice.reason;
  } else {
    dump.table_reason = "set with --event-table";
  }
  NPKIT_ASSIGN(dump.table, load_event_table(table_spec, diagnostics));

  if (dump.layout.naming == GpuFileNaming::kChannel) {
    dump.gpu_buffer_capacity = 1u << 20;
    dump.cpu_buffer_capacity = 1u << 20;
  }
  dump.variant = describe_variant(dump);
  return dump;
}

}  // namespace npkit
