#include "import/flight_recorder/fr_input.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

#include "import/flight_recorder/fr_file.hpp"
#include "import/rank_limit.hpp"
#include "import/spanless_options.hpp"
#include "run/rank_filter.hpp"
#include "util/prose_list.hpp"
#include "util/rank_ranges.hpp"

namespace npkit {
namespace {

struct FrFileName {
  std::string name;
  FrName parsed;
};

// The dump files of the directory `dir` (listed as `entries`), by rank.
Result<std::vector<FrFileName>> dump_files(const std::string& dir,
                                           const std::vector<io::DirEntry>& entries) {
  std::map<std::int32_t, FrFileName> by_rank;
  std::set<std::string> prefixes;
  for (const auto& e : entries) {
    if (!e.regular) continue;
    const auto parsed = fr_rank_of_name(e.name);
    if (!parsed || !is_flight_recorder_file(io::join_path(dir, e.name))) continue;
    prefixes.insert(parsed->prefix);
    const auto [it, added] = by_rank.emplace(parsed->rank, FrFileName{e.name, *parsed});
    if (!added) {
      return Error{fmt::format("{}: two Flight Recorder dumps of rank {}: {} and {}", dir,
                               parsed->rank, it->second.name, e.name)};
    }
  }
  if (prefixes.size() > 1) {
    return Error{
        fmt::format("{}: holds Flight Recorder dumps of {} prefixes ({}): give a "
                    "directory of one job's dumps",
                    dir, prefixes.size(), fmt::join(prefixes, ", "))};
  }
  std::vector<FrFileName> out;
  for (auto& [rank, f] : by_rank) out.push_back(std::move(f));
  return out;
}

}  // namespace

Result<std::unique_ptr<FlightRecorderInput>> FlightRecorderInput::open(const ImportOptions& o) {
  NPKIT_TRY(refuse_span_options(o, "PyTorch Flight Recorder dumps, which have no spans"));
  NPKIT_ASSIGN(auto filter, RankFilter::parse(o.ranks));
  std::vector<io::DirEntry> listing;
  if (o.detected && o.detected->listing) {
    listing = *o.detected->listing;
  } else {
    NPKIT_ASSIGN(listing, io::list_directory(o.path));
  }
  NPKIT_ASSIGN(auto files, dump_files(o.path, listing));
  auto input = std::make_unique<FlightRecorderInput>();
  input->path_ = o.path;
  std::set<std::int32_t> seen;
  for (const auto& f : files) {
    seen.insert(f.parsed.rank);
    input->dumps_.prefix = f.parsed.prefix;
    if (!filter.contains(static_cast<std::uint32_t>(f.parsed.rank))) continue;
    std::vector<std::string> notes;
    auto dump = read_flight_recorder_file(io::join_path(o.path, f.name), f.parsed.rank, notes);
    if (!dump) {
      if (!o.skip_bad) return dump.error();
      input->diagnostics_.warn("unreadable Flight Recorder dump",
                               dump.error().message + "; its rank is left out (--skip-bad)");
      continue;
    }
    for (auto& n : notes) input->diagnostics_.warn("Flight Recorder version", std::move(n));
    input->dumps_.ranks.push_back(std::move(*dump));
  }
  if (input->dumps_.ranks.empty()) {
    if (seen.empty() || !filter.selects_all()) return no_such_ranks(o, seen);
    return Error{o.path + ": no Flight Recorder dump could be read"};
  }
  if (filter.selects_all()) {
    std::set<std::int64_t> named;
    for (const auto& d : input->dumps_.ranks) {
      for (const auto& g : d.groups) named.insert(g.ranks.begin(), g.ranks.end());
    }
    std::vector<std::int32_t> missing;
    for (const std::int64_t r : named) {
      if (r < kMaxRanks && !seen.contains(static_cast<std::int32_t>(r))) {
        missing.push_back(static_cast<std::int32_t>(r));
      }
    }
    if (!missing.empty()) {
      input->diagnostics_.warn(
          "missing ranks",
          fmt::format("{}: no Flight Recorder dump of global rank(s) {}, which the dumps' process "
                      "groups name",
                      o.path, rank_ranges(missing)));
    }
  }
  input->phases_ = assign_phases(PhaseMap{}, EventTable{});
  return input;
}

std::vector<InputFact> FlightRecorderInput::input_facts() const {
  std::set<std::string> formats;
  std::set<std::string> versions;
  std::set<std::string> libs;
  std::set<std::string> groups;
  std::size_t entries = 0;
  std::vector<std::int32_t> ranks;
  for (const auto& d : dumps_.ranks) {
    formats.insert(d.format);
    versions.insert(d.version);
    if (!d.comm_lib_version.empty()) libs.insert(d.comm_lib_version);
    for (const auto& g : d.groups)
      groups.insert(g.desc.empty() ? g.name : g.name + " (" + g.desc + ")");
    entries += d.entries.size();
    ranks.push_back(d.rank);
  }
  std::vector<InputFact> out;
  out.push_back({"format", fmt::format("PyTorch Flight Recorder dumps ({}), version {}",
                                       fmt::join(formats, ", "), fmt::join(versions, ", "))});
  out.push_back({"files", fmt::format("{} ({}<rank>), rank(s) {}", dumps_.ranks.size(),
                                      dumps_.prefix, rank_ranges(ranks))});
  out.push_back(
      {"comm library", libs.empty() ? "not recorded" : fmt::format("{}", fmt::join(libs, ", "))});
  out.push_back(
      {"groups", groups.empty() ? "none recorded" : prose_list({groups.begin(), groups.end()})});
  out.push_back({"entries", fmt::format("{} over all ranks", entries)});
  return out;
}

Result<Run> FlightRecorderInput::read_input(const std::vector<SpanSink*>&) {
  Run run;
  run.path = path_;
  run.kind = InputKind::kFlightRecorder;
  run.config.formats.insert("PyTorch Flight Recorder");
  run.config.files = dumps_.ranks.size();
  for (const auto& d : dumps_.ranks) {
    if (!d.comm_lib_version.empty()) run.config.nccl_versions.insert(d.comm_lib_version);
  }
  run.flight_recorder = dumps_;
  return run;
}

}  // namespace npkit
