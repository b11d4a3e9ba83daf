// What `info` says of Chrome-trace JSON beyond what every input shows: each file and who wrote it,
// the event table of a trace of spans, the rank traces of a trace of profiler events.
#include <fmt/format.h>

#include "output/info/info_details.hpp"

namespace npkit {

void chrome_span_info_json(const ChromeSpanInput& input, JsonWriter& w) {
  w.objects("files", input.spans().files, [&](const auto& f) {
    w.field("path", f.path);
    w.field("producer", ingest::trace_producer_name(f.identity.producer));
    w.field("reason", f.identity.reason);
    w.field("bytes", f.bytes);
    w.field("events", f.events);
  });
  w.object("event_table", [&] {
    w.field("name", input.spans().names->table().label());
    w.field("reason", input.spans().table_reason);
    w.field("names_added", input.spans().names->names_added());
  });
}

TextTable chrome_profiler_info_csv(const ChromeProfilerInput& input) {
  TextTable t;
  t.columns = {"rank", "comm", "clock", "events", "collectives", "never ended", "file"};
  for (const auto& c : input.comms()) {
    for (const auto* r : c.ranks) {
      if (r == nullptr) continue;
      std::uint64_t events = 0;
      for (const auto& [cat, n] : r->events_by_category) events += n;
      t.add_row({std::to_string(r->rank), comm_hex(r->comm_hash),
                 r->host.empty() ? fmt::format("process {}", r->pid) : r->host,
                 std::to_string(events), std::to_string(r->colls.size()),
                 std::to_string(r->never_ended), r->path});
    }
  }
  return t;
}

void chrome_profiler_info_text(const ChromeProfilerInput& input, OutputFormat format,
                               std::string& out) {
  render_table(chrome_profiler_info_csv(input), format, out);
}

void chrome_profiler_info_json(const ChromeProfilerInput& input, JsonWriter& w) {
  w.objects("traces", input.traces(), [&](const auto& r) {
    w.field("path", r.path);
    w.field("producer", ingest::trace_producer_name(r.producer));
    w.field("comm_hash", comm_hex(r.comm_hash));
    w.field("rank", r.rank);
    w.field("pid", r.pid);
    w.field("host", r.host);
    w.field("collectives", static_cast<std::uint64_t>(r.colls.size()));
    w.field("never_ended", r.never_ended);
    w.object("events_by_category", [&] {
      for (const auto& [cat, n] : r.events_by_category) w.field(cat, n);
    });
  });
}

}  // namespace npkit
