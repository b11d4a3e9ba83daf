// fuzz_chrome_json.cpp — libFuzzer target: the input is a whole Chrome trace JSON file, read by the
// streaming reader (import/chrome_json/trace_event_reader.hpp) with a small buffer (so runs are
// cut, mis-cut and re-cut) and decoded by each producer's decoder: NPKit's generator and our own
// legacy traces into spans, NCCL's example plugin into collectives, joined across ranks.
// Contract: never crashes, hangs or trips a sanitizer on any input. A read that fails returns an
// Error naming the input ("input: ..."); one that succeeds hands out only events inside the
// input (offsets below its size) with fields no longer than the input, never more events than
// the input has '{' characters, and counts that agree with what was delivered. Spans name a base
// of the decoder's table and one of its phases; the generator decoder never makes more spans
// than B/E pairs. Seeds: corpus/chrome_json/seed_* (hand-written: generator, own
// legacy and .npkt traces, the example plugin with its `{}]` ending, and broken variants).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "import/chrome_json/generator_span_decoder.hpp"
#include "import/chrome_json/own_trace_span_decoder.hpp"
#include "import/chrome_json/plugin_trace_decoder.hpp"
#include "import/chrome_json/trace_event_reader.hpp"
#include "import/plugin_join/plugin_cross_rank.hpp"

namespace {

using namespace npkit;

volatile std::uint64_t observed = 0;  // keeps the reads below from being optimised away

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_chrome_json: contract violated: %s\n", what);
  std::abort();
}

class Checker : public TraceEventVisitor {
 public:
  explicit Checker(std::size_t size) : size_(size) {}
  Status on_event(const TraceEvent& e) override {
    check(e.offset < size_, "event offset past the input");
    check(e.ph.size() <= size_ && e.name.size() <= size_, "field longer than the input");
    check(e.args.size() <= TraceEvent::kMaxArgs, "more args than kept");
    std::uint64_t sum = e.ph.size() + e.name.size() + e.cat.size() + e.id.size();
    for (const auto& a : e.args) sum += a.key.size() + a.text.size();
    observed = observed + sum;
    ++events;
    return Ok{};
  }
  std::size_t size_;
  std::uint64_t events = 0;
};

class SpanChecker : public JsonSpanTarget {
 public:
  explicit SpanChecker(const EventNameBook& names) : names_(names) {}
  void on_span(const Span& s, TimeDomain) override {
    check(s.base < names_.table().base_names().size(), "span base outside the table");
    check(s.phase < names_.phases().phase_names.size(), "span phase outside the phases");
    observed = observed + static_cast<std::uint64_t>(s.duration_ns());
  }
  void on_unmatched(const UnmatchedEvent& e, TimeDomain) override {
    check(e.base < names_.table().base_names().size(), "unmatched base outside the table");
  }

 private:
  const EventNameBook& names_;
};

void check_error(const std::string& message) {
  check(message.rfind("input: ", 0) == 0, "error does not name the input");
}

template <typename Decoder>
void decode(std::string_view bytes, Decoder& decoder, std::size_t chunk) {
  Diagnostics diagnostics;
  TraceReadOptions options;
  options.chunk_bytes = chunk;
  auto read = read_trace_bytes("input", bytes, decoder, options, diagnostics);
  if (!read) check_error(read.error().message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t chunk = std::size_t{64} << (size % 5);
  {
    Checker checker(size);
    Diagnostics diagnostics;
    TraceReadOptions options;
    options.chunk_bytes = chunk;
    auto read = read_trace_bytes("input", bytes, checker, options, diagnostics);
    if (!read) {
      check_error(read.error().message);
    } else {
      check(read->events == checker.events, "summary counts other events than delivered");
      check(read->bytes <= size, "read more bytes than the input holds");
      check(
          checker.events <= static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), '{')),
          "more events than objects");
    }
  }
  const RankFilter all;
  for (int producer = 0; producer < 2; ++producer) {
    auto table = builtin_event_table("nccl");
    check(table.ok(), "no built-in nccl table");
    EventNameBook names(std::move(*table), PhaseMap::builtin());
    TrackBook tracks;
    SpanChecker spans(names);
    Diagnostics diagnostics;
    if (producer == 0) {
      GeneratorSpanDecoder decoder("input", names, tracks, all, spans, diagnostics);
      decode(bytes, decoder, chunk);
      decoder.finish();
    } else {
      OwnTraceSpanDecoder decoder("input", names, tracks, all, spans, diagnostics);
      decode(bytes, decoder, chunk);
      decoder.finish();
    }
    if (producer == 0) {
      for (const auto& t : tracks.tracks()) {
        check(2 * t.stats.spans <= t.stats.records, "more spans than B/E pairs on a track");
      }
    }
  }
  {
    Diagnostics diagnostics;
    ExamplePluginDecoder decoder("input_7_1.json", diagnostics);
    decode(bytes, decoder, chunk);
    std::vector<PluginRankTrace> traces;
    traces.push_back(decoder.finish());
    const auto comms = join_plugin_traces(traces, "fuzz", diagnostics);
    for (const auto& c : comms) {
      for (const auto& inst : c.run.instances) {
        check(!inst.members.empty(), "an instance without a member");
        observed = observed + inst.bytes;
      }
    }
  }
  return 0;
}
