// `npkit-analyze info PATH`: what a dump holds.
#include <fmt/format.h>

#include <memory>

#include "analysis/inventory/dump_inventory.hpp"
#include "commands/command.hpp"
#include "commands/json_input.hpp"
#include "commands/npkt_input.hpp"
#include "output/text_table.hpp"
#include "util/saturating.hpp"

namespace npkit::cli {
namespace {

std::string gpu_time_method(const RankInventory& r) {
  if (r.gpu_files == 0) return "no GPU buffers";
  if (r.unaligned_gpu_tracks == 0) return "TIME_SYNC aligned (per-launch CPU/GPU sync pairs)";
  return fmt::format("{} GPU buffer(s) without TIME_SYNC: on the GPU counter, not host-aligned",
                     r.unaligned_gpu_tracks);
}

void write_json(const LoadedDump& d, const InventorySink& inv, const CommonOptions& o,
                std::string& out) {
  const RankInventory t = inv.totals();
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.info");
  w.field("schema_version", 1);
  w.field("path", o.path);
  w.field("variant", d.dump.variant);
  w.key("event_table");
  w.begin_object();
  w.field("name", d.dump.table.label());
  w.field("reason", d.dump.table_reason);
  w.end_object();
  w.key("cpu_record_size");
  w.begin_object();
  w.field("bytes", d.dump.cpu_record_size);
  w.field("reason", d.dump.cpu_record_reason);
  w.end_object();
  w.key("totals");
  w.begin_object();
  w.field("ranks", static_cast<std::uint64_t>(inv.ranks().size()));
  w.field("tracks", t.nonempty_tracks);
  w.field("records", t.records);
  w.field("pairs", t.pairs);
  w.field("unmatched", t.unmatched_entries + t.unmatched_exits);
  w.field("dropped", t.dropped_records);
  w.field("overflowed_buffers", t.overflowed_buffers);
  w.field("unknown_ids", t.unknown_ids);
  w.field("max_depth", t.max_depth);
  w.end_object();
  w.key("time_span");
  w.begin_object();
  if (t.first_ns <= t.last_ns) {
    w.field("first_ns", t.first_ns);
    w.field("last_ns", t.last_ns);
    w.field("duration_ns", sat_sub(t.last_ns, t.first_ns));
  }
  w.end_object();
  w.key("ranks");
  w.begin_array();
  for (std::size_t i = 0; i < inv.ranks().size(); ++i) {
    const RankInventory& r = inv.ranks()[i];
    w.begin_object();
    w.field("rank", r.rank);
    w.field("gpu_files", r.gpu_files);
    w.field("cpu_files", r.cpu_files);
    w.field("tracks", r.nonempty_tracks);
    w.field("records", r.records);
    w.field("pairs", r.pairs);
    w.field("unmatched_entries", r.unmatched_entries);
    w.field("unmatched_exits", r.unmatched_exits);
    w.field("dropped", r.dropped_records);
    w.field("unknown_ids", r.unknown_ids);
    w.field("overflowed_buffers", r.overflowed_buffers);
    w.key("overflowed_files");
    w.begin_array();
    for (const auto& f : r.overflowed_files) w.value(f);
    w.end_array();
    w.field("max_depth", r.max_depth);
    w.field("gpu_time", gpu_time_method(r));
    if (r.first_ns <= r.last_ns) {
      w.field("first_ns", r.first_ns);
      w.field("last_ns", r.last_ns);
    }
    for (std::size_t k = 0; k < d.dump.layout.ranks.size(); ++k) {
      if (d.dump.layout.ranks[k].rank != r.rank) continue;
      w.key("clocks");
      w.begin_object();
      w.field("cpu", d.dump.clocks[k].cpu_source);
      w.field("gpu", d.dump.clocks[k].gpu_source);
      w.end_object();
    }
    w.end_object();
  }
  w.end_array();
  w.key("unmatched_examples");
  w.begin_array();
  for (const auto& e : inv.unmatched_examples()) {
    w.begin_object();
    w.field("rank", e.track.rank);
    w.field("track", track_kind_name(e.track.kind));
    w.field("index", e.track.index);
    w.field("name", e.name);
    w.field("event", e.kind == EventKind::kEntry ? "ENTRY without EXIT" : "EXIT without ENTRY");
    w.field("record", e.record);
    w.end_object();
  }
  w.end_array();
  write_warnings_json(w, d.diagnostics);
  w.end_object();
}

TextTable rank_table(const InventorySink& inv) {
  const RankInventory totals = inv.totals();
  const TimeScale scale = time_scale_for(sat_sub(totals.last_ns, totals.first_ns));
  TextTable t;
  t.columns = {"rank",      "gpu files", "cpu files",  "records",   "pairs",
               "unmatched", "dropped",   "overflowed", "max depth", scale.header("span")};
  for (const auto& r : inv.ranks()) {
    t.add_row({std::to_string(r.rank), std::to_string(r.gpu_files), std::to_string(r.cpu_files),
               std::to_string(r.records), std::to_string(r.pairs),
               std::to_string(r.unmatched_entries + r.unmatched_exits),
               std::to_string(r.dropped_records), std::to_string(r.overflowed_buffers),
               std::to_string(r.max_depth),
               r.first_ns <= r.last_ns ? scale(static_cast<double>(sat_sub(r.last_ns, r.first_ns)))
                                       : "-"});
  }
  return t;
}

void write_text(const LoadedDump& d, const InventorySink& inv, const CommonOptions& o,
                OutputFormat format, std::string& out) {
  const RankInventory t = inv.totals();
  std::vector<Field> fields = {
      {"dump", o.path},
      {"variant", d.dump.variant},
      {"event table", fmt::format("{} ({})", d.dump.table.label(), d.dump.table_reason)},
      {"cpu records", d.dump.cpu_record_reason}};
  if (t.first_ns <= t.last_ns) {
    const TimeScale scale = time_scale_for(sat_sub(t.last_ns, t.first_ns));
    fields.push_back(
        {"time span",
         fmt::format("{} {}, from {}", scale(static_cast<double>(sat_sub(t.last_ns, t.first_ns))),
                     scale.unit, describe_time(t.first_ns))});
  }
  fields.push_back(
      {"totals", fmt::format("{} records, {} pairs, {} unmatched, {} dropped, {} overflowed "
                             "buffer(s), {} unknown-id record(s), nesting depth up to {}",
                             t.records, t.pairs, t.unmatched_entries + t.unmatched_exits,
                             t.dropped_records, t.overflowed_buffers, t.unknown_ids, t.max_depth)});
  render_fields(fields, format, out);
  if (format != OutputFormat::kMarkdown) out += "\n";
  render_table(rank_table(inv), format, out);
  if (format != OutputFormat::kMarkdown) out += "\n";
  std::vector<std::string> clocks;
  for (std::size_t k = 0; k < d.dump.layout.ranks.size(); ++k) {
    const std::uint32_t rank = d.dump.layout.ranks[k].rank;
    if (!d.read.ranks.contains(rank)) continue;
    std::string method = "no GPU buffers";
    for (const auto& r : inv.ranks()) {
      if (r.rank == rank) method = gpu_time_method(r);
    }
    clocks.push_back(fmt::format("rank {}: cpu {}; gpu {}; GPU time {}", rank,
                                 d.dump.clocks[k].cpu_source, d.dump.clocks[k].gpu_source, method));
  }
  render_list("clocks", clocks, format, out);
  if (!inv.unmatched_examples().empty()) {
    std::vector<std::string> unmatched;
    for (const auto& e : inv.unmatched_examples()) {
      unmatched.push_back(
          fmt::format("{} record {}: {} {}", describe_track(e.track), e.record, e.name,
                      e.kind == EventKind::kEntry ? "ENTRY without EXIT" : "EXIT without ENTRY"));
    }
    if (format != OutputFormat::kMarkdown) out += "\n";
    render_list("unmatched events (first ones)", unmatched, format, out);
  }
}

Result<int> run_info(const CommonOptions& o, CliContext& context) {
  if (is_npkt_path(o.path)) return run_npkt_info(o, context);
  if (is_json_input(o.path)) return run_json_info(o, context);
  auto loaded = load_dump(o, context);
  if (!loaded) return loaded.error();
  auto merged =
      read_merged<InventorySink>(*loaded, o, [&] { return InventorySink(loaded->dump.table); });
  if (!merged) return merged.error();
  const InventorySink& inv = *merged;
  std::string text;
  switch (output_format(o)) {
    case OutputFormat::kJson:
      write_json(*loaded, inv, o, text);
      break;
    case OutputFormat::kCsv:
      render_csv(rank_table(inv), text);
      break;
    case OutputFormat::kTable:
    case OutputFormat::kMarkdown:
    case OutputFormat::kHtml:
      write_text(*loaded, inv, o, output_format(o), text);
      break;
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace

void register_info(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand(
      "info", "What a dump holds: variant, table, ranks, records, pairs, clocks");
  add_common_options(*cmd, *options);
  cmd->callback([options, &context] { context.outcome = run_info(*options, context); });
}

}  // namespace npkit::cli
