// WindowedTraceEncoder keeps exactly the slices that overlap the window (spans reaching into it
// from either side, instants inside it), leaves their times alone, combines a window after the
// origin with one on the host clock, passes names on, and stops passing slices once the encoder
// behind it has produced more than max_bytes; its fragments do the same, part by part. Counters
// keep their samples in the window, the last before it, and those after it until back to 0.
#include "output/trace/trace_window.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

namespace {

// Records what reaches it; each slice counts 100 bytes.
class Recorder : public npkit::TraceEncoder {
 public:
  void begin(std::string_view, const npkit::TraceTimes& times) override {
    origin = times.origin_ns;
  }
  void name_process(std::uint32_t, std::string_view name) override { names.emplace_back(name); }
  void name_thread(std::uint32_t, std::uint32_t, std::string_view name) override {
    names.emplace_back(name);
  }
  void write(const npkit::TraceSlice& s) override {
    slices.push_back(std::string(s.name) + "@" + std::to_string(s.start_ns));
  }
  void count(const npkit::TraceCounter& c) override {
    counters.push_back(std::to_string(c.pid) + " " + std::string(c.name) + " " +
                       std::string(c.series) + "@" + std::to_string(c.at_ns) + "=" +
                       std::to_string(c.thousandths));
  }
  npkit::Status finish(const std::string&) override { return npkit::Ok{}; }
  std::uint64_t events() const override { return slices.size(); }
  std::uint64_t bytes() const override { return 100 * slices.size(); }
  std::unique_ptr<npkit::TraceEncoder> fragment(std::uint32_t) const override {
    return std::make_unique<Recorder>();
  }
  void append(npkit::TraceEncoder& fragment) override {
    auto& f = static_cast<Recorder&>(fragment);
    names.insert(names.end(), f.names.begin(), f.names.end());
    slices.insert(slices.end(), f.slices.begin(), f.slices.end());
  }

  std::int64_t origin = 0;
  std::vector<std::string> names;
  std::vector<std::string> slices;
  std::vector<std::string> counters;
};

void write_all(npkit::TraceEncoder& e) {
  e.name_process(1, "rank 0");
  e.name_thread(1, 2, "GPU channel 0");
  e.write({"before", "gpu", 1, 2, false, 0, 99, nullptr});       // ends before the window
  e.write({"into", "gpu", 1, 2, false, 50, 100, nullptr});       // ends at its start
  e.write({"inside", "gpu", 1, 2, false, 120, 150, nullptr});    //
  e.write({"around", "gpu", 1, 2, false, 0, 1000, nullptr});     // encloses it
  e.write({"out of", "gpu", 1, 2, false, 200, 300, nullptr});    // starts at its end
  e.write({"after", "gpu", 1, 2, false, 201, 300, nullptr});     // starts after it
  e.write({"mark in", "x", 1, 2, true, 150, 0, nullptr});        // instant inside
  e.write({"mark out", "x", 1, 2, true, 99, 0, nullptr});        // instant before
  e.write({"backwards", "gpu", 1, 2, false, 101, 90, nullptr});  // length 0 at 101
}

}  // namespace

TEST_CASE("trace window: slices overlapping [from, to] after the origin", "[render]") {
  Recorder inner;
  npkit::TraceLimits limits;
  limits.from_ns = 100;
  limits.to_ns = 200;
  npkit::WindowedTraceEncoder w(inner, limits);
  w.begin("{}", 5'000);
  write_all(w);
  REQUIRE(w.finish("x").ok());
  CHECK(inner.origin == 5'000);
  CHECK(inner.names == std::vector<std::string>{"rank 0", "GPU channel 0"});
  CHECK(inner.slices == std::vector<std::string>{"into@50", "inside@120", "around@0", "out of@200",
                                                 "mark in@150", "backwards@101"});
  CHECK(w.kept() == 6);
  CHECK(w.dropped() == 3);
  CHECK_FALSE(w.exceeded());
}

TEST_CASE("trace window: --from and --to count from the first event, not the origin", "[render]") {
  // On the wall clock the origin lies before the first event (here by 50 ns): the window of 50 to
  // 150 after the first event is 100 to 200 after the origin, the first case's window.
  Recorder inner;
  npkit::TraceLimits limits;
  limits.from_ns = 50;
  limits.to_ns = 150;
  npkit::WindowedTraceEncoder w(inner, limits);
  npkit::TraceTimes times;
  times.origin_ns = 4'950;
  times.first_ns = 5'000;
  times.on_wall_clock = true;
  w.begin("{}", times);
  write_all(w);
  CHECK(inner.origin == 4'950);
  CHECK(inner.slices == std::vector<std::string>{"into@50", "inside@120", "around@0", "out of@200",
                                                 "mark in@150", "backwards@101"});
}

TEST_CASE("trace window: a host-clock window narrows one after the origin", "[render]") {
  Recorder inner;
  npkit::TraceLimits limits;
  limits.from_ns = 0;
  limits.from_host_ns = 5'130;  // 130 after the origin
  limits.to_host_ns = 5'140;
  npkit::WindowedTraceEncoder w(inner, limits);
  w.begin("{}", 5'000);
  write_all(w);
  CHECK(inner.slices == std::vector<std::string>{"inside@120", "around@0"});
}

TEST_CASE("trace window: no window keeps everything, and the size guard stops", "[render]") {
  Recorder inner;
  npkit::TraceLimits limits;
  limits.max_bytes = 250;  // exceeded by the third slice
  npkit::WindowedTraceEncoder w(inner, limits);
  w.begin("{}", 0);
  write_all(w);
  CHECK(w.exceeded());
  CHECK(inner.slices.size() == 3);
  CHECK(w.kept() == 3);

  Recorder all;
  npkit::WindowedTraceEncoder open(all, npkit::TraceLimits{});
  open.begin("{}", 0);
  write_all(open);
  CHECK(all.slices.size() == 9);
  CHECK_FALSE(open.exceeded());
}

TEST_CASE("trace window: fragments keep what the whole keeps, and the guard checks appends",
          "[render]") {
  Recorder inner;
  npkit::TraceLimits limits;
  limits.from_ns = 100;
  limits.to_ns = 200;
  npkit::WindowedTraceEncoder w(inner, limits);
  w.begin("{}", 5'000);
  auto first = w.fragment(0);
  auto second = w.fragment(1);
  write_all(*first);
  write_all(*second);
  w.append(*first);
  w.append(*second);
  CHECK(inner.slices.size() == 12);
  CHECK(inner.slices[6] == "into@50");
  CHECK(w.kept() == 12);
  CHECK(w.dropped() == 6);

  Recorder guarded;
  limits = {};
  limits.max_bytes = 250;
  npkit::WindowedTraceEncoder g(guarded, limits);
  g.begin("{}", 0);
  for (std::uint32_t i = 0; i < 3; ++i) {
    auto part = g.fragment(i);
    write_all(*part);
    g.append(*part);
  }
  CHECK(g.exceeded());
  CHECK(guarded.slices.size() == 9);  // the first append passed 250 bytes; the rest were held
  CHECK(g.kept() == 9);
}

TEST_CASE("trace window: counters keep the samples that set their values in it", "[render]") {
  Recorder inner;
  npkit::TraceLimits limits;
  limits.from_ns = 100;
  limits.to_ns = 200;
  npkit::WindowedTraceEncoder window(inner, limits);
  window.begin("{}", 0);
  const auto count = [&](std::uint32_t pid, std::string_view name, std::int64_t at,
                         std::int64_t value) {
    window.count({name, "GB/s", pid, at, value});
  };
  count(1, "busbw", 10, 1);
  count(1, "busbw", 50, 2);  // the value where the window begins
  count(2, "busbw", 10, 7);  // all before the window, back to 0: nothing
  count(2, "busbw", 20, 0);
  count(1, "algbw", 50, 8);  // another counter of the process: its own state
  count(1, "busbw", 120, 3);
  count(1, "busbw", 200, 4);
  count(1, "busbw", 250, 5);  // after the window, until the value is back to 0
  count(1, "busbw", 300, 0);
  count(1, "busbw", 350, 6);  // a later collective: left out
  count(1, "algbw", 260, 0);
  count(1, "algbw", 270, 9);
  REQUIRE(window.finish("x").ok());
  CHECK(inner.counters == std::vector<std::string>{"1 busbw GB/s@50=2", "1 busbw GB/s@120=3",
                                                   "1 busbw GB/s@200=4", "1 busbw GB/s@250=5",
                                                   "1 busbw GB/s@300=0", "1 algbw GB/s@50=8",
                                                   "1 algbw GB/s@260=0"});
  CHECK(window.kept() == 0);
  CHECK(window.dropped() == 0);
}

TEST_CASE("trace window: without a window every counter sample is passed on", "[render]") {
  Recorder inner;
  npkit::WindowedTraceEncoder window(inner, npkit::TraceLimits{});
  window.begin("{}", 0);
  window.count({"busbw", "GB/s", 1, -5, 1});
  window.count({"busbw", "GB/s", 1, 5, 0});
  REQUIRE(window.finish("x").ok());
  CHECK(inner.counters == std::vector<std::string>{"1 busbw GB/s@-5=1", "1 busbw GB/s@5=0"});
}
