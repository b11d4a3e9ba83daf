// import/inspector/inspector_record.hpp — one line of an NCCL Inspector log: a JSON object per
// completed operation of one rank, per dump of a communicator, or per proxy operation.
// Contract:
// - parse_inspector_line reads one line (without its newline) with a reused parser. A line is one
//   of four records: coll_perf (a completed collective), p2p_perf (a Send or Recv), dump_stats
//   (v4.1 on: what one dump of one communicator wrote and how many records its rings dropped)
//   or proxy_trace (v4.3: a proxy operation or step, import/inspector/inspector_proxy_record.hpp).
// - Context: header.id (a "0x…" hex string: the communicator hash), header.rank, header.n_ranks
//   (0 <= rank < n_ranks <= kInspectorMaxRanks), metadata.inspector_output_format_version
//   ("v4.<minor>"); optional header.comm_name ("unknown" reads as none) and metadata hostname and
//   pid. Up to v4.2 every line carries it. From v4.3 only the dump_stats line does and the
//   records of its dump follow without header and metadata: such a line parses with
//   has_context false and its context unset (import/inspector/inspector_dumps.hpp restores it).
//   A line with one of header and metadata but not the other is an Error.
// - coll_perf / p2p_perf: the function (coll / p2p), sequence number (coll_sn / p2p_sn), message
//   bytes and execution time (µs) — integers where the format writes integers; optional the
//   timing source, coll_algo and coll_proto (v4.2; "unknown" reads as none), p2p_peer (required
//   for p2p_perf), and the verbose event_trace_ts object (coll_start_ts / p2p_start_ts,
//   coll_stop_ts / p2p_stop_ts, kernel_events with channel_id, kernel_start_ts, kernel_stop_ts,
//   kernel_record_ts). dump_stats: coll_records, coll_dropped_total,
//   coll_dropped_since_last_dump and the same three of p2p; the proxy three optional (written
//   when proxy tracing is on). Members the reader does not use (git_rev, rec_mechanism, the
//   bandwidths, event_trace_sn, later additions) are not checked.
// - A line that is not JSON, lacks a required member, holds a value of the wrong type or out of
//   range, or names another major format version is an Error: "<what>: expected <what>" — the
//   caller adds the file, line and offset. A minor version above kKnownMinor is accepted
//   (newer_minor set): later minors only add members.
// - Times stay as the log writes them: integer µs (timestamps on the host's gettimeofday clock).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "import/inspector/inspector_proxy_record.hpp"
#include "import/rank_limit.hpp"
#include "util/result.hpp"

namespace npkit {

inline constexpr std::uint32_t kInspectorMajor = 4;
inline constexpr std::uint32_t kInspectorKnownMinor = 3;
// Communicators larger than this are not believed (a bad size would cost memory per rank).
inline constexpr std::int32_t kInspectorMaxRanks = kMaxRanks;

struct InspectorChannel {
  std::uint32_t channel = 0;
  std::uint64_t start_us = 0;   // host µs the KernelCh start event was recorded
  std::uint64_t stop_us = 0;    // host µs the KernelCh stop event was recorded
  std::uint64_t record_us = 0;  // host µs its GPU stop timestamp was recorded
};

enum class InspectorRecordKind : std::uint8_t { kColl, kP2p, kDumpStats, kProxy };

// One dump of one communicator (v4.1 on): records it wrote, and records its rings dropped in
// all (since the communicator began) and since the previous dump.
struct InspectorDumpStats {
  std::uint64_t coll_records = 0;
  std::uint64_t coll_dropped_total = 0;
  std::uint64_t coll_dropped_since_last_dump = 0;
  std::uint64_t p2p_records = 0;
  std::uint64_t p2p_dropped_total = 0;
  std::uint64_t p2p_dropped_since_last_dump = 0;
  std::uint64_t proxy_records = 0;
  std::uint64_t proxy_dropped_total = 0;
  std::uint64_t proxy_dropped_since_last_dump = 0;
};

struct InspectorRecord {
  bool has_context = true;  // header and metadata on the line (false: a v4.3 dump's record)
  std::uint64_t comm_hash = 0;
  std::string comm_name;  // "" when the log has none (NCCL before 2.30)
  std::int32_t rank = 0;
  std::int32_t nranks = 0;
  std::string version;  // "v4.0"
  std::uint32_t minor = 0;
  std::string host;  // "" when not written
  std::int64_t pid = 0;
  InspectorRecordKind kind = InspectorRecordKind::kColl;
  std::string func;  // "AllReduce", "Send", ...
  std::uint64_t seq = 0;
  std::int32_t peer = -1;  // p2p_perf only
  std::uint64_t bytes = 0;
  std::uint64_t exec_time_us = 0;
  std::string timing_source;  // "kernel_gpu", "kernel_cpu", "collective_cpu"; "" when absent
  bool verbose = false;       // event_trace_ts present
  std::uint64_t op_start_us = 0;
  std::uint64_t op_stop_us = 0;
  std::vector<InspectorChannel> channels;  // verbose records only
  std::string algo;                        // coll_algo (v4.2); "" when absent or "unknown"
  std::string proto;                       // coll_proto (v4.2); "" when absent or "unknown"
  InspectorDumpStats stats;                // dump_stats records
  InspectorProxyTrace proxy;               // proxy_trace records
};

class InspectorLineParser {
 public:
  InspectorLineParser();
  ~InspectorLineParser();
  InspectorLineParser(const InspectorLineParser&) = delete;
  InspectorLineParser& operator=(const InspectorLineParser&) = delete;

  // Parses `line` into `out` (every member reset).
  Status parse(std::string_view line, InspectorRecord& out);

 private:
  struct Impl;
  Impl* impl_;
};

// Whether `text` (the start of a file) begins with an Inspector record: its first line is a JSON
// object with a header object and metadata.inspector_output_format_version. A first line longer
// than `text` is judged by its start.
bool looks_like_inspector_log(std::string_view text);

}  // namespace npkit
