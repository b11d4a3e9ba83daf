// What `info` shows of NCCL Inspector logs beyond what every input shows (run/input_details.hpp):
// per (communicator, rank) its log, the records it holds (collective, Send/Recv, verbose, untimed),
// the channels of its verbose records and how its records were timed; in JSON also its dumps, proxy
// records and the records it lost (v4.1 on).
#include <fmt/format.h>

#include "import/inspector/inspector_input.hpp"
#include "import/npkt/npkt_input.hpp"

namespace npkit {
namespace {

std::string timing_sources(const InspectorRankLog& r) {
  std::string s;
  for (const auto& [source, n] : r.timing_sources) {
    s += fmt::format("{}{} {}", s.empty() ? "" : ", ", n, source);
  }
  return s.empty() ? "-" : s;
}

TextTable rank_log_table(const InspectorLogs& logs) {
  TextTable t;
  t.columns = {"rank",    "comm",    "host",         "pid",    "collectives", "send/recv",
               "verbose", "untimed", "max channels", "timing", "file"};
  for (const auto& r : logs.ranks) {
    t.add_row({std::to_string(r.trace.rank), comm_hex(r.trace.comm_hash), r.trace.host,
               std::to_string(r.trace.pid), std::to_string(r.trace.colls.size()),
               std::to_string(r.p2p_records), std::to_string(r.verbose_records),
               std::to_string(r.untimed_records), std::to_string(r.max_channels), timing_sources(r),
               r.trace.path});
  }
  return t;
}

}  // namespace

InputDetails InspectorInput::details() const {
  InputDetails out;
  out.blocks.push_back(DetailBlock{DetailBlock::Kind::kTable, "", {}, rank_log_table(logs_), {}});
  out.csv = rank_log_table(logs_);
  DetailWriter w(out.json);
  w.objects("files", logs_.files, [&](const auto& f) {
    w.field("path", f.path);
    w.field("bytes", f.bytes);
    w.field("records", f.records);
    w.values("format_versions", f.versions);
  });
  w.objects("rank_logs", logs_.ranks, [&](const auto& r) {
    w.field("path", r.trace.path);
    w.field("comm_hash", comm_hex(r.trace.comm_hash));
    w.field("comm_name", r.comm_name);
    w.field("rank", r.trace.rank);
    w.field("nranks", r.trace.nranks);
    w.field("host", r.trace.host);
    w.field("pid", r.trace.pid);
    w.field("collectives", static_cast<std::uint64_t>(r.trace.colls.size()));
    w.field("p2p", r.p2p_records);
    w.field("verbose", r.verbose_records);
    w.field("untimed", r.untimed_records);
    w.field("max_channels", r.max_channels);
    w.object("timing_sources", [&] {
      for (const auto& [source, n] : r.timing_sources) w.field(source, n);
    });
    w.field("dumps", r.dumps);
    w.field("proxy_records", r.proxy_records);
    const LostRecords lost = r.lost();
    w.object("lost", [&] {
      w.field("collectives", lost.collectives);
      w.field("p2p", lost.p2p);
      w.field("proxy", lost.proxy);
    });
  });
  return out;
}

}  // namespace npkit
