#include "import/inspector/inspector_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <tuple>

#include "import/inspector/inspector_dumps.hpp"
#include "import/inspector/inspector_proxy_steps.hpp"
#include "import/inspector/inspector_record.hpp"
#include "run/run.hpp"
#include "run/summary/saturating_count.hpp"
#include "util/file_io.hpp"

namespace npkit {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kSniffBytes = std::size_t{64} << 10;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// Calls on_line(text, line number, offset, ended by a newline) for every line of `path`.
template <typename OnLine>
Status for_each_line(const std::string& path, std::uint64_t& bytes, OnLine on_line) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) return Error{fmt::format("{}: cannot open ({})", path, std::strerror(errno))};
  std::vector<char> chunk(kChunkBytes);
  std::string carry;
  std::uint64_t line_no = 1;
  std::uint64_t line_start = 0;
  bytes = 0;
  while (true) {
    const std::size_t n = std::fread(chunk.data(), 1, chunk.size(), f.get());
    if (n == 0) {
      if (std::ferror(f.get()))
        return Error{fmt::format("{}: read error at offset {}", path, bytes)};
      break;
    }
    std::size_t from = 0;
    while (from < n) {
      const char* nl = static_cast<const char*>(std::memchr(chunk.data() + from, '\n', n - from));
      const std::size_t to = nl == nullptr ? n : static_cast<std::size_t>(nl - chunk.data());
      if (carry.size() + (to - from) > kMaxInspectorLineBytes) {
        return Error{
            fmt::format("{}: line {} (offset {}): longer than {} bytes: expected one "
                        "JSON record per line",
                        path, line_no, line_start, kMaxInspectorLineBytes)};
      }
      carry.append(chunk.data() + from, to - from);
      if (nl == nullptr) break;
      NPKIT_TRY(on_line(std::string_view(carry), line_no, line_start, true));
      line_start = bytes + to + 1;
      ++line_no;
      carry.clear();
      from = to + 1;
    }
    bytes += n;
  }
  if (!carry.empty()) NPKIT_TRY(on_line(std::string_view(carry), line_no, line_start, false));
  return Ok{};
}

bool blank(std::string_view s) {
  return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

// NCCL has a dozen function names; more than this many in one rank's log is not a log.
constexpr std::size_t kMaxNames = 256;

Result<std::uint16_t> intern(PluginRankTrace& t, std::string_view s) {
  for (std::size_t i = 0; i < t.names.size(); ++i) {
    if (t.names[i] == s) return static_cast<std::uint16_t>(i);
  }
  if (t.names.size() > kMaxNames) {
    return Error{
        fmt::format("coll '{}': more than {} distinct operation names for one rank: "
                    "expected NCCL function names (AllReduce, AllGather, ...)",
                    s, kMaxNames)};
  }
  t.names.emplace_back(s);
  return static_cast<std::uint16_t>(t.names.size() - 1);
}

class LogBook {
 public:
  explicit LogBook(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  Status add(const InspectorRecord& r, InspectorFile& file) {
    ++file.records;
    file.versions.insert(r.version);
    if (r.minor > kInspectorKnownMinor && newer_.insert(r.version).second) {
      diagnostics_.warn("newer format",
                        fmt::format("{}: format {} is newer than v{}.{}, the newest this reader "
                                    "knows; members it does not know are ignored",
                                    file.path, r.version, kInspectorMajor, kInspectorKnownMinor));
    }
    InspectorRankLog& log = rank_log(r, file.path);
    switch (r.kind) {
      case InspectorRecordKind::kP2p:
        ++log.p2p_records;
        return Ok{};
      case InspectorRecordKind::kDumpStats:
        add_dump(r.stats, log);
        return Ok{};
      case InspectorRecordKind::kProxy:
        ++log.proxy_records;
        log.proxy_steps_dropped = sat_add_count(log.proxy_steps_dropped, r.proxy.steps_dropped);
        if (!r.proxy.steps.empty()) {
          if (!log.proxy) log.proxy.emplace();
          add_proxy_steps(*log.proxy, r.proxy);
        }
        return Ok{};
      case InspectorRecordKind::kColl:
        break;
    }
    NPKIT_ASSIGN(auto func, intern(log.trace, r.func));
    NPKIT_ASSIGN(auto algo, intern(log.trace, r.algo));
    NPKIT_ASSIGN(auto proto, intern(log.trace, r.proto));
    const std::string source = r.timing_source.empty() ? "not recorded" : r.timing_source;
    if (log.timing_sources.size() < kMaxNames || log.timing_sources.count(source) > 0) {
      ++log.timing_sources[source];
    }
    PluginColl c;
    c.seq = r.seq;
    c.func = func;
    c.algo = algo;
    c.proto = proto;
    c.bytes = r.bytes;
    c.channels = static_cast<std::uint32_t>(r.channels.size());
    log.max_channels = std::max<std::uint64_t>(log.max_channels, r.channels.size());
    std::uint64_t first_start_us = 0;
    for (const auto& ch : r.channels) {
      if (ch.start_us != 0 && (first_start_us == 0 || ch.start_us < first_start_us)) {
        first_start_us = ch.start_us;
      }
    }
    const auto duration_ns = static_cast<std::int64_t>(
        std::min<std::uint64_t>(r.exec_time_us, static_cast<std::uint64_t>(INT64_MAX / 1000) / 4));
    std::int64_t launch = kUnknownTime;
    if (r.verbose && first_start_us != 0 && first_start_us < INT64_MAX / 4000) {
      ++log.verbose_records;
      c.start_ns = static_cast<std::int64_t>(first_start_us) * 1000;
      if (r.op_start_us != 0 && r.op_start_us < INT64_MAX / 4000) {
        launch = static_cast<std::int64_t>(r.op_start_us) * 1000;
      }
    } else {
      log.starts_known = false;
      c.start_ns = 0;
    }
    if (r.exec_time_us == 0) {
      ++log.untimed_records;
      c.end_ns = kNeverEnded;
    } else {
      c.end_ns = c.start_ns + duration_ns * 1000;
    }
    log.trace.colls.push_back(c);
    log.launch_ns.push_back(launch);
    return Ok{};
  }

  // The records a truncated v4.3 dump announced and the log lacks.
  void add_cut(const DumpShortfall& s, const std::string& path) {
    diagnostics_.warn(
        "truncated dump",
        fmt::format("{}: line {}: the dump of comm {:016x} rank {} announced {} more coll_perf, "
                    "{} p2p_perf and {} proxy_trace record(s) than the log holds; counted as lost",
                    path, s.line, s.context.comm_hash, s.context.rank, s.coll, s.p2p, s.proxy));
    InspectorRankLog& log = rank_log(s.context, path);
    log.cut.collectives = sat_add_count(log.cut.collectives, s.coll);
    log.cut.p2p = sat_add_count(log.cut.p2p, s.p2p);
    log.cut.proxy = sat_add_count(log.cut.proxy, s.proxy);
  }

  std::vector<InspectorRankLog> finish() {
    std::vector<InspectorRankLog> out;
    for (auto& [key, log] : logs_) {
      const LostRecords lost = log.lost();
      if (lost.any()) {
        diagnostics_.warn(
            "records lost",
            fmt::format("{}: comm {:016x} rank {}: the Inspector lost {} collective, {} "
                        "Send/Recv and {} proxy record(s) (its rings were full, or the log was "
                        "cut); the communicator's rows are incomplete",
                        log.trace.path, log.trace.comm_hash, log.trace.rank, lost.collectives,
                        lost.p2p, lost.proxy),
            sat_add_count(sat_add_count(lost.collectives, lost.p2p), lost.proxy));
      }
      out.push_back(std::move(log));
    }
    return out;
  }

 private:
  static void add_dump(const InspectorDumpStats& s, InspectorRankLog& log) {
    ++log.dumps;
    LostRecords& sum = log.dropped_reported;
    sum.collectives = sat_add_count(sum.collectives, s.coll_dropped_since_last_dump);
    sum.p2p = sat_add_count(sum.p2p, s.p2p_dropped_since_last_dump);
    sum.proxy = sat_add_count(sum.proxy, s.proxy_dropped_since_last_dump);
    LostRecords& total = log.dropped_total;
    total.collectives = std::max(total.collectives, s.coll_dropped_total);
    total.p2p = std::max(total.p2p, s.p2p_dropped_total);
    total.proxy = std::max(total.proxy, s.proxy_dropped_total);
  }

  InspectorRankLog& rank_log(const InspectorRecord& r, const std::string& path) {
    auto [it, inserted] = logs_.try_emplace({r.comm_hash, r.rank, path});
    InspectorRankLog& log = it->second;
    if (inserted) {
      log.trace.path = path;
      log.trace.comm_hash = r.comm_hash;
      log.trace.rank = r.rank;
      log.trace.nranks = r.nranks;
      log.trace.pid = r.pid;
      log.trace.host = r.host;
      log.comm_name = r.comm_name;
    } else if (r.nranks != log.trace.nranks) {
      diagnostics_.warn("differing sizes",
                        fmt::format("{}: comm {:016x} rank {}: n_ranks {} after {}; the larger "
                                    "is used",
                                    path, r.comm_hash, r.rank, r.nranks, log.trace.nranks));
      log.trace.nranks = std::max(log.trace.nranks, r.nranks);
    }
    return log;
  }

  Diagnostics& diagnostics_;
  std::map<std::tuple<std::uint64_t, std::int32_t, std::string>, InspectorRankLog> logs_;
  std::set<std::string> newer_;
};

}  // namespace

LostRecords InspectorRankLog::lost() const {
  const auto kind = [&](std::uint64_t LostRecords::*k) {
    return sat_add_count(std::max(dropped_reported.*k, dropped_total.*k), cut.*k);
  };
  return {kind(&LostRecords::collectives), kind(&LostRecords::p2p), kind(&LostRecords::proxy)};
}

bool is_inspector_log(const std::string& path) {
  std::vector<std::uint8_t> prefix;
  if (!io::read_prefix_into(path, kSniffBytes, prefix)) return false;
  return looks_like_inspector_log(
      std::string_view(reinterpret_cast<const char*>(prefix.data()), prefix.size()));
}

Result<std::vector<std::string>> inspector_log_files(const std::string& path,
                                                     Diagnostics& diagnostics) {
  if (!io::is_directory(path)) return std::vector<std::string>{path};
  NPKIT_ASSIGN(auto entries, io::list_directory(path));
  std::vector<std::string> files;
  std::vector<std::string> others;
  for (const auto& e : entries) {
    if (!e.regular) continue;
    const std::string file = io::join_path(path, e.name);
    (is_inspector_log(file) ? files : others).push_back(e.name);
  }
  if (files.empty()) {
    return Error{path +
                 ": no NCCL Inspector log in the directory (expected files whose first "
                 "line is a JSON record with header and metadata."
                 "inspector_output_format_version)"};
  }
  if (!others.empty()) {
    std::string names;
    for (std::size_t i = 0; i < others.size() && i < 3; ++i) {
      names += (i == 0 ? "" : ", ") + others[i];
    }
    diagnostics.warn("ignored files",
                     fmt::format("{}: {} file(s) that are not Inspector logs were not read ({}{})",
                                 path, others.size(), names, others.size() > 3 ? ", ..." : ""),
                     others.size());
  }
  for (auto& f : files) f = io::join_path(path, f);
  return files;
}

Result<InspectorLogs> read_inspector_logs(const std::vector<std::string>& files,
                                          Diagnostics& diagnostics) {
  InspectorLogs logs;
  LogBook book(diagnostics);
  InspectorLineParser parser;
  InspectorRecord record;
  for (const auto& path : files) {
    InspectorFile file;
    file.path = path;
    InspectorDumps dumps;
    auto read = for_each_line(
        path, file.bytes,
        [&](std::string_view line, std::uint64_t no, std::uint64_t offset, bool ended) -> Status {
          if (blank(line)) return Ok{};
          auto parsed = parser.parse(line, record);
          if (!parsed) {
            if (!ended) {
              diagnostics.warn("truncated file",
                               fmt::format("{}: line {} (offset {}): the last line ends without a "
                                           "newline and is not a whole record ({}); dropped",
                                           path, no, offset, parsed.error().message));
              return Ok{};
            }
            return Error{fmt::format("{}: line {} (offset {}): {}", path, no, offset,
                                     parsed.error().message)};
          }
          if (auto restored = dumps.on_record(record, no); !restored) {
            return Error{fmt::format("{}: line {} (offset {}): {}", path, no, offset,
                                     restored.error().message)};
          }
          if (auto added = book.add(record, file); !added) {
            return Error{fmt::format("{}: line {} (offset {}): {}", path, no, offset,
                                     added.error().message)};
          }
          return Ok{};
        });
    if (!read) return read.error();
    dumps.finish();
    for (const auto& s : dumps.shortfalls()) book.add_cut(s, path);
    if (file.records == 0) {
      return Error{path +
                   ": no Inspector record in the file (expected JSON lines with header, "
                   "metadata and coll_perf or p2p_perf)"};
    }
    logs.files.push_back(std::move(file));
  }
  logs.ranks = book.finish();
  return logs;
}

}  // namespace npkit
