// What `info` shows of Chrome-trace JSON beyond what every input shows (run/input_details.hpp):
// each file and who wrote it, the event table of a trace of spans, the rank traces of a trace of
// profiler events.
#include <fmt/format.h>

#include "import/chrome_json/chrome_input.hpp"
#include "import/npkt/npkt_input.hpp"

namespace npkit {
namespace {

TextTable rank_trace_table(const std::vector<PluginCommunicator>& comms) {
  TextTable t;
  t.columns = {"rank", "comm", "clock", "events", "collectives", "never ended", "file"};
  for (const auto& c : comms) {
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

}  // namespace

InputDetails ChromeSpanInput::details() const {
  InputDetails out;
  DetailWriter w(out.json);
  w.objects("files", input_.files, [&](const auto& f) {
    w.field("path", f.path);
    w.field("producer", trace_producer_name(f.identity.producer));
    w.field("reason", f.identity.reason);
    w.field("bytes", f.bytes);
    w.field("events", f.events);
  });
  w.object("event_table", [&] {
    w.field("name", input_.names->table().label());
    w.field("reason", input_.table_reason);
    w.field("names_added", input_.names->names_added());
  });
  return out;
}

InputDetails ChromeProfilerInput::details() const {
  InputDetails out;
  out.blocks.push_back(
      DetailBlock{DetailBlock::Kind::kTable, "", {}, rank_trace_table(comms_), {}});
  out.csv = rank_trace_table(comms_);
  DetailWriter w(out.json);
  w.objects("traces", traces_, [&](const auto& r) {
    w.field("path", r.path);
    w.field("producer", r.producer);
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
  return out;
}

}  // namespace npkit
