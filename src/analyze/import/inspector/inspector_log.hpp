// import/inspector/inspector_log.hpp — NCCL Inspector logs read into one trace per (communicator,
// rank): the collectives to join across ranks (import/plugin_join/plugin_cross_rank.hpp) and what
// the records say about themselves.
// Contract:
// - inspector_log_files: a file is read as it is; in a directory (the Inspector writes one
//   `<hostname>-pid<pid>.log` per process into NCCL_INSPECTOR_DUMP_DIR) every regular file whose
//   first line is an Inspector record, in name order; other files are named in an "ignored files"
//   warning. A directory without one is an Error.
// - read_inspector_logs streams each file line by line (memory grows with the records, not with
//   the line or file length; a line longer than kMaxLineBytes is an Error). Empty lines are
//   skipped. A record that cannot be read is an Error naming the file, line and byte offset and
//   what was expected (import/inspector/inspector_record.hpp) — except a last line without its
//   newline, which the Inspector may still have been writing: it is dropped with a "truncated
//   file" warning naming the offset. A newer minor format version is a "newer format" warning.
// - Collective records (coll_perf) become PluginColl entries of their (comm, rank) trace, in file
//   order: func, seq = coll_sn, bytes = coll_msg_size_bytes, channels = the verbose record's
//   kernel events (0 without). A verbose record (event_trace_ts) starts at its first channel's
//   KernelCh start event (host µs) and ends execution time later; launch_ns is its Coll start
//   event. A record without them holds start 0, end = its execution time (starts_known false
//   on its trace). A record with execution time 0 never ended (untimed).
//   coll_algo / coll_proto (v4.2) are the collective's algorithm and protocol.
// - Point-to-point records (p2p_perf) are counted per rank, not joined (their p2p_sn counts every
//   Send and Recv of the rank, so sequence numbers do not match across ranks).
// - v4.3 dumps (header once per dump) are restored line by line (import/inspector/
//   inspector_dumps.hpp); a dump cut short is a "truncated dump" warning and its missing records
//   count as lost. proxy_trace records add their steps to the rank's proxy breakdown
//   (import/inspector/inspector_proxy_steps.hpp).
// - Lost records (v4.1 on): per (comm, rank) and kind, what the rings dropped — the larger of the
//   dumps' dropped_since_last_dump summed and the largest dropped_total (a log that begins after
//   the first dump has only the total) — plus what truncated dumps lack. Each rank that lost any
//   is a "records lost" warning with the numbers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "import/plugin_join/plugin_rank_trace.hpp"
#include "run/proxy_steps.hpp"
#include "run/run.hpp"
#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit {

inline constexpr std::size_t kMaxInspectorLineBytes = std::size_t{16} << 20;

struct InspectorRankLog {
  PluginRankTrace trace;  // comm_hash, rank, nranks, pid, host, path, collectives
  std::string comm_name;
  std::vector<std::int64_t> launch_ns;  // per trace.colls entry; kUnknownTime when not verbose
  bool starts_known = true;             // every collective record is verbose
  std::uint64_t p2p_records = 0;
  std::uint64_t verbose_records = 0;
  std::uint64_t untimed_records = 0;                    // execution time 0
  std::map<std::string, std::uint64_t> timing_sources;  // "kernel_gpu" → records
  std::uint64_t max_channels = 0;                       // of a verbose record
  std::uint64_t dumps = 0;                              // dump_stats records
  std::uint64_t proxy_records = 0;                      // proxy_trace records
  std::uint64_t proxy_steps_dropped = 0;                // proxy_op n_steps_dropped, summed
  std::optional<ProxyStepBreakdown> proxy;              // where the log holds proxy steps
  LostRecords dropped_reported;                         // dropped_since_last_dump, summed
  LostRecords dropped_total;                            // the largest dropped_total
  LostRecords cut;                                      // due in truncated dumps, not in the log

  LostRecords lost() const;
};

struct InspectorFile {
  std::string path;
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
  std::set<std::string> versions;  // "v4.0"
};

struct InspectorLogs {
  std::vector<InspectorFile> files;
  std::vector<InspectorRankLog> ranks;  // ordered by (comm hash, rank)
};

Result<std::vector<std::string>> inspector_log_files(const std::string& path,
                                                     Diagnostics& diagnostics);

Result<InspectorLogs> read_inspector_logs(const std::vector<std::string>& files,
                                          Diagnostics& diagnostics);

// Whether the file at `path` starts with an Inspector record (looks_like_inspector_log).
bool is_inspector_log(const std::string& path);

}  // namespace npkit
