#include "import/inspector/inspector_dumps.hpp"

#include <fmt/format.h>

namespace npkit {
namespace {

constexpr std::uint32_t kHeaderOnceMinor = 3;

const char* key_of(InspectorRecordKind k) {
  switch (k) {
    case InspectorRecordKind::kColl:
      return "coll_perf";
    case InspectorRecordKind::kP2p:
      return "p2p_perf";
    case InspectorRecordKind::kProxy:
    case InspectorRecordKind::kDumpStats:
      break;
  }
  return "proxy_trace";
}

}  // namespace

void InspectorDumps::close() {
  if (open_ && (open_->coll > 0 || open_->p2p > 0 || open_->proxy > 0)) {
    shortfalls_.push_back(std::move(*open_));
  }
  open_.reset();
}

void InspectorDumps::finish() {
  close();
}

Status InspectorDumps::on_record(InspectorRecord& r, std::uint64_t line) {
  if (r.kind == InspectorRecordKind::kDumpStats) {
    if (!r.has_context) {
      return Error{"a dump_stats record without header and metadata: expected both on its line"};
    }
    close();
    if (r.minor >= kHeaderOnceMinor) {
      DumpShortfall due;
      due.line = line;
      due.context = r;
      due.coll = r.stats.coll_records;
      due.p2p = r.stats.p2p_records;
      due.proxy = r.stats.proxy_records;
      open_ = std::move(due);
    }
  }
  if (r.has_context) return Ok{};
  const char* key = key_of(r.kind);
  if (!open_) {
    return Error{fmt::format(
        "a {} record without header and metadata: expected it inside a v4.{} dump (after a "
        "dump_stats line with header and metadata), or header and metadata on the line",
        key, kHeaderOnceMinor)};
  }
  std::uint64_t& due = r.kind == InspectorRecordKind::kColl  ? open_->coll
                       : r.kind == InspectorRecordKind::kP2p ? open_->p2p
                                                             : open_->proxy;
  if (due == 0) {
    return Error{fmt::format(
        "a {} record beyond the count that the dump at line {} announced (dump_stats): expected "
        "a dump_stats line or no more {} records",
        key, open_->line, key)};
  }
  --due;
  const InspectorRecord& c = open_->context;
  r.has_context = true;
  r.comm_hash = c.comm_hash;
  r.comm_name = c.comm_name;
  r.rank = c.rank;
  r.nranks = c.nranks;
  r.version = c.version;
  r.minor = c.minor;
  r.host = c.host;
  r.pid = c.pid;
  return Ok{};
}

}  // namespace npkit
