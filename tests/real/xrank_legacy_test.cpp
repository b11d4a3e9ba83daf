// Cross-rank analysis of real legacy NPKit dumps (H200 ring and tree, 2 ranks; the NCCL 2.20 port
// ring, 2 ranks, and split tree, 4 ranks) against a second, plain computation made here from the
// reader's spans: every depth-0 collective span (ALL_REDUCE_RING, ALL_REDUCE_TREE_SPLIT, ...) of
// a rank is keyed by (name, size, m-th span of that size on its buffer); a key's time on a rank
// is its earliest start to latest end; keys every rank holds are instances; then who started
// last, the waits (last start - own start, capped by the rank's span) and the summed spans.
// Legacy dumps name no host: the alignment says hosts are unknown and nothing is corrected.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "analysis/join/run_cross_rank.hpp"
#include "analysis/phases/phase_breakdown.hpp"
#include "analysis/report/cross_rank_report.hpp"
#include "import/legacy/legacy_input.hpp"
#include "support/real_dump.hpp"
#include "support/span_collector.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace {

struct Plain {
  std::uint64_t instances = 0;
  std::map<std::int32_t, std::uint64_t> last;
  std::map<std::int32_t, std::int64_t> wait;
  std::map<std::int32_t, std::int64_t> busy;
};

Plain plain_sync(const npkit::LegacyInput& input) {
  npkit::test::SpanCollector spans;
  npkit::Diagnostics diagnostics;
  REQUIRE(npkit::read_legacy_spans(input.dump(), input.phases(), npkit::SpanReadOptions{}, spans,
                                   diagnostics)
              .ok());
  const npkit::PhaseAssignment& phases = input.phases();
  using Key = std::tuple<std::uint16_t, std::uint32_t, std::uint64_t>;  // base, size, m
  std::map<Key, std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>>> keyed;
  std::map<std::tuple<std::uint32_t, std::uint16_t, std::uint32_t, std::uint32_t>, std::uint64_t>
      seen;  // rank, base, buffer, size
  std::set<std::int32_t> ranks;
  for (const auto& s : spans.spans) {
    if (s.depth != 0 || s.track.kind != npkit::TrackKind::kGpu) continue;
    const auto c = phases.collective_of_base[s.base];
    if (c == npkit::kNoCollective || phases.collectives[c].algo == "p2p") continue;
    const auto rank = static_cast<std::int32_t>(s.track.rank);
    ranks.insert(rank);
    const std::uint64_t m = seen[{s.track.rank, s.base, s.track.index, s.entry_size}]++;
    auto [it, inserted] = keyed[{s.base, s.entry_size, m}].try_emplace(rank, s.start_ns, s.end_ns);
    if (!inserted) {
      it->second.first = std::min(it->second.first, s.start_ns);
      it->second.second = std::max(it->second.second, s.end_ns);
    }
  }
  Plain p;
  for (const auto& [key, by_rank] : keyed) {
    if (by_rank.size() != ranks.size() || by_rank.size() < 2) continue;
    ++p.instances;
    std::int64_t last = INT64_MIN;
    for (const auto& [rank, t] : by_rank) last = std::max(last, t.first);
    for (const auto& [rank, t] : by_rank) {
      const std::int64_t span = std::max<std::int64_t>(0, t.second - t.first);
      if (t.first == last) ++p.last[rank];
      p.wait[rank] += std::min(last - t.first, span);
      p.busy[rank] += span;
    }
  }
  return p;
}

void check_dump(const std::string& dump, std::size_t nranks) {
  npkit::ImportOptions o;
  o.path = dump;
  auto input = npkit::LegacyInput::open(o, npkit::PhaseMap{});
  REQUIRE(input.ok());
  npkit::Run run;
  auto phases = npkit::read_run<npkit::PhaseBreakdownSink>(
      **input, run, [&] { return npkit::PhaseBreakdownSink((*input)->phases()); });
  REQUIRE(phases.ok());
  REQUIRE(run.comms.size() == 1);
  const auto analysis = npkit::analyze_cross_rank(
      npkit::cross_rank_input(run.comms[0],
                              npkit::gpu_phase_infos(phases->ranks(), (*input)->phases())),
      {});
  const auto* a = &analysis;
  CHECK(a->alignment.status == npkit::AlignmentStatus::kHostsUnknown);
  CHECK_FALSE(a->input.hosts_known);
  CHECK(a->input.ranks.size() == nranks);
  CHECK(a->input.gaps.empty());
  const Plain plain = plain_sync(**input);
  REQUIRE(plain.instances > 0);
  CHECK(a->input.instances.size() == plain.instances);
  CHECK(a->sync.instances.size() == plain.instances);
  REQUIRE(a->sync.ranks.size() == nranks);
  for (const auto& r : a->sync.ranks) {
    INFO("rank " << r.rank);
    CHECK(r.arrived_last == (plain.last.count(r.rank) ? plain.last.at(r.rank) : 0u));
    CHECK(r.wait_ns == plain.wait.at(r.rank));
    CHECK(r.busy_ns == plain.busy.at(r.rank));
  }
  // The GPU phases of every rank are there, with their spread.
  REQUIRE_FALSE(a->imbalance.empty());
  for (const auto& p : a->imbalance) CHECK(p.ranks == nranks);
}

}  // namespace

TEST_CASE("xrank legacy H200 dumps: sync matches a plain recount, hosts unknown", "[real][xrank]") {
  for (const char* set : {"ring_simple", "tree_simple"}) {
    const std::string dump = npkit::test::require_path(
        npkit::test::source_path(std::string("samples/npkit-h200/") + set + "/dump"));
    INFO(set);
    check_dump(dump, 2);
  }
}

TEST_CASE("xrank legacy NCCL 2.20 port dumps: sync matches a plain recount", "[real][xrank]") {
  const std::vector<std::pair<std::string, std::size_t>> sets = {
      {"B_nccl2.20port-ring_2rank_cpu18B", 2}, {"C_nccl2.20port-treesplit_4rank_cpu22B", 4}};
  for (const auto& [set, nranks] : sets) {
    const std::string dir = npkit::test::require_path(npkit::test::data_path("npkit-real/" + set));
    INFO(set);
    npkit::test::TempDir tmp;
    check_dump(npkit::test::rebuild_from_manifest(dir, tmp), nranks);
  }
}
