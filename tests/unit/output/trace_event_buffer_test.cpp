// TraceEventBuffer writes the document byte for byte as its contract says: header, separators,
// metadata names (escaped), spans relative to the origin with exact nanoseconds, dur 0 for a
// span ending before it starts, instants, args, and the event count.
#include "output/trace_event_buffer.hpp"

#include <catch2/catch.hpp>

#include <sstream>

TEST_CASE("trace event buffer: header, metadata, spans, instants and args") {
  std::ostringstream out;
  npkit::TraceEventBuffer trace(out, 1'000'000);
  trace.begin(R"({"source": "x"})");
  trace.name_threads(3, "rank \"0\"", {{7, "GPU block 1"}});
  {
    std::string& span = trace.open_event("AllReduce", "gpu", 3, 7, false, 1'001'234, 1'003'235);
    {
      npkit::TraceArgs args(span);
      args.num("size", 4096);
      args.inum("peer", -1);
      args.str("algo", "Ring");
    }
    span.push_back('}');
  }
  trace.open_event("late", "gpu", 3, 7, false, 1'000'500, 1'000'400).push_back('}');
  trace.open_event("mark", "host", 3, 8, true, 999'999, 0).push_back('}');
  REQUIRE(trace.finish("out.json").ok());
  CHECK(trace.events() == 7);
  const std::string expected =
      "{\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"source\": \"x\"},\n\"traceEvents\": [\n"
      R"({"name":"process_name","ph":"M","pid":3,"args":{"name":"rank \"0\""}})"
      ",\n"
      R"({"name":"process_sort_index","ph":"M","pid":3,"args":{"sort_index":3}})"
      ",\n"
      R"({"name":"thread_name","ph":"M","pid":3,"tid":7,"args":{"name":"GPU block 1"}})"
      ",\n"
      R"({"name":"thread_sort_index","ph":"M","pid":3,"tid":7,"args":{"sort_index":7}})"
      ",\n"
      R"({"name":"AllReduce","cat":"gpu","ph":"X","pid":3,"tid":7,"ts":1.234,"dur":2.001,)"
      R"("args":{"size":4096,"peer":-1,"algo":"Ring"}})"
      ",\n"
      R"({"name":"late","cat":"gpu","ph":"X","pid":3,"tid":7,"ts":0.500,"dur":0.000})"
      ",\n"
      R"({"name":"mark","cat":"host","ph":"i","s":"t","pid":3,"tid":8,"ts":-0.001})"
      "\n]}\n";
  CHECK(out.str() == expected);
}

TEST_CASE("trace event buffer: an empty trace is a valid document") {
  std::ostringstream out;
  npkit::TraceEventBuffer trace(out, 0);
  trace.begin("{}");
  REQUIRE(trace.finish("out.json").ok());
  CHECK(trace.events() == 0);
  CHECK(out.str() == "{\"displayTimeUnit\": \"ns\",\n\"otherData\": {},\n\"traceEvents\": [\n]}\n");
}
