// The traces NPKit's generator made from the real dumps of tests/data/npkit-real, read through
// the JSON ingest, give the per-rank phase totals the binary reader gives for the dumps next to
// them, within what the generator's conversion explains.
//
// The bound, from the clock files and the dump's raw timestamps: the generator converts both
// clocks with their nominal rates (cpu ticks/µs = den/num/1e6, GPU ticks/µs = kHz/1e3) exactly as
// the binary reader does, but in binary64: t = cpu_ts/cpu_scale + ts/gpu_scale − gpu_ts/gpu_scale,
// four roundings of at most half an ulp of the largest magnitude M (µs) involved, then printed
// exactly (Python's repr). The binary reader rounds each GPU delta to an integer ns, the JSON
// reader each printed µs value to an integer ns: half a ns each. Per timestamp
// e = 2·ulp(M) + 1 ns; a span's exclusive time involves its two timestamps and two of each
// direct child, and each span is at most one other span's child, so a rank's phase total (or its
// reference time) differs by at most 4·e per span of that rank and domain. M is the largest raw
// timestamp of the rank's files over the smaller of the two scales (ticks per µs).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "analysis/phases/phase_breakdown.hpp"
#include "import/chrome_json/json_span_source.hpp"
#include "import/legacy/clock_files.hpp"
#include "import/legacy/legacy_dump.hpp"
#include "import/legacy/span_reader.hpp"
#include "support/real_dump.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"
#include "util/file_io.hpp"

using namespace npkit;

namespace {

// Counts spans per (rank, gpu) besides the breakdown.
class BreakdownAndCount : public SpanSink, public JsonSpanTarget {
 public:
  explicit BreakdownAndCount(const PhaseAssignment& phases) : breakdown(phases) {}
  void on_span(const Span& s) override {
    breakdown.on_span(s);
    ++spans[{s.track.rank, s.track.kind == TrackKind::kGpu}];
  }
  void on_span(const Span& s, TimeDomain) override { on_span(s); }
  void on_unmatched(const UnmatchedEvent&, TimeDomain) override {}
  PhaseBreakdownSink breakdown;
  std::map<std::pair<std::uint32_t, bool>, std::uint64_t> spans;
};

// Per rank, domain and phase name: (ns, count); phase "(reference)" holds the reference time.
using Totals =
    std::map<std::tuple<std::uint32_t, bool, std::string>, std::pair<std::int64_t, std::uint64_t>>;

Totals totals_of(const PhaseBreakdownSink& sink, const PhaseAssignment& phases) {
  Totals t;
  for (const auto& r : sink.ranks()) {
    t[{r.rank, true, "(reference)"}] = {r.gpu_reference_ns, 0};
    t[{r.rank, false, "(reference)"}] = {r.cpu_reference_ns, 0};
    for (const bool gpu : {true, false}) {
      const auto& by_phase = gpu ? r.gpu : r.cpu;
      for (std::size_t p = 0; p < by_phase.size(); ++p) {
        if (by_phase[p].ns == 0 && by_phase[p].count == 0) continue;
        t[{r.rank, gpu, phases.phase_names[p]}] = {by_phase[p].ns, by_phase[p].count};
      }
    }
  }
  return t;
}

// ulp of the binary64 numbers near `magnitude`.
double ulp(double magnitude) {
  return std::nextafter(magnitude, INFINITY) - magnitude;
}

// Largest raw timestamp (bytes 8..15 of every record) in the rank's event files.
std::uint64_t max_raw_ts(const std::string& dump, std::uint32_t rank, unsigned cpu_record_size) {
  std::uint64_t most = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dump)) {
    const std::string name = entry.path().filename().string();
    const bool gpu = name.rfind("gpu_events_rank_" + std::to_string(rank) + "_", 0) == 0;
    const bool cpu = name.rfind("cpu_events_rank_" + std::to_string(rank) + "_", 0) == 0;
    if (!gpu && !cpu) continue;
    std::vector<std::uint8_t> bytes;
    REQUIRE(io::read_file_into(entry.path().string(), bytes, {std::uint64_t{1} << 30, "a trace"}));
    const unsigned size = gpu ? 16 : cpu_record_size;
    for (std::size_t off = 0; off + size <= bytes.size(); off += size) {
      std::uint64_t ts = 0;
      for (int b = 7; b >= 0; --b) ts = ts << 8 | bytes[off + 8 + static_cast<std::size_t>(b)];
      most = std::max(most, ts);
    }
  }
  return most;
}

double read_number(const std::string& path) {
  auto text = io::read_text_file(path);
  REQUIRE(text);
  return std::stod(*text);
}

void check_set(const std::string& set) {
  const std::string dir = test::require_path(test::data_path("npkit-real/" + set));
  test::TempDir tmp;
  const std::string dump = test::rebuild_from_manifest(dir, tmp);

  Diagnostics bin_warnings;
  auto opened = open_legacy_dump(dump, LegacyDumpOptions{}, bin_warnings);
  REQUIRE(opened);
  const PhaseAssignment bin_phases = assign_phases(PhaseMap::builtin(), opened->table);
  BreakdownAndCount binary(bin_phases);
  REQUIRE(read_legacy_spans(*opened, bin_phases, SpanReadOptions{}, binary, bin_warnings));

  Diagnostics json_warnings;
  auto input = open_json_span_input({dir + "/npkit_event_trace.json"}, "auto", PhaseMap::builtin(),
                                    json_warnings);
  REQUIRE(input);
  CHECK(input->files[0].identity.producer == TraceProducer::kNpkitGenerator);
  BreakdownAndCount json(input->names->phases());
  TrackBook tracks;
  REQUIRE(read_json_spans(*input, JsonSpanReadOptions{}, tracks, json, json_warnings));
  CHECK(json_warnings.warnings().empty());

  CHECK(json.spans == binary.spans);
  const Totals want = totals_of(binary.breakdown, bin_phases);
  const Totals got = totals_of(json.breakdown, input->names->phases());
  REQUIRE(got.size() == want.size());
  std::uint64_t compared = 0;
  for (const auto& [key, value] : want) {
    const auto& [rank, gpu, phase] = key;
    INFO(set << " rank " << rank << (gpu ? " gpu " : " cpu ") << phase);
    const auto it = got.find(key);
    REQUIRE(it != got.end());
    CHECK(it->second.second == value.second);
    // The bound for this rank and domain.
    const std::string r = std::to_string(rank);
    const double cpu_scale = read_number(dump + "/cpu_clock_period_den_rank_" + r) /
                             read_number(dump + "/cpu_clock_period_num_rank_" + r) / 1e6;
    const double gpu_scale = read_number(dump + "/gpu_clock_rate_rank_" + r) / 1e3;
    const double magnitude_us =
        static_cast<double>(max_raw_ts(dump, rank, opened->cpu_record_size)) /
        std::min(cpu_scale, gpu_scale);
    const double e_ns = 2 * ulp(magnitude_us) * 1e3 + 1;
    const double bound_ns = 4 * e_ns * static_cast<double>(binary.spans[{rank, gpu}]);
    INFO("ours " << it->second.first << " ns, binary " << value.first << " ns, bound " << bound_ns
                 << " ns (e = " << e_ns << " ns per timestamp)");
    CHECK(std::abs(static_cast<double>(it->second.first - value.first)) <= bound_ns);
    ++compared;
  }
  CHECK(compared > 4);
}

}  // namespace

TEST_CASE("generator trace = binary dump: 2-rank ring, nested primitives, 18-byte CPU records",
          "[real][chrome_json]") {
  check_set("B_nccl2.20port-ring_2rank_cpu18B");
}

TEST_CASE("generator trace = binary dump: 4-rank tree split, 22-byte CPU records",
          "[real][chrome_json]") {
  check_set("C_nccl2.20port-treesplit_4rank_cpu22B");
}
