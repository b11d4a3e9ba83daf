// What `info` says of a legacy NPKit dump beyond what every input shows: each rank's clock sources
// and how its GPU time was put on the host clock (text); in JSON also the variant, event table and
// CPU record size with their reasons.
#include <fmt/format.h>

#include "output/info/info_details.hpp"

namespace npkit {
namespace {

std::string gpu_time_method(const RankInventory& r) {
  if (r.gpu_files == 0) return "no GPU buffers";
  if (r.unaligned_gpu_tracks == 0) return "TIME_SYNC aligned (per-launch CPU/GPU sync pairs)";
  return fmt::format("{} GPU buffer(s) without TIME_SYNC: on the GPU counter, not host-aligned",
                     r.unaligned_gpu_tracks);
}

const RankInventory* inventory_of(const InventorySink& spans, std::uint32_t rank) {
  for (const auto& r : spans.ranks()) {
    if (r.rank == rank) return &r;
  }
  return nullptr;
}

}  // namespace

void legacy_info_text(const LegacyInput& input, const InventorySink& spans, OutputFormat format,
                      std::string& out) {
  const LegacyDump& d = input.dump();
  std::vector<std::string> clocks;
  for (std::size_t k = 0; k < d.layout.ranks.size(); ++k) {
    const RankInventory* r = inventory_of(spans, d.layout.ranks[k].rank);
    if (r == nullptr) continue;
    clocks.push_back(fmt::format("rank {}: cpu {}; gpu {}; GPU time {}", r->rank,
                                 d.clocks[k].cpu_source, d.clocks[k].gpu_source,
                                 gpu_time_method(*r)));
  }
  render_list("clocks", clocks, format, out);
}

void legacy_info_json(const LegacyInput& input, const InventorySink& spans, JsonWriter& w) {
  const LegacyDump& d = input.dump();
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
    const RankInventory* r = inventory_of(spans, d.layout.ranks[k].rank);
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
}

}  // namespace npkit
