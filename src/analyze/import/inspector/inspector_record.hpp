// import/inspector/inspector_record.hpp — one line of an NCCL Inspector log: a JSON object per
// completed collective (coll_perf) or point-to-point operation (p2p_perf) of one rank.
// Contract:
// - parse_inspector_line reads one line (without its newline) with a reused parser. Required:
//   header.id (a "0x…" hex string: the communicator hash), header.rank, header.n_ranks
//   (0 <= rank < n_ranks <= kInspectorMaxRanks), metadata.inspector_output_format_version
//   ("v4.<minor>"), and in coll_perf / p2p_perf the function (coll / p2p), sequence number (coll_sn
//   / p2p_sn), message bytes and execution time (µs) — integers where the format writes integers.
//   Optional: header.comm_name and header.nnodes, metadata hostname, pid, dump_timestamp_us, the
//   timing source, p2p_peer (required for p2p_perf), and the verbose event_trace_ts object
//   (coll_start_ts / p2p_start_ts, coll_stop_ts / p2p_stop_ts, kernel_events with channel_id,
//   kernel_start_ts, kernel_stop_ts, kernel_record_ts). Members the reader does not use (git_rev,
//   rec_mechanism, the bandwidths, event_trace_sn, later additions) are not checked.
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

#include "util/result.hpp"

namespace npkit::ingest {

inline constexpr std::uint32_t kInspectorMajor = 4;
inline constexpr std::uint32_t kInspectorKnownMinor = 0;
// Communicators larger than this are not believed (a bad size would cost memory per rank).
inline constexpr std::int32_t kInspectorMaxRanks = 1 << 20;

struct InspectorChannel {
  std::uint32_t channel = 0;
  std::uint64_t start_us = 0;   // host µs the KernelCh start event was recorded
  std::uint64_t stop_us = 0;    // host µs the KernelCh stop event was recorded
  std::uint64_t record_us = 0;  // host µs its GPU stop timestamp was recorded
};

struct InspectorRecord {
  std::uint64_t comm_hash = 0;
  std::string comm_name;  // "" when the log has none (NCCL before 2.30)
  std::int32_t rank = 0;
  std::int32_t nranks = 0;
  std::string version;  // "v4.0"
  std::uint32_t minor = 0;
  std::string host;  // "" when not written
  std::int64_t pid = 0;
  bool p2p = false;
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

}  // namespace npkit::ingest
