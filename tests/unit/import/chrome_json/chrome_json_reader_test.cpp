// The streaming Chrome-trace reader: array and object forms, the members around the event array,
// runs cut in the wrong place (a `}, {` inside a string) and re-cut exactly, tolerated endings
// and exact errors. Offsets in the expected messages are counted by hand in the literals.
#include "import/chrome_json/trace_event_reader.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace npkit;

namespace {

struct Seen {
  std::string ph, name, cat, id;
  std::int64_t pid = -1, tid = -1, ts = -1, dur = -1;
  std::uint64_t offset = 0;
  std::uint32_t fields = 0;
  std::string bad;
  std::vector<EventArg> args;
  std::vector<std::string> arg_text;
};

class Collect : public TraceEventVisitor {
 public:
  Status on_header(const TraceHeader& h) override {
    header_calls++;
    header = h;
    return npkit::Ok{};
  }
  Status on_event(const TraceEvent& e) override {
    Seen s{std::string(e.ph),
           std::string(e.name),
           std::string(e.cat),
           std::string(e.id),
           e.pid.value_or(-1),
           e.tid.value_or(-1),
           e.ts_ns.value_or(-1),
           e.dur_ns.value_or(-1),
           e.offset,
           e.fields,
           std::string(e.bad_fields),
           e.args,
           {}};
    for (const auto& a : e.args) s.arg_text.emplace_back(a.text);
    events.push_back(std::move(s));
    return npkit::Ok{};
  }
  std::vector<Seen> events;
  TraceHeader header;
  int header_calls = 0;
};

struct Read {
  npkit::Result<TraceReadSummary> summary = npkit::Error{"not run"};
  Collect seen;
  Diagnostics diagnostics;
};

std::unique_ptr<Read> read(const std::string& json, std::size_t chunk = 1 << 20) {
  auto r = std::make_unique<Read>();
  TraceReadOptions options;
  options.chunk_bytes = chunk;
  r->summary = read_trace_bytes("t.json", json, r->seen, options, r->diagnostics);
  return r;
}

std::string error_of(const std::string& json, std::size_t chunk = 1 << 20) {
  auto r = read(json, chunk);
  return r->summary ? "(no error)" : r->summary.error().message;
}

std::string warnings(const Diagnostics& d) {
  std::string s;
  for (const auto& g : d.warnings()) {
    for (const auto& e : g.examples) s += g.category + ": " + e + "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("a bare array of events, fields read exactly", "[chrome_json]") {
  const std::string json =
      R"([{"name":"A","ph":"B","pid":3,"tid":"7","ts":1.5,"cat":"GPU","args":{"size_0":64}},)"
      "\n"
      R"( {"ph":"E","pid":3,"tid":7,"ts":2.25,"id":"0x1f","args":{"s":"x\"y","b":true,)"
      R"("n":null,"r":[4,5],"o":{"k":1},"p":0x262ca50}}])";
  auto r = read(json);
  REQUIRE(r->summary);
  CHECK(r->seen.header_calls == 1);
  CHECK_FALSE(r->seen.header.object_form);
  REQUIRE(r->seen.events.size() == 2);
  const Seen& b = r->seen.events[0];
  CHECK(b.offset == 1);
  CHECK(b.ph == "B");
  CHECK(b.name == "A");
  CHECK(b.cat == "GPU");
  CHECK(b.pid == 3);
  CHECK(b.tid == 7);  // a string holding an integer
  CHECK(b.ts == 1500);
  CHECK(b.fields == 7);
  REQUIRE(b.args.size() == 1);
  CHECK(b.args[0].kind == EventArgKind::kNumber);
  CHECK(b.arg_text[0] == "64");
  const Seen& e = r->seen.events[1];
  CHECK(e.offset == 85);
  CHECK(e.ts == 2250);
  CHECK(e.id == "0x1f");
  REQUIRE(e.args.size() == 6);
  CHECK(e.args[0].kind == EventArgKind::kString);
  CHECK(e.arg_text[0] == "x\"y");
  CHECK(e.args[1].kind == EventArgKind::kLiteral);
  CHECK(e.arg_text[1] == "true");
  CHECK(e.args[2].kind == EventArgKind::kLiteral);
  CHECK(e.args[3].kind == EventArgKind::kPair);
  CHECK(e.args[3].pair[0] == 4);
  CHECK(e.args[3].pair[1] == 5);
  CHECK(e.args[4].kind == EventArgKind::kOther);
  // NCCL's older example plugin prints pointers unquoted: kept as text, not a number.
  CHECK(e.arg_text[5] == "0x262ca50");
  CHECK(r->summary->events == 2);
  CHECK(r->summary->bytes == json.size());
  CHECK(r->diagnostics.warnings().empty());
}

TEST_CASE("the object form: members before and after traceEvents", "[chrome_json]") {
  const std::string json =
      R"({"displayTimeUnit": "ns", "otherData": {"generator": "npkit-analyze 0.1.0", )"
      R"("time_origin_ns": 1000000, "gpu_counter_origin_ns": {"2": 5}},)"
      "\n"
      R"("traceEvents": [{"ph":"X","name":"S","ts":0.150,"dur":0.200}], "meta": [1, {"a": "]"}]})";
  auto r = read(json);
  REQUIRE(r->summary);
  const TraceHeader& before = r->seen.header;
  CHECK(before.object_form);
  REQUIRE(before.top_level.size() == 1);
  CHECK(before.top_level[0].first == "displayTimeUnit");
  CHECK(before.top_level[0].second == "ns");
  REQUIRE(before.other("generator"));
  CHECK(*before.other("generator") == "npkit-analyze 0.1.0");
  CHECK(*before.other("time_origin_ns") == "1000000");
  CHECK(*before.other("gpu_counter_origin_ns") == R"({"2":5})");
  REQUIRE(r->seen.events.size() == 1);
  CHECK(r->seen.events[0].ts == 150);
  CHECK(r->seen.events[0].dur == 200);
  // Members after the array (as NPKit's generator writes displayTimeUnit) are in the summary.
  const TraceHeader& all = r->summary->header;
  REQUIRE(all.top_level.size() == 2);
  CHECK(all.top_level[1].first == "meta");
  CHECK(all.top_level[1].second == R"([1,{"a":"]"}])");
}

TEST_CASE("a traceEvents text inside otherData is not the member", "[chrome_json]") {
  const std::string json = R"({"otherData": {"note": "\"traceEvents\": [1]"}, "traceEvents": [)"
                           R"({"ph":"i","name":"x"}]})";
  auto r = read(json);
  REQUIRE(r->summary);
  REQUIRE(r->seen.events.size() == 1);
  CHECK(r->seen.events[0].name == "x");
  CHECK(*r->seen.header.other("note") == "\"traceEvents\": [1]");
}

TEST_CASE("runs cut inside a string are cut again and no event is delivered twice",
          "[chrome_json]") {
  // Every name holds the text a cut looks for; with 64-byte chunks nearly every run is first
  // cut inside a string, fails to parse, and is re-cut by the exact scan.
  std::string json = "[";
  for (int i = 0; i < 200; ++i) {
    if (i > 0) json += ",\n";
    json += R"({"ph":"B","name":"n)" + std::to_string(i) + R"( }, {x\"}, {","ts":)" +
            std::to_string(i) + "}";
  }
  json += "]";
  for (std::size_t chunk : {std::size_t{64}, std::size_t{100}, std::size_t{4096}}) {
    INFO("chunk " << chunk);
    auto r = read(json, chunk);
    REQUIRE(r->summary);
    REQUIRE(r->seen.events.size() == 200);
    for (int i = 0; i < 200; ++i) {
      CHECK(r->seen.events[static_cast<std::size_t>(i)].name ==
            "n" + std::to_string(i) + R"( }, {x"}, {)");
      CHECK(r->seen.events[static_cast<std::size_t>(i)].ts == i * 1000);
    }
  }
}

TEST_CASE("an event larger than the buffer grows it", "[chrome_json]") {
  const std::string big(100000, 'a');
  const std::string json = R"([{"ph":"i","name":")" + big + R"("}, {"ph":"i","name":"b"}])";
  auto r = read(json, 4096);
  REQUIRE(r->summary);
  REQUIRE(r->seen.events.size() == 2);
  CHECK(r->seen.events[0].name.size() == big.size());
  CHECK(r->seen.events[1].offset == 100023);
}

TEST_CASE("tolerated endings are warnings", "[chrome_json]") {
  SECTION("NCCL's example plugin closes with {}]") {
    auto r = read("[\n{\"ph\":\"b\",\"ts\":1.000000},\n{}]\n");
    REQUIRE(r->summary);
    REQUIRE(r->seen.events.size() == 2);
    CHECK(r->seen.events[1].fields == 0);
    CHECK(r->diagnostics.warnings().empty());
  }
  SECTION("no closing bracket (a process that never finished the file)") {
    auto r = read("[{\"ph\":\"b\",\"ts\":1},\n{\"ph\":\"e\",\"ts\":2},\n");
    REQUIRE(r->summary);
    CHECK(r->seen.events.size() == 2);
    CHECK(warnings(r->diagnostics) ==
          "unterminated trace: t.json: offset 39: the file ends before the event array's closing "
          "']'; its whole events were read\n");
  }
  SECTION("the last event cut short") {
    auto r = read("[{\"ph\":\"b\",\"ts\":1},\n{\"ph\":\"e\",\"na");
    REQUIRE(r->summary);
    CHECK(r->seen.events.size() == 1);
    CHECK(warnings(r->diagnostics) ==
          "unterminated trace: t.json: offset 20: the file ends inside this event; it was "
          "dropped (the events before it were read)\n");
  }
  SECTION("a trailing comma and an element that is not an object") {
    auto r = read("[{\"ph\":\"b\"}, 7, {\"ph\":\"e\"},]");
    REQUIRE(r->summary);
    CHECK(r->seen.events.size() == 2);
    CHECK(warnings(r->diagnostics) ==
          "trailing comma: t.json: offset 26: a comma before the closing ']' was ignored\n"
          "trace element not an object: t.json: offset 13: an element of the event array that "
          "is not an object was skipped\n");
  }
  SECTION("an object whose closing brace is missing") {
    auto r = read("{\"traceEvents\": [{\"ph\":\"b\"}]");
    REQUIRE(r->summary);
    CHECK(r->seen.events.size() == 1);
    CHECK(warnings(r->diagnostics) ==
          "unterminated trace: t.json: offset 28: the trace object is not closed ('}' missing)\n");
  }
}

TEST_CASE("fields of the wrong type are named, not guessed", "[chrome_json]") {
  auto r = read(R"([{"ph":1,"pid":-1.5,"tid":"x","ts":"12","name":"n","args":3}])");
  REQUIRE(r->summary);
  REQUIRE(r->seen.events.size() == 1);
  const Seen& e = r->seen.events[0];
  CHECK(e.bad == "ph,pid,tid,ts,args");
  CHECK(e.ph.empty());
  CHECK(e.pid == -1);
  CHECK(e.ts == -1);
  CHECK(e.name == "n");
}

TEST_CASE("malformed input: exact errors with the byte offset", "[chrome_json]") {
  CHECK(error_of("") == "t.json: empty file (a Chrome trace is a JSON array or object)");
  CHECK(error_of("  \n") == "t.json: empty file (a Chrome trace is a JSON array or object)");
  CHECK(error_of("  x") ==
        "t.json: offset 2: expected '[' or '{' (a Chrome trace is a JSON array of events or an "
        "object with a \"traceEvents\" array)");
  CHECK(error_of(R"({"events": []})") ==
        "t.json: offset 0: the object has no top-level \"traceEvents\" array");
  CHECK(error_of(R"({"traceEvents": {}})") == "t.json: offset 16: \"traceEvents\" is not an array");
  CHECK(error_of(R"({"traceEvents" 1})") ==
        "t.json: offset 15: expected ':' after \"traceEvents\"");
  CHECK(error_of(R"([{"ph":"B"}] x)") == "t.json: offset 13: content after the event array");
  CHECK(error_of(R"({"traceEvents": []} x)") ==
        "t.json: offset 20: content after the trace object");
  CHECK(error_of(R"({"traceEvents": [] x})") ==
        "t.json: offset 19: expected ',' or '}' after the event array");
  CHECK(error_of(R"([{"ph":"B"}}])") ==
        "t.json: offset 11: '}' where the event array goes on or ends");
  // Within a run, simdjson's error at its location: offset 18 is the "E" where ':' belongs.
  CHECK(error_of(R"([{"ph":"B"},{"ph" "E"}])") ==
        "t.json: offset 18: malformed JSON in the event array (The JSON document has "
        "an improper structure: missing or superfluous commas, braces, missing keys, etc.)");
  CHECK(error_of("[{\"ph\":\"B\",\"name\":\"\x01\"}]").find("t.json: offset 1: malformed JSON") ==
        0);
}
