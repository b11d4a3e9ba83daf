// Our own trace of a legacy dump, read back through the JSON ingest, gives the spans the binary
// reader gives — every field, nanosecond for nanosecond (the trace writes exact ns): the binary
// reader is the independent answer. Covers nesting with inherited phases, interleaved CPU
// requests on lanes, 22-byte CPU records, unmatched events, a GPU buffer without TIME_SYNC (its
// own clock domain and origin) and a rank selection.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>

#include "import/chrome_json/json_span_source.hpp"
#include "import/legacy/legacy_dump.hpp"
#include "import/legacy/span_reader.hpp"
#include "support/cli_runner.hpp"
#include "support/legacy_dump_writer.hpp"
#include "support/span_collector.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

using namespace npkit;

namespace {

struct Collected {
  std::vector<Span> spans;
  std::vector<TimeDomain> domains;
  std::vector<UnmatchedEvent> unmatched;
};

class JsonCollector : public JsonSpanTarget {
 public:
  void on_span(const Span& s, TimeDomain d) override {
    out.spans.push_back(s);
    out.domains.push_back(d);
  }
  void on_unmatched(const UnmatchedEvent& e, TimeDomain) override { out.unmatched.push_back(e); }
  Collected out;
};

// A span as names and numbers, comparable across two event tables.
using Key = std::tuple<std::uint32_t, int, std::uint32_t, std::uint64_t, std::uint64_t>;
Key key_of(const Span& s) {
  return {s.track.rank, s.track.kind == TrackKind::kGpu ? 0 : 1, s.track.index, s.entry_record,
          s.exit_record};
}

std::string describe(const Span& s, const EventTable& table, const PhaseAssignment& phases,
                     TimeDomain domain) {
  std::ostringstream o;
  o << describe_track(s.track) << " " << table.base_names()[s.base] << " phase "
    << phases.phase_names[s.phase] << " root " << table.base_names()[s.root_base] << " depth "
    << s.depth << " lane " << s.lane << " " << s.start_ns << ".." << s.end_ns << " child "
    << s.child_ns << " size " << s.entry_size << "/" << s.exit_size << " rsvd " << s.entry_rsvd
    << "/" << s.exit_rsvd << " seq " << s.seq << " records " << s.entry_record << "/"
    << s.exit_record << " from " << int{s.sender_rank} << " to " << int{s.receiver_rank} << " step "
    << s.step << (domain == TimeDomain::kHost ? " host" : " gpu-counter");
  return o.str();
}

void check_dump(const std::string& dump, const std::string& ranks = "all") {
  test::TempDir tmp;
  const std::string trace = tmp.file("trace.json");
  const auto run = test::run_cli({"trace", dump, "-o", trace, "--quiet", "--ranks", ranks});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);

  Diagnostics binary_warnings;
  auto opened = open_legacy_dump(dump, LegacyDumpOptions{}, binary_warnings);
  REQUIRE(opened);
  const PhaseAssignment phases = assign_phases(PhaseMap::builtin(), opened->table);
  test::SpanCollector binary;
  SpanReadOptions read;
  read.ranks = *RankFilter::parse(ranks);
  REQUIRE(read_legacy_spans(*opened, phases, read, binary, binary_warnings));

  Diagnostics json_warnings;
  auto input = open_json_span_input({trace}, "auto", PhaseMap::builtin(), json_warnings);
  REQUIRE(input);
  TrackBook tracks;
  JsonCollector json;
  REQUIRE(read_json_spans(*input, JsonSpanReadOptions{}, tracks, json, json_warnings));

  std::vector<std::string> expected;
  std::vector<Key> order;
  std::size_t track = 0;
  for (const auto& s : binary.spans) {
    while (track + 1 < binary.tracks.size() && !(binary.tracks[track].file.track == s.track)) {
      ++track;
    }
    expected.push_back(describe(s, opened->table, phases, binary.tracks[track].domain));
    order.push_back(key_of(s));
  }
  std::vector<std::pair<Key, std::string>> got;
  for (std::size_t i = 0; i < json.out.spans.size(); ++i) {
    const Span& s = json.out.spans[i];
    got.emplace_back(
        key_of(s), describe(s, input->names->table(), input->names->phases(), json.out.domains[i]));
  }
  // Same spans; the binary reader's order is the trace's order within a track.
  std::vector<std::pair<Key, std::string>> want;
  for (std::size_t i = 0; i < expected.size(); ++i) want.emplace_back(order[i], expected[i]);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i].second == want[i].second);

  REQUIRE(json.out.unmatched.size() == binary.unmatched.size());
  for (std::size_t i = 0; i < binary.unmatched.size(); ++i) {
    const UnmatchedEvent& a = binary.unmatched[i];
    const UnmatchedEvent& b = json.out.unmatched[i];
    CHECK(a.track == b.track);
    CHECK(opened->table.base_names()[a.base] == input->names->table().base_names()[b.base]);
    CHECK(a.kind == b.kind);
    CHECK(a.record == b.record);
    CHECK(a.ns == b.ns);
    CHECK(a.size == b.size);
  }
  // Tracks and their counts (records: the highest record index the trace mentions + 1).
  std::size_t with_events = 0;
  for (const auto& t : binary.tracks)
    with_events += t.stats.spans + t.stats.unmatched_entries + t.stats.unmatched_exits > 0 ? 1 : 0;
  CHECK(tracks.tracks().size() == with_events);
  for (const auto& jt : tracks.tracks()) {
    const auto it = std::find_if(binary.tracks.begin(), binary.tracks.end(),
                                 [&](const auto& t) { return t.file.track == jt.track; });
    REQUIRE(it != binary.tracks.end());
    CHECK(jt.stats.spans == it->stats.spans);
    CHECK(jt.stats.unmatched_entries == it->stats.unmatched_entries);
    CHECK(jt.stats.unmatched_exits == it->stats.unmatched_exits);
    CHECK(jt.stats.domain == it->stats.domain);
    CHECK(jt.stats.first_ns == it->stats.first_ns);
  }
}

void check_round_trip(const std::string& spec, const std::string& ranks = "all") {
  test::TempDir tmp;
  check_dump(test::write_legacy_dump(tmp, spec), ranks);
}

std::string read_spec(const std::string& name) {
  std::ifstream in(test::source_path("tests/golden/specs/" + name));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("JSON round trip: the golden ring spec (nesting, inherited phases, CPU lanes)",
          "[chrome_json]") {
  check_round_trip(read_spec("ring_2rank.spec"));
}

TEST_CASE("JSON round trip: hostile records (unmatched, no TIME_SYNC, missing rank)",
          "[chrome_json]") {
  check_round_trip(read_spec("bad_records.spec"));
}

TEST_CASE("JSON round trip: 22-byte CPU records, interleaved requests, a rank selection",
          "[chrome_json]") {
  const std::string spec = R"(cpu_record_size 22
rank 0 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1755000
rank 1 clock cpu_num=1 cpu_den=1000000000 gpu_khz=1755000
rank 0 gpu 3: 0x34 ts=1000000 | 0x33 ts=7 | 0x05 size=4096 ts=10 | 0x45 size=4096 ts=11 | 0x25 size=512 ts=13 | 0x26 size=512 ts=1768 | 0x46 size=4096 ts=3520 | 0x06 size=4096 ts=3600
rank 0 cpu 1: 0x2F size=100 rsvd=5 ts=2000 from=0 to=1 step=3 | 0x31 size=200 rsvd=6 ts=2100 from=1 to=0 step=4 | 0x30 size=100 rsvd=5 ts=2500 from=0 to=1 step=3 | 0x32 size=200 rsvd=6 ts=2600 from=1 to=0 step=4
rank 1 gpu 0: 0x34 ts=900000 | 0x33 ts=100 | 0x05 size=4096 ts=100 | 0x06 size=4096 ts=900
)";
  check_round_trip(spec);
  check_round_trip(spec, "1");
}

TEST_CASE("JSON round trip: the real H200 NPKit dumps", "[chrome_json][real]") {
  for (const char* set : {"ring_simple", "tree_simple", "alltoall"}) {
    INFO(set);
    const std::string dump = test::source_path(std::string("samples/npkit-h200/") + set + "/dump");
    npkit::test::require_path(dump);
    check_dump(dump);
  }
}
