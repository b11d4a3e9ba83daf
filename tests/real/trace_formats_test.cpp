// The Perfetto trace and the JSON trace of the same input hold the same slices: for each real
// input kind (a legacy NPKit dump, a plugin capture, device-recorder event records, events on
// their own time bases, a Chrome trace of spans), `trace --format perfetto` read back by the
// independent test-side reader (tests/support/perfetto_reader) and `trace --format json` read
// with simdjson give the same processes and threads (names), and the same multiset of slices:
// pid, tid, name, category, instant or not, start and end in exact nanoseconds after the trace
// origin, and every argument but those only kept for reading the JSON back (trace_encoder.hpp,
// TraceArgUse): a span's depth and record numbers, named per input kind below. The protobuf file
// is smaller than the JSON. Where a JSON span outlasts the span it starts in on the same thread
// (real NPKit dumps have such records), Perfetto's slices must nest: the protobuf trace cuts it
// at that span's end, as its encoder's contract says; the expected slices are cut the same way
// here. A legacy dump's trace, encoded a chunk of tracks at a time on several threads, is the
// same file byte for byte whatever the threads, in both formats: through the CLI, and with chunks
// of a few tracks each so that the real dumps make many of them. Both formats hold the same busbw
// counter samples (process, track, time, value), at least as many as named per input.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "import/run_input.hpp"
#include "output/trace/json_trace_encoder.hpp"
#include "output/trace/perfetto_trace_encoder.hpp"
#include "output/trace/span_trace_writer.hpp"
#include "support/cli_runner.hpp"
#include "support/json_trace_slices.hpp"
#include "support/perfetto_reader.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace {

using npkit::test::PerfettoSlice;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void sort_slices(std::vector<PerfettoSlice>& v) {
  std::sort(v.begin(), v.end(), [](const PerfettoSlice& a, const PerfettoSlice& b) {
    return std::tie(a.pid, a.tid, a.start_ns, a.end_ns, a.name, a.args) <
           std::tie(b.pid, b.tid, b.start_ns, b.end_ns, b.name, b.args);
  });
}

// Per thread, in start order (longer first): a span ending after the innermost span open at its
// start ends there instead. Returns how many were cut.
std::size_t cut_to_nest(std::vector<PerfettoSlice>& v) {
  std::sort(v.begin(), v.end(), [](const PerfettoSlice& a, const PerfettoSlice& b) {
    return std::tie(a.pid, a.tid, a.start_ns, b.end_ns) <
           std::tie(b.pid, b.tid, b.start_ns, a.end_ns);
  });
  std::size_t cut = 0;
  std::vector<std::uint64_t> open;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i == 0 || v[i].pid != v[i - 1].pid || v[i].tid != v[i - 1].tid) open.clear();
    if (v[i].instant) continue;
    while (!open.empty() && open.back() <= v[i].start_ns) open.pop_back();
    if (!open.empty() && v[i].end_ns > open.back()) {
      v[i].end_ns = open.back();
      ++cut;
    }
    open.push_back(v[i].end_ns);
  }
  return cut;
}

// The JSON-only arguments of spans (legacy dumps, Chrome traces of spans) and of event records.
const std::vector<std::string> kSpanRoundTrip = {"depth", "records"};
const std::vector<std::string> kEventRecordRoundTrip = {"depth", "entry_record", "exit_record"};

using CounterKey = std::tuple<std::int64_t, std::string, std::uint64_t, double>;

std::vector<CounterKey> counter_keys(const std::vector<npkit::test::PerfettoCounterSample>& v,
                                     std::uint64_t minus_ns) {
  std::vector<CounterKey> keys;
  for (const auto& c : v) keys.emplace_back(c.pid, c.track, c.ts - minus_ns, c.value);
  std::sort(keys.begin(), keys.end());
  return keys;
}

void check_same_slices(const std::string& input, std::size_t min_slices,
                       const std::vector<std::string>& json_only_args, std::size_t min_counters,
                       std::size_t expected_cuts = 0) {
  INFO(input);
  npkit::test::TempDir tmp;
  const std::string json = tmp.file("trace.json");
  const std::string proto = tmp.file("trace.pftrace");
  REQUIRE(npkit::test::run_cli({"trace", input, "-o", json, "--quiet"}).exit_code == 0);
  REQUIRE(npkit::test::run_cli({"trace", input, "-o", proto, "--quiet"}).exit_code == 0);

  npkit::test::JsonTrace want = npkit::test::read_json_trace(json);
  const std::string bytes = read_bytes(proto);
  auto got = npkit::test::read_perfetto_trace(bytes);
  REQUIRE(got.error.empty());
  CHECK(got.process_names == want.process_names);
  CHECK(got.thread_names == want.thread_names);
  for (auto& s : got.slices) {
    s.start_ns -= static_cast<std::uint64_t>(want.origin_ns);
    s.end_ns -= static_cast<std::uint64_t>(want.origin_ns);
  }
  REQUIRE(want.slices.size() >= min_slices);
  std::size_t json_only = 0;
  for (auto& s : want.slices) {
    for (const std::string& key : json_only_args) json_only += s.args.erase(key);
  }
  CHECK((json_only > 0) == !json_only_args.empty());
  CHECK(cut_to_nest(want.slices) == expected_cuts);
  REQUIRE(got.slices.size() == want.slices.size());
  sort_slices(want.slices);
  sort_slices(got.slices);
  for (std::size_t i = 0; i < want.slices.size(); ++i) {
    const auto& w = want.slices[i];
    const auto& g = got.slices[i];
    INFO("slice " << i << ": " << w.name << " pid " << w.pid << " tid " << w.tid << " at "
                  << w.start_ns);
    REQUIRE(g.pid == w.pid);
    REQUIRE(g.tid == w.tid);
    REQUIRE(g.name == w.name);
    REQUIRE(g.category == w.category);
    REQUIRE(g.instant == w.instant);
    REQUIRE(g.start_ns == w.start_ns);
    REQUIRE(g.end_ns == w.end_ns);
    REQUIRE(g.args == w.args);
  }
  CHECK(want.counters.size() >= min_counters);
  CHECK(counter_keys(got.counters, static_cast<std::uint64_t>(want.origin_ns)) ==
        counter_keys(want.counters, 0));
  CHECK(bytes.size() < std::filesystem::file_size(json));
}

}  // namespace

TEST_CASE("trace formats agree: legacy NPKit dumps (H200 ring, alltoall)", "[real]") {
  check_same_slices(npkit::test::source_path("samples/npkit-h200/ring_simple/dump"), 1000,
                    kSpanRoundTrip, 100);
  check_same_slices(npkit::test::source_path("samples/npkit-h200/alltoall/dump"), 1000,
                    kSpanRoundTrip, 0, 4);
}

TEST_CASE("trace formats agree: plugin captures (H200 agree, socket)", "[real]") {
  check_same_slices(npkit::test::source_path("samples/nccl-h200/agree/dump"), 1000, {}, 100);
  check_same_slices(npkit::test::source_path("samples/nccl-h200/socket/dump"), 1000, {}, 100);
}

TEST_CASE("trace formats agree: event records (H200 device recorder, own time bases)", "[real]") {
  check_same_slices(npkit::test::source_path("samples/device-h200/collectives/dump"), 1000,
                    kEventRecordRoundTrip, 0);
  check_same_slices(npkit::test::source_path("tests/golden/cases/npkt_events_mixed/dump"), 5,
                    kEventRecordRoundTrip, 0);
}

TEST_CASE("trace formats agree: a Chrome trace of spans", "[real]") {
  check_same_slices(npkit::test::source_path("tests/golden/cases/json_ring_report/trace.json"), 20,
                    kSpanRoundTrip, 4);
}

TEST_CASE("trace of a legacy dump: the same bytes for any --threads", "[real]") {
  npkit::test::TempDir tmp;
  for (const char* dump :
       {"samples/npkit-h200/alltoall/dump", "samples/npkit-h200/tree_simple/dump"}) {
    const std::string input = npkit::test::source_path(dump);
    INFO(input);
    for (const char* format : {"json", "perfetto"}) {
      std::string first;
      for (const char* threads : {"1", "2", "3", "8"}) {
        INFO(format << " --threads " << threads);
        const std::string out = tmp.file(std::string("trace-") + threads);
        REQUIRE(npkit::test::run_cli({"trace", input, "-o", out, "--format", format, "--threads",
                                      threads, "--quiet"})
                    .exit_code == 0);
        const std::string bytes = read_bytes(out);
        REQUIRE(bytes.size() > 10'000);
        if (first.empty()) first = bytes;
        CHECK(bytes == first);
      }
    }
  }
}

TEST_CASE("trace of a legacy dump: small chunks on many threads, the same bytes", "[real]") {
  npkit::ImportOptions options;
  options.path = npkit::test::source_path("samples/npkit-h200/alltoall/dump");
  auto opened = npkit::open_run_input(options);
  REQUIRE(opened.ok());
  npkit::RunInput* input = opened->get();
  REQUIRE(input->reads_span_chunks());
  npkit::Run run;
  auto origins =
      npkit::read_run<npkit::TraceOriginSink>(*input, run, [] { return npkit::TraceOriginSink(); });
  REQUIRE(origins.ok());
  const npkit::TraceMetadata meta{options.path, input->event_table(), input->span_clock(),
                                  input->cpu_record_size()};
  for (const bool perfetto : {false, true}) {
    std::string first;
    for (const unsigned threads : {1u, 2u, 3u, 8u}) {
      INFO((perfetto ? "perfetto" : "json") << ", " << threads << " thread(s)");
      std::ostringstream out;
      std::unique_ptr<npkit::TraceEncoder> encoder;
      if (perfetto) {
        encoder = std::make_unique<npkit::PerfettoTraceEncoder>(out);
      } else {
        encoder = std::make_unique<npkit::JsonTraceEncoder>(out);
      }
      npkit::begin_span_trace(*encoder, origins->origins(), meta);
      npkit::SpanChunks chunks;
      chunks.threads = threads;
      chunks.window = 2 * threads;
      chunks.chunk_bytes = 4096;  // 2 or 3 tracks each: 50 chunks
      npkit::Diagnostics diagnostics;
      REQUIRE(
          npkit::write_span_trace_in_chunks(
              *input, chunks, origins->origins(), meta, *encoder, [] { return false; }, diagnostics)
              .ok());
      npkit::write_span_busbw_counters(run, origins->origins(), *encoder);
      REQUIRE(encoder->finish("trace").ok());
      if (first.empty()) {
        first = out.str();
        // The same slices as the CLI's trace, which reads chunks of 256 KiB.
        npkit::test::TempDir tmp;
        const std::string cli = tmp.file("cli");
        REQUIRE(npkit::test::run_cli({"trace", options.path, "-o", cli, "--format",
                                      perfetto ? "perfetto" : "json", "--quiet"})
                    .exit_code == 0);
        if (perfetto) {
          const auto a = npkit::test::read_perfetto_trace(first);
          const auto b = npkit::test::read_perfetto_trace(read_bytes(cli));
          REQUIRE(a.error.empty());
          REQUIRE(b.error.empty());
          CHECK(a.slices.size() == b.slices.size());
          CHECK(a.thread_names == b.thread_names);
          CHECK(a.counters.size() == b.counters.size());
        } else {
          // The same events, one a line; a chunk's thread names come before its spans, so
          // chunks of other sizes place them elsewhere.
          const auto sorted_lines = [](const std::string& text) {
            std::vector<std::string> lines;
            std::istringstream in(text);
            for (std::string line; std::getline(in, line);) {
              if (!line.empty() && line.back() == ',') line.pop_back();
              lines.push_back(line);
            }
            std::sort(lines.begin(), lines.end());
            return lines;
          };
          CHECK(sorted_lines(first) == sorted_lines(read_bytes(cli)));
        }
      }
      CHECK(out.str() == first);
    }
  }
}
