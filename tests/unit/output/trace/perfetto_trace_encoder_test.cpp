// PerfettoTraceEncoder writes a trace that an independent reader (tests/support/perfetto_reader)
// decodes into the slices it was given: names, categories, processes and threads, exact
// nanosecond times after the origin, every kind of argument but those kept for round trips only;
// spans given out of order come out nested, a span outlasting its parent is cut at the parent's
// end, instants stay instants, and a process written again after close_process starts a fresh
// sequence state. Counters decode as counter tracks under their process, one per (name, series),
// with their samples' times and values in time order, whether written before or after
// close_process and in a fragment.
#include "output/trace/perfetto_trace_encoder.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>
#include <vector>

#include "support/perfetto_reader.hpp"

namespace {

constexpr std::int64_t kOrigin = 1'700'000'000'000'000'000;

const npkit::test::PerfettoSlice* find(const npkit::test::PerfettoTrace& t, std::string_view name) {
  for (const auto& s : t.slices) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("perfetto trace encoder: slices, nesting, instants and args", "[render]") {
  std::ostringstream out;
  npkit::PerfettoTraceEncoder trace(out);
  trace.begin("{}", kOrigin);
  trace.name_process(1, "rank 0");
  trace.name_thread(1, 10'000'000, "GPU buffer 0");
  trace.name_thread(1, 20'000'000, "CPU channel 0");
  npkit::TraceArgList args;
  args.add_uint("size", 4096);
  args.add_int("peer", -3);
  args.add_string("algo", "Ring");
  args.add_thousandths("bw_gbps", 2560);
  args.add_pair("records", 3, 6);
  // Left out: the nesting shows it (TraceArgUse).
  args.add_uint("depth", 1, npkit::TraceArgUse::kRoundTrip);
  args.add_pair("entry_exit", 3, 6, npkit::TraceArgUse::kRoundTrip);
  // The child comes first (legacy spans arrive in EXIT order); the parent starts at the same
  // time; the last one outlasts its parent.
  trace.write({"child", "gpu,reduce_scatter", 1, 10'000'000, false, 100, 300, &args});
  trace.write({"parent", "gpu,other", 1, 10'000'000, false, 100, 1'000, nullptr});
  trace.write({"late", "gpu,other", 1, 10'000'000, false, 900, 1'200, nullptr});
  trace.write({"empty", "gpu,other", 1, 10'000'000, false, 2'000, 1'500, nullptr});
  trace.write({"mark", "unmatched", 1, 20'000'000, true, 50, 0, nullptr});
  trace.close_process(1);
  trace.write({"again", "cpu,other", 1, 20'000'000, false, 3'000, 3'500, nullptr});
  REQUIRE(trace.finish("out.pftrace").ok());

  const auto t = npkit::test::read_perfetto_trace(out.str());
  REQUIRE(t.error.empty());
  CHECK(t.packets == trace.events());
  CHECK(t.process_names.at(1) == "rank 0");
  CHECK(t.thread_names.at({1, 10'000'000}) == "GPU buffer 0");
  CHECK(t.thread_names.at({1, 20'000'000}) == "CPU channel 0");
  REQUIRE(t.slices.size() == 6);

  const auto* child = find(t, "child");
  REQUIRE(child != nullptr);
  CHECK(child->pid == 1);
  CHECK(child->tid == 10'000'000);
  CHECK(child->category == "gpu,reduce_scatter");
  CHECK(child->start_ns == kOrigin + 100);
  CHECK(child->end_ns == kOrigin + 300);
  CHECK(child->args.at("size") == "4096");
  CHECK(child->args.at("peer") == "-3");
  CHECK(child->args.at("algo") == "Ring");
  CHECK(child->args.at("bw_gbps") == "2.560");
  CHECK(child->args.at("records") == "[3,6]");
  CHECK(child->args.size() == 5);  // not depth, entry_exit

  const auto* parent = find(t, "parent");
  REQUIRE(parent != nullptr);
  CHECK(parent->start_ns == kOrigin + 100);
  CHECK(parent->end_ns == kOrigin + 1'000);
  CHECK(parent->args.empty());
  const auto* late = find(t, "late");
  REQUIRE(late != nullptr);
  CHECK(late->start_ns == kOrigin + 900);
  CHECK(late->end_ns == kOrigin + 1'000);  // cut at its parent's end
  const auto* empty = find(t, "empty");
  REQUIRE(empty != nullptr);
  CHECK(empty->start_ns == kOrigin + 2'000);
  CHECK(empty->end_ns == kOrigin + 2'000);
  const auto* mark = find(t, "mark");
  REQUIRE(mark != nullptr);
  CHECK(mark->instant);
  CHECK(mark->tid == 20'000'000);
  CHECK(mark->start_ns == kOrigin + 50);
  const auto* again = find(t, "again");
  REQUIRE(again != nullptr);
  CHECK(again->start_ns == kOrigin + 3'000);
  CHECK(again->end_ns == kOrigin + 3'500);
}

TEST_CASE("perfetto trace encoder: an empty trace is a valid trace", "[render]") {
  std::ostringstream out;
  npkit::PerfettoTraceEncoder trace(out);
  trace.begin("{}", 0);
  REQUIRE(trace.finish("out.pftrace").ok());
  CHECK(trace.events() == 1);  // the root track's ordering
  const auto t = npkit::test::read_perfetto_trace(out.str());
  CHECK(t.error.empty());
  CHECK(t.packets == 1);
  CHECK(t.slices.empty());
  CHECK(t.process_names.empty());
}

TEST_CASE("perfetto trace encoder: fragments decode to the slices of one encoder", "[render]") {
  const auto fill = [](npkit::TraceEncoder& e, std::uint32_t tid, std::int64_t at) {
    e.name_process(1, "rank 0");
    e.name_thread(1, tid, "thread " + std::to_string(tid));
    e.name_thread(1, tid + 1, "thread " + std::to_string(tid + 1));
    npkit::TraceArgList args;
    args.add_uint("size", tid);
    e.write({"child", "gpu,sync", 1, tid, false, at + 10, at + 20, &args});
    e.write({"parent", "gpu,other", 1, tid, false, at, at + 50, nullptr});
    e.write({"other thread", "cpu,other", 1, tid + 1, false, at + 5, at + 6, nullptr});
  };
  std::ostringstream whole;
  npkit::PerfettoTraceEncoder one(whole);
  one.begin("{}", kOrigin);
  std::ostringstream parts;
  npkit::PerfettoTraceEncoder many(parts);
  many.begin("{}", kOrigin);
  std::vector<std::unique_ptr<npkit::TraceEncoder>> fragments;
  for (std::uint32_t i = 0; i < 3; ++i) {
    fragments.push_back(many.fragment(i));
    fill(*fragments.back(), 10 * (i + 1), 1'000 * i);
  }
  for (std::uint32_t i = 0; i < 3; ++i) {
    fill(one, 10 * (i + 1), 1'000 * i);
    REQUIRE(fragments[i]->finish("").ok());
    many.append(*fragments[i]);
  }
  REQUIRE(one.finish("a").ok());
  REQUIRE(many.finish("b").ok());
  const auto a = npkit::test::read_perfetto_trace(whole.str());
  const auto b = npkit::test::read_perfetto_trace(parts.str());
  INFO(a.error);
  REQUIRE(a.error.empty());
  INFO(b.error);
  REQUIRE(b.error.empty());
  CHECK(b.packets == many.events());
  CHECK(b.process_names == a.process_names);
  CHECK(b.thread_names == a.thread_names);
  CHECK(b.thread_names.size() == 6);
  REQUIRE(b.slices.size() == 9);
  const auto key = [](const npkit::test::PerfettoSlice& s) {
    return std::tuple(s.tid, s.start_ns, s.end_ns, s.name, s.category, s.args);
  };
  std::vector<decltype(key(a.slices[0]))> ka, kb;
  for (const auto& s : a.slices) ka.push_back(key(s));
  for (const auto& s : b.slices) kb.push_back(key(s));
  std::sort(ka.begin(), ka.end());
  std::sort(kb.begin(), kb.end());
  CHECK(ka == kb);
  CHECK(kb.front() == std::tuple(std::int64_t{10}, std::uint64_t(kOrigin),
                                 std::uint64_t(kOrigin + 50), std::string("parent"),
                                 std::string("gpu,other"), std::map<std::string, std::string>{}));
}

TEST_CASE("perfetto trace encoder: counters are counter tracks of their process", "[render]") {
  std::ostringstream out;
  npkit::PerfettoTraceEncoder trace(out);
  trace.begin("{}", kOrigin);
  trace.name_process(1, "rank 0");
  trace.name_process(2, "rank 1");
  trace.name_thread(1, 500, "collectives");
  trace.write({"AllReduce", "collective", 1, 500, false, 100, 300, nullptr});
  trace.count({"busbw", "GB/s", 1, 100, 77'649});
  trace.count({"busbw", "GB/s", 1, 300, 0});
  trace.count({"algbw", "GB/s", 1, 100, 1'500});
  trace.close_process(1);
  // After the process was closed, a sample of a counter already written, and a second process.
  trace.count({"busbw", "GB/s", 1, 900, 2'000});
  trace.count({"busbw", "GB/s", 2, 50, -1});
  trace.count({"busbw", "GB/s", 2, 40, 5});  // given out of order: written in time order
  REQUIRE(trace.finish("out.pftrace").ok());

  const auto t = npkit::test::read_perfetto_trace(out.str());
  INFO(t.error);
  REQUIRE(t.error.empty());
  CHECK(t.packets == trace.events());
  REQUIRE(t.slices.size() == 1);
  CHECK(t.slices[0].name == "AllReduce");
  using Sample = std::tuple<std::int64_t, std::string, std::uint64_t, double>;
  std::vector<Sample> got;
  std::map<std::pair<std::int64_t, std::string>, std::uint64_t> last;  // per track
  for (const auto& c : t.counters) {
    got.emplace_back(c.pid, c.track, c.ts, c.value);
    auto& at = last[{c.pid, c.track}];
    CHECK(c.ts >= at);  // each track's samples in time order
    at = c.ts;
  }
  std::sort(got.begin(), got.end());
  const std::vector<Sample> want = {
      {1, "algbw GB/s", kOrigin + 100, 1.5},  {1, "busbw GB/s", kOrigin + 100, 77.649},
      {1, "busbw GB/s", kOrigin + 300, 0.0},  {1, "busbw GB/s", kOrigin + 900, 2.0},
      {2, "busbw GB/s", kOrigin + 40, 0.005}, {2, "busbw GB/s", kOrigin + 50, -0.001}};
  CHECK(got == want);
}

TEST_CASE("perfetto trace encoder: a fragment's counters decode as one encoder's", "[render]") {
  std::ostringstream out;
  npkit::PerfettoTraceEncoder trace(out);
  trace.begin("{}", kOrigin);
  auto fragment = trace.fragment(0);
  fragment->name_process(3, "rank 2");
  fragment->name_thread(3, 500, "collectives");
  fragment->write({"AllGather", "collective", 3, 500, false, 10, 20, nullptr});
  fragment->count({"busbw", "GB/s", 3, 10, 12'345});
  fragment->count({"busbw", "GB/s", 3, 20, 0});
  REQUIRE(fragment->finish("").ok());
  trace.append(*fragment);
  REQUIRE(trace.finish("out.pftrace").ok());
  const auto t = npkit::test::read_perfetto_trace(out.str());
  INFO(t.error);
  REQUIRE(t.error.empty());
  REQUIRE(t.counters.size() == 2);
  CHECK(t.counters[0].pid == 3);
  CHECK(t.counters[0].track == "busbw GB/s");
  CHECK(t.counters[0].ts == kOrigin + 10);
  CHECK(t.counters[0].value == 12.345);
  CHECK(t.counters[1].ts == kOrigin + 20);
  CHECK(t.counters[1].value == 0.0);
  CHECK(t.slices.size() == 1);
}
