// import/inspector/inspector_dumps.hpp — the dumps of one NCCL Inspector log file, in line order:
// from format v4.3 a dump writes its header and metadata once, on its dump_stats line, and the
// records that follow carry neither (a line is no longer self-contained).
// Contract:
// - on_record is called with every record of one file in order. A dump_stats record of v4.3 or
//   later opens a dump that expects coll_records coll_perf, p2p_records p2p_perf and
//   proxy_records proxy_trace records without context; earlier dump_stats records (v4.1, v4.2)
//   open none. A record without context takes the open dump's header and metadata; without an
//   open dump, or beyond the count its dump announced for that kind, it is an Error saying what
//   was expected (the caller adds the file, line and offset). A record with its own context
//   is read as it is and counts against no dump.
// - A dump whose records stop short of its counts (a new dump_stats line comes first, or the
//   file ends: finish()) is a Shortfall: the records the log lost, per kind, with the dump's
//   line and context.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "import/inspector/inspector_record.hpp"

namespace npkit {

struct DumpShortfall {
  std::uint64_t line = 0;  // of the dump's dump_stats record
  InspectorRecord context;
  std::uint64_t coll = 0;
  std::uint64_t p2p = 0;
  std::uint64_t proxy = 0;
};

class InspectorDumps {
 public:
  Status on_record(InspectorRecord& r, std::uint64_t line);
  void finish();
  const std::vector<DumpShortfall>& shortfalls() const { return shortfalls_; }

 private:
  void close();

  std::optional<DumpShortfall> open_;  // the open dump: its context and the records still due
  std::vector<DumpShortfall> shortfalls_;
};

}  // namespace npkit
