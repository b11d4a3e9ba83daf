#include "import/legacy/legacy_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <thread>

#include "import/spans/collective_spans.hpp"

namespace npkit {
namespace {

unsigned reader_threads(const LegacyDump& dump, unsigned requested) {
  if (requested != 0) return std::min(requested, 64u);
  constexpr std::uint64_t kSmallDump = 16ull << 20;
  std::uint64_t bytes = 0;
  for (const auto& r : dump.layout.ranks) {
    for (const auto* files : {&r.gpu, &r.cpu}) {
      for (const auto& f : *files) bytes += f.bytes;
    }
  }
  if (bytes < kSmallDump) return 1;
  return std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

// Forwards to the sink and the join, and tallies each rank's tracks for `info`.
class TalliedSpans : public WithCollectiveSpans {
 public:
  TalliedSpans(SpanSink& sink, CollectiveSpans& collectives)
      : WithCollectiveSpans(sink, collectives) {}
  void begin_track(const TrackFile& file, TimeDomain domain) override {
    WithCollectiveSpans::begin_track(file, domain);
    LegacyRankTracks::begin(tracks, file);
  }
  void end_track(const TrackFile& file, const TrackStats& stats) override {
    WithCollectiveSpans::end_track(file, stats);
    LegacyRankTracks::end(tracks, file, stats);
  }

  std::vector<LegacyRankTracks> tracks;
};

}  // namespace

Result<std::unique_ptr<LegacyInput>> LegacyInput::open(const ImportOptions& o,
                                                       const PhaseMap& user) {
  auto input = std::make_unique<LegacyInput>();
  input->path_ = o.path;
  NPKIT_ASSIGN(auto filter, RankFilter::parse(o.ranks));
  input->read_.ranks = filter;
  input->read_.progress = o.progress;
  LegacyDumpOptions options;
  options.event_table = o.event_table;
  options.cpu_record_size = o.cpu_record_size;
  if (o.detected) options.listing = o.detected->listing;
  NPKIT_ASSIGN(input->dump_, open_legacy_dump(o.path, options, input->diagnostics_));
  const auto& ranks = input->dump_.layout.ranks;
  if (std::none_of(ranks.begin(), ranks.end(),
                   [&](const RankFiles& r) { return filter.contains(r.rank); })) {
    return Error{"--ranks " + o.ranks + ": no such rank in " + o.path + " (it has ranks " +
                 std::to_string(ranks.front().rank) + ".." + std::to_string(ranks.back().rank) +
                 ")"};
  }
  input->phases_ = assign_phases(PhaseMap::builtin().with_user_rules(user), input->dump_.table);
  input->threads_ = reader_threads(input->dump_, o.threads);
  NPKIT_TRY(input->set_communicator_size(o.nranks));
  return input;
}

Status LegacyInput::set_communicator_size(std::uint32_t option) {
  const auto& ranks = dump_.layout.ranks;
  const std::uint32_t highest = ranks.back().rank;
  if (option != 0 && option <= highest) {
    return Error{fmt::format("--nranks {}: {} has files of rank {}", option, path_, highest)};
  }
  nranks_ = static_cast<std::int32_t>(option != 0 ? option : highest + 1);
  // Ranks below the highest without files are warned about when the dump is opened.
  if (static_cast<std::uint32_t>(nranks_) > highest + 1) {
    diagnostics_.warn("missing ranks",
                      fmt::format("{}: no files for rank(s) {}..{} (--nranks {})", path_,
                                  highest + 1, nranks_ - 1, nranks_),
                      static_cast<std::uint64_t>(nranks_) - highest - 1);
  }
  if (option == 0 && ranks.size() == 1) {
    diagnostics_.warn("communicator size unknown",
                      fmt::format("{}: files of rank {} only: NPKit dumps do not record the "
                                  "communicator size, taken as {}; busbw depends on it (give "
                                  "--nranks N)",
                                  path_, highest, nranks_));
  }
  return Ok{};
}

std::vector<InputFact> LegacyInput::input_facts() const {
  const LegacyDump& d = dump_;
  std::vector<InputFact> out;
  out.push_back({"format", d.variant.empty() ? "NPKit dump directory" : d.variant});
  std::size_t gpu = 0;
  std::size_t cpu = 0;
  for (const auto& r : d.layout.ranks) {
    gpu += r.gpu.size();
    cpu += r.cpu.size();
  }
  out.push_back({"ranks", fmt::format("{} ({} GPU buffer file(s), {} CPU channel file(s))",
                                      d.layout.ranks.size(), gpu, cpu)});
  out.push_back(
      {"event table",
       d.table.label() + (d.table_reason.empty() ? std::string() : " (" + d.table_reason + ")")});
  out.push_back({"CPU records", d.cpu_record_reason});
  std::map<std::string, std::size_t> gpu_clocks;
  std::map<std::string, std::size_t> cpu_clocks;
  for (const auto& c : d.clocks) {
    ++gpu_clocks[c.gpu_source];
    ++cpu_clocks[c.cpu_source];
  }
  auto join = [](const std::map<std::string, std::size_t>& m) {
    std::string s;
    for (const auto& [k, n] : m) s += fmt::format("{}{} ({} rank(s))", s.empty() ? "" : "; ", k, n);
    return s;
  };
  out.push_back({"GPU clock", join(gpu_clocks)});
  out.push_back({"CPU clock", join(cpu_clocks)});
  out.push_back({"metadata",
                 "none: NPKit dumps record no host, GPU or NCCL version (all ranks are treated as "
                 "one host)"});
  return out;
}

Result<Run> LegacyInput::read_input(const std::vector<SpanSink*>& sinks) {
  std::vector<std::unique_ptr<CollectiveSpans>> collectives;
  std::vector<std::unique_ptr<TalliedSpans>> tees;
  std::vector<SpanSink*> targets;
  for (SpanSink* sink : sinks) {
    collectives.push_back(std::make_unique<CollectiveSpans>(phases_, dump_.table.base_names()));
    tees.push_back(std::make_unique<TalliedSpans>(*sink, *collectives.back()));
    targets.push_back(tees.back().get());
  }
  NPKIT_TRY(read_legacy_spans_parallel(dump_, phases_, read_, targets, diagnostics_));
  for (std::size_t i = 1; i < collectives.size(); ++i) {
    collectives[0]->merge(std::move(*collectives[i]));
  }
  tracks_.clear();
  for (const auto& tee : tees) LegacyRankTracks::merge(tracks_, tee->tracks);
  Run run;
  run.path = path_;
  run.kind = InputKind::kLegacyDump;
  run.config.formats.insert("npkit-legacy");
  std::vector<std::int32_t> ranks;
  for (const auto& r : dump_.layout.ranks) {
    if (!read_.ranks.contains(r.rank)) continue;
    ranks.push_back(static_cast<std::int32_t>(r.rank));
    run.config.files += r.gpu.size() + r.cpu.size();
  }
  const std::int32_t nranks = nranks_;
  run.comms.push_back(collectives[0]->join(
      path_,
      "top-level collective spans (first ENTRY to last EXIT over the rank's buffers, "
      "TIME_SYNC-aligned host clock)",
      nranks, ranks));
  return run;
}

}  // namespace npkit
