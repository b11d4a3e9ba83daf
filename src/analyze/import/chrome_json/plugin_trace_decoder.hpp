// import/chrome_json/plugin_trace_decoder.hpp — the collectives of one file that NCCL's example
// profiler plugin wrote (`<NCCL_PROFILE_DUMP_FILE>_<commHash>_<rank>.json`, one per communicator
// and rank), or of a trace our own `trace` made from .npkt dumps.
// Contract:
// - Example plugin: async events "b"/"e" matched by (cat, id); a COLL "b" carries SeqNum,
//   CommHash, Rank, Count, Datatype, Algorithm, Protocol, nChannels; its name is the function
//   ("AllReduce"). ts is µs on the process's own steady clock since its plugin init, read into
//   integer ns. A collective's start is its "b", its end its "e" (none: never ended, counted). The
//   process id is the file's `pid`. CommHash and Rank come from the Coll events, else from the
//   file name. Events of the other categories are counted per category, not kept.
// - Our .npkt trace: one process per (communicator, rank) named "rank R, comm HASH (host)"; the
//   "gpu" X events of a collective (one per channel, args func, seq, size) make its span, first
//   channel start to last channel end, on the trace's common time base; the "enqueue" X event of
//   the same (func, seq) gives count, datatype, algorithm, protocol and channels.
// - Function, data type, algorithm and protocol names are interned per file: no heap object per
//   collective. Events that lack what they need (ts, a b/e pair, a number) are counted warnings
//   with the byte offset; nothing is guessed. Each trace's producer is trace_producer_name of its
//   file's producer.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "import/chrome_json/trace_event_reader.hpp"
#include "import/chrome_json/trace_producer.hpp"
#include "import/plugin_join/plugin_rank_trace.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

// Reads NCCL's example plugin files: one PluginRankTrace per file.
class ExamplePluginDecoder : public TraceEventVisitor {
 public:
  ExamplePluginDecoder(std::string path, Diagnostics& diagnostics);
  Status on_event(const TraceEvent& event) override;
  // The file's collectives; CommHash/Rank from the file name when no Coll event gave them.
  PluginRankTrace finish();

 private:
  std::uint16_t intern(std::string_view s);
  void warn(std::string_view category, const TraceEvent& e, const std::string& what);

  PluginRankTrace trace_;
  Diagnostics& diagnostics_;
  std::map<std::string, std::uint32_t, std::less<>> interned_;
  std::map<std::uint64_t, std::size_t> open_colls_;  // COLL id → index in colls
  std::uint64_t unmatched_ends_ = 0;
  bool comm_from_events_ = false;
};

// Reads our own trace of .npkt dumps: one PluginRankTrace per process of the file.
class OwnProfilerTraceDecoder : public TraceEventVisitor {
 public:
  OwnProfilerTraceDecoder(std::string path, Diagnostics& diagnostics);
  Status on_header(const TraceHeader& header) override;
  Status on_event(const TraceEvent& event) override;
  std::vector<PluginRankTrace> finish();

 private:
  struct Process {
    PluginRankTrace trace;
    std::map<std::string, std::uint32_t, std::less<>> interned;
    std::map<std::pair<std::uint16_t, std::uint64_t>, std::size_t> by_key;  // (func, seq)
  };
  Process& process(std::int64_t pid);
  std::size_t coll_of(Process& p, std::string_view func, std::uint64_t seq);

  std::string path_;
  Diagnostics& diagnostics_;
  std::map<std::int64_t, Process> processes_;
  std::int64_t origin_ns_ = 0;  // otherData.time_origin_ns
  std::uint64_t incomplete_ = 0;
};

// Reads every file with its producer's decoder (each must be NCCL's example plugin or our trace of
// .npkt dumps, else an Error naming it). Per file, in file order: one trace per communicator and
// rank it holds.
Result<std::vector<PluginRankTrace>> read_profiler_traces(const std::vector<std::string>& paths,
                                                          Diagnostics& diagnostics);

// "AllReduce" → interned id in `trace` (shared by both decoders).
std::uint16_t intern_name(PluginRankTrace& trace,
                          std::map<std::string, std::uint32_t, std::less<>>& interned,
                          std::string_view s);

}  // namespace npkit
