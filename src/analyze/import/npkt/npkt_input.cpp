#include "import/npkt/npkt_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "import/join_gaps.hpp"
#include "import/npkt/event_span_reader.hpp"
#include "import/npkt/npkt_capture_tracks.hpp"
#include "import/npkt/npkt_channel_spans.hpp"
#include "import/npkt/npkt_directory.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/npkt_file_bytes.hpp"
#include "import/npkt/npkt_run.hpp"
#include "import/npkt/npkt_runs.hpp"
#include "import/npkt/profiler_rank_summary.hpp"
#include "import/spans/collective_spans.hpp"
#include "npkit/format.hpp"
#include "run/rank_filter.hpp"
#include "util/file_io.hpp"
#include "util/rank_ranges.hpp"

namespace npkit {
namespace {

Status reject_legacy_options(const ImportOptions& o) {
  const char* option = nullptr;
  if (o.event_table != "auto") option = "--event-table";
  if (o.cpu_record_size != 0) option = "--cpu-record-size";
  if (option == nullptr) return Ok{};
  return Error{std::string(option) + " applies to legacy NPKit dump directories; " + o.path +
               " holds .npkt dumps"};
}

// Collectives whose channels never ran together: their spans may include other work.
void warn_disjoint_channels(const RankCapture& c, Diagnostics& diagnostics) {
  std::uint64_t timed = 0;
  std::uint64_t disjoint = 0;
  const ProfilerCollective* example = nullptr;
  auto count = [&](const ProfilerCollective& op) {
    if (!op.has_gpu_span) return;
    ++timed;
    if (!op.channels_disjoint) return;
    ++disjoint;
    if (example == nullptr) example = &op;
  };
  for (const auto& op : c.collectives) count(op);
  for (const auto& op : c.alltoall.alltoalls) count(op);
  if (disjoint == 0) return;
  diagnostics.warn("disjoint channel spans",
                   fmt::format("{}: {} of {} timed collective(s) (first: {} seq {}) have KernelCh "
                               "channels that never ran at the same time; their GPU spans may "
                               "take in other work",
                               c.dump.path, disjoint, timed, example->func_name, example->seq),
                   disjoint);
}

// KernelCh events whose timestamps belong to another work item: left out of the GPU spans.
void warn_stale_channels(const RankCapture& c, Diagnostics& diagnostics) {
  const KernelChannelCheck& check = c.kernel_channels;
  if (check.stale() == 0) return;
  std::uint64_t untimed = 0;
  std::string by_func;
  for (const auto& f : summarize_by_func(c)) {
    untimed += f.untimed_stale;
    if (f.stale_channels == 0) continue;
    by_func += fmt::format("{}{} {} of {}", by_func.empty() ? "" : ", ", f.func, f.stale_channels,
                           f.kernel_channels);
  }
  diagnostics.warn(
      "stale KernelCh timestamps",
      fmt::format("{}: {} of {} KernelCh events carry timestamps of another work item (NCCL ring "
                  "desynchronisation) and are left out of GPU spans ({}); {} operation(s) with a "
                  "stale channel are reported without GPU time (an operation is timed only when "
                  "all its channels are)",
                  c.dump.path, check.stale(), check.kernel_channels,
                  by_func.empty() ? "none attached to a collective" : by_func, untimed),
      check.stale());
}

// Launches whose GPU spans overlap on the rank's stream: their spans were dropped.
void warn_stream_overlaps(const RankCapture& c, Diagnostics& diagnostics) {
  const StreamOverlapCheck& check = c.stream_overlaps;
  if (check.untimed == 0 || !check.first) return;
  const StreamOverlap& first = *check.first;
  diagnostics.warn(
      "overlapping GPU spans",
      fmt::format("{}: {} operation(s) have GPU spans that overlap another launch of this rank, "
                  "which NCCL never runs at the same time (first: {} seq {} still running {:.3f} "
                  "us after {} seq {} started); their KernelCh timestamps belong to other work "
                  "and they are reported without GPU time",
                  c.dump.path, check.untimed, first.earlier->func_name, first.earlier->seq,
                  static_cast<double>(first.earlier_end_ns - first.later_start_ns) / 1000.0,
                  first.later->func_name, first.later->seq),
      check.untimed);
}

constexpr std::string_view kEnvPrefix = "env.";

// What one file says of how the run was set up (its metadata; run/run_config.hpp).
void add_capture_config(const RankCapture& c, RunConfig& config) {
  const NpktDump& d = c.dump;
  auto add_if = [](std::set<std::string>& set, const std::string& v) {
    if (!v.empty()) set.insert(v);
  };
  config.formats.insert("npkt");
  add_if(config.nccl_versions, d.meta("nccl.version"));
  add_if(config.gpus, d.meta("gpu.name"));
  add_if(config.hosts, d.meta("hostname"));
  for (const char* key : {"capture.events", "capture.buffer_size_mb", "capture.plugin_version"}) {
    if (!d.meta(key).empty()) config.capture[key].insert(d.meta(key));
  }
  config.capture["profiler_api"].insert(std::to_string(d.comm.profiler_api));
  for (const auto& [key, value] : d.metadata) {
    if (key.size() > kEnvPrefix.size() && key.compare(0, kEnvPrefix.size(), kEnvPrefix) == 0) {
      config.env[key.substr(kEnvPrefix.size())].insert(value);
    }
  }
  ++config.files;
}

}  // namespace

bool is_npkt_path(const std::string& path) {
  if (io::is_directory(path)) return find_npkt_files(path).ok();
  if (!io::path_exists(path) || io::is_special_file(path)) return false;
  if (is_npkt_file_name(path)) return true;
  return starts_like_npkt(path);
}

std::string comm_hex(std::uint64_t hash) {
  return fmt::format("{:016x}", hash);
}

Result<std::unique_ptr<NpktInput>> NpktInput::open(const ImportOptions& o, const PhaseMap& user) {
  NPKIT_TRY(reject_legacy_options(o));
  NPKIT_ASSIGN(auto filter, RankFilter::parse(o.ranks));
  NpktFiles listing;
  const bool from_directory = io::is_directory(o.path);
  if (from_directory) {
    NPKIT_ASSIGN(listing, find_npkt_files(o.path));
  } else {
    listing.paths.push_back(o.path);
  }
  const std::vector<std::string>& paths = listing.paths;
  auto input = std::make_unique<NpktInput>();
  input->path_ = o.path;
  LoadedCaptures& loaded = input->loaded_;
  Diagnostics& diagnostics = input->diagnostics_;
  for (const std::string& skipped : listing.skipped_copies) {
    diagnostics.warn("compressed copy skipped", skipped);
  }
  for (const std::string& unreadable : listing.unreadable) {
    diagnostics.warn("unreadable rank file", unreadable);
  }
  std::vector<CaptureFileFacts> facts;         // of every file read
  std::vector<std::optional<NpktDump>> dumps;  // of every file read: those --ranks selects
  std::map<std::pair<std::uint64_t, std::int32_t>, std::string> rank_files;  // (comm, rank)
  bool any_event_records = false;
  std::size_t skipped = 0;
  std::string first_skipped;
  for (const auto& path : paths) {
    auto dump = read_npkt_file(path);
    if (!dump && paths.size() > 1 && o.skip_bad) {
      diagnostics.warn("unreadable file skipped (--skip-bad)", dump.error().message);
      if (skipped++ == 0) first_skipped = dump.error().message;
      continue;
    }
    if (!dump && paths.size() > 1) {
      return Error{dump.error().message + " (--skip-bad analyzes the other " +
                   std::to_string(paths.size() - 1) + " file(s) of " + o.path + ")"};
    }
    if (!dump) return dump.error();
    for (const auto& w : dump->warnings) diagnostics.warn("npkt reader", path + ": " + w);
    const std::int32_t rank = dump->comm.rank;
    if (rank >= 0) {
      const auto [kept, fresh] = rank_files.try_emplace({dump->comm.comm_hash, rank}, path);
      if (!fresh) {
        return Error{fmt::format(
            "{} and {} both hold rank {} of communicator {}: expected one file per rank (a copy, "
            "or a file planted in a shared directory?); move one away, or give one file as the "
            "input",
            kept->second, path, rank, comm_hex(dump->comm.comm_hash))};
      }
    }
    facts.push_back(capture_file_facts(*dump));
    any_event_records = any_event_records || dump->has_event_streams();
    const bool selected =
        rank < 0 ? filter.selects_all() : filter.contains(static_cast<std::uint32_t>(rank));
    dumps.push_back(selected ? std::optional<NpktDump>(std::move(*dump)) : std::nullopt);
  }
  if (skipped == paths.size()) {
    return Error{"no readable .npkt file in " + o.path + ": all " + std::to_string(skipped) +
                 " skipped (--skip-bad); the first: " + first_skipped};
  }
  NPKIT_ASSIGN(auto choice, choose_run(o.path, facts, o.run, o.refuse_mixed_runs, diagnostics));
  input->run_facts_ = run_facts(choice);
  std::vector<std::int32_t> seen_ranks;  // of the files of the run read
  for (std::size_t i = 0; i < dumps.size(); ++i) {
    if (!choice.read[i]) continue;
    seen_ranks.push_back(facts[i].rank);
    if (!dumps[i]) continue;
    loaded.files.push_back(build_rank_capture(std::move(*dumps[i])));
    warn_stale_channels(*loaded.files.back(), diagnostics);
    warn_disjoint_channels(*loaded.files.back(), diagnostics);
    warn_stream_overlaps(*loaded.files.back(), diagnostics);
  }
  if (loaded.files.empty()) {
    std::sort(seen_ranks.begin(), seen_ranks.end());
    seen_ranks.erase(std::unique(seen_ranks.begin(), seen_ranks.end()), seen_ranks.end());
    return Error{"--ranks " + o.ranks + ": no such rank in " + o.path +
                 (choice.run == 0 ? "" : fmt::format(" (--run {})", choice.run)) +
                 " (it has ranks " + rank_ranges(seen_ranks) + ")"};
  }
  if (!o.phase_map.empty() && !any_event_records) {
    return Error{"--phase-map applies to legacy NPKit dump directories and to event records; " +
                 o.path + " holds .npkt dumps without event records"};
  }
  for (const auto& f : loaded.files) {
    add_event_file(loaded.events, f->dump, f->clock, diagnostics);
  }
  resolve_event_phases(loaded.events, user);
  loaded.event_streams = check_event_streams(loaded.events, diagnostics);
  std::vector<const RankCapture*> captures;
  for (const auto& f : loaded.files) captures.push_back(f.get());
  loaded.comms = join_communicators(captures, diagnostics);
  input->run_ = npkt_run(o.path, loaded.comms, diagnostics);
  for (const auto& comm : input->run_.comms) {
    warn_ranks_without_data(comm, filter, o.path,
                            from_directory ? "no readable file" : "only one file given",
                            diagnostics);
  }
  for (const auto& f : loaded.files) add_capture_config(*f, input->run_.config);
  return input;
}

Result<Run> NpktInput::read_input(const std::vector<SpanSink*>& sinks) {
  Run run = run_;
  if (loaded_.events.empty()) return run;
  const EventRecords& events = loaded_.events;
  CollectiveSpans collectives(events.phases, events.names.base_names(), "stream");
  WithCollectiveSpans tee(*sinks.front(), collectives);
  read_event_spans_into(events, tee);
  std::map<std::int32_t, std::string> hosts;
  std::vector<std::int32_t> ranks;
  for (const auto& f : events.files) {
    hosts.emplace(static_cast<std::int32_t>(f.rank), f.dump->meta("hostname"));
    ranks.push_back(static_cast<std::int32_t>(f.rank));
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  RunCommunicator comm = collectives.join(
      path_,
      "collective-level event spans (first ENTRY to last EXIT over the rank's streams, host "
      "clock through each file's GPU clock fit)",
      ranks.back() + 1, ranks, hosts);
  if (!comm.instances.empty() || !comm.gaps.empty()) run.comms.push_back(std::move(comm));
  return run;
}

std::vector<ChannelSpan> NpktInput::channel_spans(std::uint64_t comm_hash, std::int64_t lo_ns,
                                                  std::int64_t hi_ns) const {
  for (const auto& comm : loaded_.comms) {
    if (comm.comm_hash == comm_hash) return npkt_channel_spans(comm, lo_ns, hi_ns);
  }
  return {};
}

std::unique_ptr<CaptureTrackSet> NpktInput::capture_tracks() const {
  std::vector<const RankCapture*> captures;
  for (const auto& comm : loaded_.comms) {
    captures.insert(captures.end(), comm.ranks.begin(), comm.ranks.end());
  }
  for (const auto& f : loaded_.files) {
    if (std::find(captures.begin(), captures.end(), f.get()) == captures.end()) {
      captures.push_back(f.get());
    }
  }
  return npkt_capture_tracks(captures, &loaded_.events);
}

}  // namespace npkit
