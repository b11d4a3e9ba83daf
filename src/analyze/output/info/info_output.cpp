#include "output/info/info_output.hpp"

#include <fmt/format.h>

#include "output/info/info_details.hpp"
#include "output/json_writer.hpp"
#include "output/run_text.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

TextTable span_table(const InventorySink& spans, bool raw) {
  const RankInventory totals = spans.totals();
  const TimeScale scale = time_scale_for(sat_sub(totals.last_ns, totals.first_ns));
  TextTable t;
  t.columns = {"rank",
               raw ? "gpu_tracks" : "gpu tracks",
               raw ? "cpu_tracks" : "cpu tracks",
               "records",
               "pairs",
               "unmatched",
               "dropped",
               "overflowed",
               raw ? "max_depth" : "max depth",
               raw ? "span_ns" : scale.header("span")};
  for (const auto& r : spans.ranks()) {
    const bool timed = r.first_ns <= r.last_ns;
    const std::int64_t span = timed ? sat_sub(r.last_ns, r.first_ns) : 0;
    t.add_row({std::to_string(r.rank), std::to_string(r.gpu_files), std::to_string(r.cpu_files),
               std::to_string(r.records), std::to_string(r.pairs),
               std::to_string(r.unmatched_entries + r.unmatched_exits),
               std::to_string(r.dropped_records), std::to_string(r.overflowed_buffers),
               std::to_string(r.max_depth),
               !timed ? (raw ? "" : "-")
                      : (raw ? std::to_string(span) : scale(static_cast<double>(span)))});
  }
  return t;
}

void render_spans(const InventorySink& spans, OutputFormat format, std::string& out) {
  const RankInventory t = spans.totals();
  std::vector<Field> fields;
  if (t.first_ns <= t.last_ns) {
    const TimeScale scale = time_scale_for(sat_sub(t.last_ns, t.first_ns));
    fields.push_back(
        {"time span",
         fmt::format("{} {}, from {}", scale(static_cast<double>(sat_sub(t.last_ns, t.first_ns))),
                     scale.unit, describe_time(t.first_ns))});
  }
  fields.push_back(
      {"spans", fmt::format("{} records, {} pairs, {} unmatched, {} dropped, {} overflowed "
                            "buffer(s), {} unknown-id record(s), nesting depth up to {}",
                            t.records, t.pairs, t.unmatched_entries + t.unmatched_exits,
                            t.dropped_records, t.overflowed_buffers, t.unknown_ids, t.max_depth)});
  render_fields(fields, format, out);
  if (format != OutputFormat::kMarkdown) out += "\n";
  render_table(span_table(spans, false), format, out);
  if (spans.unmatched_examples().empty()) return;
  std::vector<std::string> unmatched;
  for (const auto& e : spans.unmatched_examples()) {
    unmatched.push_back(
        fmt::format("{} record {}: {} {}", describe_track(e.track), e.record, e.name,
                    e.kind == EventKind::kEntry ? "ENTRY without EXIT" : "EXIT without ENTRY"));
  }
  if (format != OutputFormat::kMarkdown) out += "\n";
  render_list("unmatched events (first ones)", unmatched, format, out);
}

std::string describe_with_instances(const RunCommunicator& comm) {
  return fmt::format("{}: {} instance(s) joined, {} gap(s)", describe_communicator(comm),
                     comm.instances.size(), comm.gaps.size());
}

void render_communicators(const Run& run, OutputFormat format, std::string& out) {
  std::vector<std::string> lines;
  for (const auto& comm : run.comms) {
    lines.push_back(describe_with_instances(comm));
    for (const auto& g : comm.gaps) {
      lines.push_back(fmt::format("  {}: {}: {}", g.scope, g.kind, g.detail));
    }
  }
  render_list("communicators", lines, format, out);
}

void write_spans_json(const InventorySink& spans, JsonWriter& w) {
  const RankInventory t = spans.totals();
  w.object("spans", [&] {
    w.object("totals", [&] {
      w.field("ranks", static_cast<std::uint64_t>(spans.ranks().size()));
      w.field("tracks", t.nonempty_tracks);
      w.field("records", t.records);
      w.field("pairs", t.pairs);
      w.field("unmatched", t.unmatched_entries + t.unmatched_exits);
      w.field("dropped", t.dropped_records);
      w.field("overflowed_buffers", t.overflowed_buffers);
      w.field("unknown_ids", t.unknown_ids);
      w.field("max_depth", t.max_depth);
    });
    w.object("time_span", [&] {
      if (t.first_ns <= t.last_ns) {
        w.field("first_ns", t.first_ns);
        w.field("last_ns", t.last_ns);
        w.field("duration_ns", sat_sub(t.last_ns, t.first_ns));
      }
    });
    w.objects("ranks", spans.ranks(), [&](const auto& r) {
      w.field("rank", r.rank);
      w.field("gpu_tracks", r.gpu_files);
      w.field("cpu_tracks", r.cpu_files);
      w.field("tracks", r.nonempty_tracks);
      w.field("records", r.records);
      w.field("pairs", r.pairs);
      w.field("unmatched_entries", r.unmatched_entries);
      w.field("unmatched_exits", r.unmatched_exits);
      w.field("dropped", r.dropped_records);
      w.field("unknown_ids", r.unknown_ids);
      w.field("overflowed_buffers", r.overflowed_buffers);
      w.field("max_depth", r.max_depth);
      if (r.first_ns <= r.last_ns) {
        w.field("first_ns", r.first_ns);
        w.field("last_ns", r.last_ns);
      }
    });
    w.objects("unmatched_examples", spans.unmatched_examples(), [&](const auto& e) {
      w.field("rank", e.track.rank);
      w.field("track", track_kind_name(e.track.kind));
      w.field("index", e.track.index);
      w.field("name", e.name);
      w.field("event", e.kind == EventKind::kEntry ? "ENTRY without EXIT" : "EXIT without ENTRY");
      w.field("record", e.record);
    });
  });
}

void write_communicators_json(const Run& run, JsonWriter& w) {
  w.objects("communicators", run.comms, [&](const auto& comm) {
    w.field("comm", comm_key(comm));
    w.field("name", comm.name);
    w.field("nranks", comm.nranks);
    w.key("ranks");
    w.begin_array();
    for (const auto& r : comm.ranks) w.value(r.rank);
    w.end_array();
    w.values("absent_ranks", comm.absent_ranks);
    w.field("instances", static_cast<std::uint64_t>(comm.instances.size()));
    w.objects("gaps", comm.gaps, [&](const auto& g) {
      w.field("scope", g.scope);
      w.field("kind", g.kind);
      w.field("detail", g.detail);
    });
  });
}

}  // namespace

void render_info(const std::string& path, const Run& run, const InventorySink& spans,
                 OutputFormat format, std::string& out) {
  std::vector<Field> facts = {{"input", path}};
  for (const auto& f : run.facts) facts.push_back({f.name, f.value});
  render_fields(facts, format, out);
  if (format != OutputFormat::kMarkdown) out += "\n";
  render_communicators(run, format, out);
  if (format != OutputFormat::kMarkdown) out += "\n";
  if (!run.details.blocks.empty()) {
    render_details(run.details, format, out);
    if (format != OutputFormat::kMarkdown) out += "\n";
  }
  if (run.has_spans) {
    render_spans(spans, format, out);
  } else {
    render_line("spans         none (this input holds no spans)", format, out);
  }
}

void render_info_csv(const Run& run, const InventorySink& spans, std::string& out) {
  render_csv(run.details.csv ? *run.details.csv : span_table(spans, true), out);
}

void write_info_json(const std::string& path, const Run& run, const InventorySink& spans,
                     const Diagnostics& diagnostics, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.info");
  w.field("schema_version", 2);
  w.field("path", path);
  w.field("input", input_kind_key(run.kind));
  w.field("files", run.config.files);
  w.objects("facts", run.facts, [&](const auto& f) {
    w.field("name", f.name);
    w.field("value", f.value);
  });
  write_communicators_json(run, w);
  if (run.has_spans) write_spans_json(spans, w);
  w.object("details", [&] { write_details_json(run.details.json, w); });
  write_warnings_json(w, diagnostics);
  w.end_object();
}

}  // namespace npkit
