// Our trace of a capture with event records, read back through the JSON ingest, gives the spans
// the .npkt reader gives — every field, nanosecond for nanosecond (the trace writes exact ns):
// the .npkt reader is the independent answer. The real device-recorder capture (2 × H200, 32
// blocks per rank, kernel-wide spans with nested steps) with the built-in rules and with the
// samples' --phase-map; then report and bandwidth of both agree on every number, and a rank
// selection reads one rank.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "import/run_input.hpp"
#include "support/cli_runner.hpp"
#include "support/span_collector.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

using namespace npkit;

namespace {

const char* const kCapture = "samples/device-h200/collectives/dump";
const char* const kPhaseMap = "samples/device-collectives/phase-map.txt";

struct Read {
  test::SpanCollector spans;
  std::vector<std::string> names;
  std::vector<std::string> phase_names;
  std::size_t instances = 0;
};

Read read_input(const std::string& path, const std::string& phase_map, const std::string& ranks) {
  ImportOptions o;
  o.path = path;
  o.phase_map = phase_map;
  o.ranks = ranks;
  auto input = open_run_input(o);
  REQUIRE(input.ok());
  REQUIRE((*input)->has_spans());
  REQUIRE((*input)->threads() == 1);
  Read r;
  auto run = (*input)->read({&r.spans});
  REQUIRE(run.ok());
  r.names = (*input)->span_names();
  r.phase_names = (*input)->phases().phase_names;
  for (const auto& c : run->comms) r.instances += c.instances.size();
  return r;
}

std::string describe(const Span& s, const Read& r) {
  std::ostringstream o;
  o << describe_track(s.track) << " " << r.names[s.base] << " phase " << r.phase_names[s.phase]
    << " root " << r.names[s.root_base] << " depth " << s.depth << " " << s.start_ns << ".."
    << s.end_ns << " child " << s.child_ns << " size " << s.entry_size << "/" << s.exit_size
    << " user " << s.entry_rsvd << "/" << s.exit_rsvd << " seq " << s.seq << " records "
    << s.entry_record << "/" << s.exit_record;
  return o.str();
}

using Key = std::tuple<std::uint32_t, int, std::uint32_t, std::uint64_t>;
std::map<Key, std::string> by_record(const Read& r) {
  std::map<Key, std::string> out;
  for (const auto& s : r.spans.spans) {
    const Key k{s.track.rank, static_cast<int>(s.track.kind), s.track.index, s.entry_record};
    CHECK(out.emplace(k, describe(s, r)).second);
  }
  return out;
}

std::string track_counts(const test::SpanCollector::TrackResult& t) {
  std::ostringstream o;
  o << describe_track(t.file.track) << " records " << t.stats.records << " spans " << t.stats.spans
    << " unmatched " << t.stats.unmatched_entries << "/" << t.stats.unmatched_exits << " "
    << t.stats.first_ns << ".." << t.stats.last_ns
    << (t.domain == TimeDomain::kHost ? " host" : " own");
  return o.str();
}

void check_same(const Read& capture, const Read& trace) {
  REQUIRE(capture.spans.spans.size() > 1000);
  CHECK(trace.spans.spans.size() == capture.spans.spans.size());
  const auto want = by_record(capture);
  const auto got = by_record(trace);
  std::size_t depth_above_zero = 0;
  for (const auto& s : capture.spans.spans) depth_above_zero += s.depth > 0 ? 1 : 0;
  CHECK(depth_above_zero > 0);  // the sample nests steps inside kernel-wide spans
  for (const auto& [key, text] : want) {
    const auto it = got.find(key);
    REQUIRE(it != got.end());
    REQUIRE(it->second == text);
  }
  REQUIRE(trace.spans.tracks.size() == capture.spans.tracks.size());
  std::vector<std::string> a;
  std::vector<std::string> b;
  for (const auto& t : capture.spans.tracks) a.push_back(track_counts(t));
  for (const auto& t : trace.spans.tracks) b.push_back(track_counts(t));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  CHECK(a == b);
  CHECK(trace.instances == capture.instances);
}

// `text` with every `path` replaced by INPUT.
std::string replaced(std::string text, const std::string& path) {
  for (auto at = text.find(path); at != std::string::npos; at = text.find(path, at)) {
    text.replace(at, path.size(), "INPUT");
  }
  return text;
}

// A section as text, for comparing the capture's output with its trace's: the input's path (a
// span communicator's name) as INPUT, and without the members that describe the input rather
// than the run — communicators without instances (the capture's profiler-event communicator:
// the device recorder gives none; its clock samples are not in a trace), a communicator's name (the
// .npkt files' own; a trace does not carry it) and what its times are (time_source).
std::string comparable(simdjson::dom::element e, const std::string& path) {
  simdjson::dom::array list;
  if (e.get_array().get(list) != simdjson::SUCCESS) return replaced(simdjson::to_string(e), path);
  std::string text;
  for (simdjson::dom::element item : list) {
    simdjson::dom::object o;
    if (item.get_object().get(o) != simdjson::SUCCESS) {
      text += simdjson::to_string(item) + "\n";
      continue;
    }
    std::uint64_t instances = 1;
    if (o["instances"].get(instances) == simdjson::SUCCESS && instances == 0) continue;
    for (auto field : o) {
      if (field.key == "name" || field.key == "time_source") continue;
      text += std::string(field.key) + "=" + simdjson::to_string(field.value) + " ";
    }
    text += "\n";
  }
  return replaced(text, path);
}

// The capture, the samples' phase map and our trace of the capture (in a temporary folder).
struct Inputs {
  Inputs() { REQUIRE(test::run_cli({"trace", capture, "-o", trace, "-q"}).exit_code == 0); }
  std::string capture = test::require_path(test::source_path(kCapture));
  std::string phase_map = test::require_path(test::source_path(kPhaseMap));
  test::TempDir dir;
  std::string trace = dir.file("device.json");
};

}  // namespace

TEST_CASE("event trace round trip: the device capture's spans come back field by field",
          "[real][trace]") {
  const Inputs in;
  const std::string& capture = in.capture;
  const std::string& phase_map = in.phase_map;
  const std::string& trace = in.trace;

  SECTION("built-in rules and the capture's phase hints") {
    check_same(read_input(capture, "", "all"), read_input(trace, "", "all"));
  }
  SECTION("the samples' --phase-map") {
    check_same(read_input(capture, phase_map, "all"), read_input(trace, phase_map, "all"));
  }
  SECTION("one rank") {
    const Read one = read_input(trace, "", "1");
    check_same(read_input(capture, "", "1"), one);
    for (const auto& s : one.spans.spans) CHECK(s.track.rank == 1);
  }
}

TEST_CASE("event trace round trip: report and bandwidth agree on the capture and its trace",
          "[real][trace]") {
  const Inputs in;
  const std::string& capture = in.capture;
  const std::string& phase_map = in.phase_map;
  const std::string& trace = in.trace;
  for (const std::string command : {"report", "bandwidth"}) {
    INFO(command);
    const auto a =
        test::run_cli({command, capture, "--phase-map", phase_map, "--format", "json", "-q"});
    const auto b =
        test::run_cli({command, trace, "--phase-map", phase_map, "--format", "json", "-q"});
    REQUIRE(a.exit_code == 0);
    REQUIRE(b.exit_code == 0);
    simdjson::dom::parser pa;
    simdjson::dom::parser pb;
    simdjson::dom::element ja = pa.parse(a.out);
    simdjson::dom::element jb = pb.parse(b.out);
    // Everything but the input's own description (path, format, facts) is the same.
    std::size_t compared = 0;
    for (const char* section :
         {"has_spans", "gpu_collective_ns", "cpu_span_ns", "gpu_explained_share", "phases", "ranks",
          "phase_waits", "unassigned", "communicators", "findings", "collectives", "switch_points",
          "events"}) {
      simdjson::dom::element ea;
      simdjson::dom::element eb;
      const bool in_a = ja[section].get(ea) == simdjson::SUCCESS;
      const bool in_b = jb[section].get(eb) == simdjson::SUCCESS;
      INFO(section);
      CHECK(in_a == in_b);
      compared += in_a && in_b ? 1 : 0;
      if (in_a && in_b) CHECK(comparable(ea, capture) == comparable(eb, trace));
    }
    CHECK(compared >= (command == "report" ? 10u : 5u));
  }
}
