// JsonTraceEncoder writes the document byte for byte as its contract says: header, separators,
// metadata names (escaped), spans with exact nanoseconds, dur 0 for a span ending before it
// starts, instants, every kind of argument, and the event count.
#include "output/trace/json_trace_encoder.hpp"

#include <catch2/catch.hpp>

#include <sstream>

TEST_CASE("json trace encoder: header, metadata, spans, instants and args", "[render]") {
  std::ostringstream out;
  npkit::JsonTraceEncoder trace(out);
  trace.begin(R"({"source": "x"})", 0);
  trace.name_process(3, "rank \"0\"");
  trace.name_thread(3, 7, "GPU block 1");
  npkit::TraceArgList args;
  args.add_uint("size", 4096);
  args.add_int("peer", -1);
  args.add_string("algo", "Ring\n");
  args.add_thousandths("bw_gbps", -1500);
  args.add_pair("records", 4, 5, npkit::TraceArgUse::kRoundTrip);
  args.add_uint("depth", 2, npkit::TraceArgUse::kRoundTrip);
  npkit::TraceSlice span{"AllReduce", "gpu,reduce \"x\"", 3, 7, false, 1'234, 3'235, &args};
  trace.write(span);
  trace.write(npkit::TraceSlice{"late", "gpu", 3, 7, false, 500, 400, nullptr});
  trace.write(npkit::TraceSlice{"mark", "host", 3, 8, true, -1, 0, nullptr});
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
      R"({"name":"AllReduce","cat":"gpu,reduce \"x\"","ph":"X","pid":3,"tid":7,"ts":1.234,)"
      R"("dur":2.001,"args":{"size":4096,"peer":-1,"algo":"Ring\u000a","bw_gbps":-1.500,)"
      R"("records":[4,5],"depth":2}})"
      ",\n"
      R"({"name":"late","cat":"gpu","ph":"X","pid":3,"tid":7,"ts":0.500,"dur":0.000})"
      ",\n"
      R"({"name":"mark","cat":"host","ph":"i","s":"t","pid":3,"tid":8,"ts":-0.001})"
      "\n]}\n";
  CHECK(out.str() == expected);
}

TEST_CASE("json trace encoder: empty and repeated names stay quoted", "[render]") {
  std::ostringstream out;
  npkit::JsonTraceEncoder trace(out);
  trace.begin("{}", 0);
  const std::string name = "AllReduce";
  for (int i = 0; i < 2; ++i) {
    trace.write(npkit::TraceSlice{"", "", 1, 2, true, i, 0, nullptr});
    trace.write(npkit::TraceSlice{name, "gpu", 1, 2, true, i, 0, nullptr});
  }
  REQUIRE(trace.finish("out.json").ok());
  const std::string text = out.str();
  CHECK(text.find(R"({"name":"","cat":"","ph":"i","s":"t","pid":1,"tid":2,"ts":0.001})") !=
        std::string::npos);
  CHECK(text.find(R"({"name":"AllReduce","cat":"gpu","ph":"i","s":"t","pid":1,"tid":2,)"
                  R"("ts":0.001})") != std::string::npos);
}

TEST_CASE("json trace encoder: an empty trace is a valid document", "[render]") {
  std::ostringstream out;
  npkit::JsonTraceEncoder trace(out);
  trace.begin("{}", 0);
  REQUIRE(trace.finish("out.json").ok());
  CHECK(trace.events() == 0);
  CHECK(out.str() == "{\"displayTimeUnit\": \"ns\",\n\"otherData\": {},\n\"traceEvents\": [\n]}\n");
}

TEST_CASE("json trace encoder: fragments appended in order, each name written once", "[render]") {
  std::ostringstream out;
  npkit::JsonTraceEncoder trace(out);
  trace.begin("{}", 0);
  auto first = trace.fragment(0);
  auto second = trace.fragment(1);
  auto empty = trace.fragment(2);
  // Filled out of order: only the order of append counts.
  second->name_process(3, "rank 0");
  second->name_thread(3, 8, "host");
  second->write(npkit::TraceSlice{"mark", "host", 3, 8, true, -1, 0, nullptr});
  first->name_process(3, "rank 0");
  first->name_thread(3, 7, "GPU block 1");
  first->write(npkit::TraceSlice{"late", "gpu", 3, 7, false, 500, 400, nullptr});
  for (auto* f : {first.get(), second.get(), empty.get()}) REQUIRE(f->finish("").ok());
  CHECK(out.str().empty());
  trace.append(*empty);
  trace.append(*first);
  trace.append(*second);
  REQUIRE(trace.finish("out.json").ok());
  CHECK(trace.events() == 8);
  const std::string expected =
      "{\"displayTimeUnit\": \"ns\",\n\"otherData\": {},\n\"traceEvents\": [\n"
      R"({"name":"process_name","ph":"M","pid":3,"args":{"name":"rank 0"}})"
      ",\n"
      R"({"name":"process_sort_index","ph":"M","pid":3,"args":{"sort_index":3}})"
      ",\n"
      R"({"name":"thread_name","ph":"M","pid":3,"tid":7,"args":{"name":"GPU block 1"}})"
      ",\n"
      R"({"name":"thread_sort_index","ph":"M","pid":3,"tid":7,"args":{"sort_index":7}})"
      ",\n"
      R"({"name":"late","cat":"gpu","ph":"X","pid":3,"tid":7,"ts":0.500,"dur":0.000})"
      ",\n"
      R"({"name":"thread_name","ph":"M","pid":3,"tid":8,"args":{"name":"host"}})"
      ",\n"
      R"({"name":"thread_sort_index","ph":"M","pid":3,"tid":8,"args":{"sort_index":8}})"
      ",\n"
      R"({"name":"mark","cat":"host","ph":"i","s":"t","pid":3,"tid":8,"ts":-0.001})"
      "\n]}\n";
  CHECK(out.str() == expected);
}

TEST_CASE("json trace encoder: fragments of megabytes give the same text as one encoder",
          "[render]") {
  const auto fill = [](npkit::TraceEncoder& e, int part) {
    e.name_process(1, "rank 0");
    for (int i = 0; i < 20'000; ++i) {
      e.write(npkit::TraceSlice{"span", "gpu", 1, 2, false, part * 100'000 + i, i + 7, nullptr});
    }
  };
  std::ostringstream whole;
  npkit::JsonTraceEncoder one(whole);
  one.begin("{}", 0);
  std::ostringstream parts;
  npkit::JsonTraceEncoder many(parts);
  many.begin("{}", 0);
  for (int part = 0; part < 3; ++part) {
    fill(one, part);  // its names repeat; the fragments' do not
    auto f = many.fragment(static_cast<std::uint32_t>(part));
    fill(*f, part);
    REQUIRE(f->finish("").ok());
    many.append(*f);
  }
  REQUIRE(one.finish("a").ok());
  REQUIRE(many.finish("b").ok());
  CHECK(parts.str().size() > (1u << 20) * 2);
  CHECK(many.events() == 2 + 60'000);
  std::string expected = whole.str();
  // The whole encoder was given the process's name three times.
  const std::string names =
      R"({"name":"process_name","ph":"M","pid":1,"args":{"name":"rank 0"}},)"
      "\n"
      R"({"name":"process_sort_index","ph":"M","pid":1,"args":{"sort_index":1}},)"
      "\n";
  for (int repeat = 0; repeat < 2; ++repeat) {
    const auto at = expected.rfind(names);
    REQUIRE(at != std::string::npos);
    expected.erase(at, names.size());
  }
  CHECK(parts.str() == expected);
}

TEST_CASE("json trace encoder: a name and a category in the same cache slot", "[render]") {
  // Strings of 5 letters at every offset of a pool: two of them take the same slot.
  std::string pool;
  for (int i = 0; i < 2048; ++i) pool.push_back(static_cast<char>('a' + i % 26));
  std::string_view name;
  std::string_view category;
  for (std::size_t i = 0; i + 5 < pool.size() && category.empty(); ++i) {
    for (std::size_t j = i + 1; j + 5 < pool.size(); ++j) {
      const std::string_view a(pool.data() + i, 5);
      const std::string_view b(pool.data() + j, 5);
      if (a != b && npkit::recent_string_slot(a) == npkit::recent_string_slot(b)) {
        name = a;
        category = b;
        break;
      }
    }
  }
  REQUIRE_FALSE(category.empty());
  std::ostringstream out;
  npkit::JsonTraceEncoder trace(out);
  trace.begin("{}", 0);
  trace.write(npkit::TraceSlice{name, category, 1, 2, false, 0, 1, nullptr});
  trace.write(npkit::TraceSlice{name, category, 1, 2, false, 0, 1, nullptr});
  REQUIRE(trace.finish("out.json").ok());
  const std::string event = "{\"name\":\"" + std::string(name) + "\",\"cat\":\"" +
                            std::string(category) + "\",\"ph\":\"X\"";
  const std::string text = out.str();
  const auto first = text.find(event);
  REQUIRE(first != std::string::npos);
  CHECK(text.find(event, first + 1) != std::string::npos);
}

TEST_CASE("json trace encoder: counter samples are C events of their process", "[render]") {
  std::ostringstream out;
  npkit::JsonTraceEncoder trace(out);
  trace.begin("{}", 0);
  trace.count({"busbw", "GB/s", 2, 1'500, 77'649});
  trace.count({"busbw", "GB/s", 2, -2, 0});
  REQUIRE(trace.finish("out.json").ok());
  CHECK(trace.events() == 2);
  const std::string expected =
      "{\"displayTimeUnit\": \"ns\",\n\"otherData\": {},\n\"traceEvents\": [\n"
      R"({"name":"busbw","ph":"C","pid":2,"ts":1.500,"args":{"GB/s":77.649}})"
      ",\n"
      R"({"name":"busbw","ph":"C","pid":2,"ts":-0.002,"args":{"GB/s":0.000}})"
      "\n]}\n";
  CHECK(out.str() == expected);
}
