#include <catch2/catch.hpp>

#include <cmath>

#include "output/html/axes.hpp"
#include "output/html/svg.hpp"
#include "unit/output/html/html_test_support.hpp"

using namespace npkit::html;
using npkit::test::count_of;

TEST_CASE("html: escape makes text safe in elements and attributes", "[html]") {
  CHECK(escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(escape("plain text") == "plain text");
  CHECK(escape("</script><script>alert(1)</script>") ==
        "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
}

TEST_CASE("html: values print with their unit and at most 3 significant digits", "[html]") {
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(1024) == "1 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
  CHECK(format_bytes(64.0 * 1024 * 1024) == "64 MiB");
  CHECK(format_bytes(3.0 * 1024 * 1024 * 1024) == "3 GiB");
  CHECK(format_duration(999) == "999 ns");
  CHECK(format_duration(1500) == "1.5 us");
  CHECK(format_duration(12345678) == "12.3 ms");
  CHECK(format_duration(2.5e9) == "2.5 s");
  CHECK(format_number(123.456) == "123");
  CHECK(format_number(12.345) == "12.3");  // rounds half to even in binary: 12.345 is 12.3449...
  CHECK(format_number(1.2345) == "1.23");
  CHECK(format_number(0.012345) == "0.0123");
  CHECK(format_number(0) == "0");
  CHECK(format_value(45, Unit::kPercent) == "45%");
  CHECK(format_value(9.99, Unit::kGbps) == "9.99 GB/s");
  CHECK(format_value(NAN, Unit::kGbps) == "-");
}

TEST_CASE("html: sequential colours run from pale yellow to dark red", "[html]") {
  CHECK(sequential_colour(0) == "#fff7d6");    // 255 247 214
  CHECK(sequential_colour(0.5) == "#f48b36");  // 244 139 54
  CHECK(sequential_colour(1) == "#7f1416");    // 127 20 22
  CHECK(sequential_colour(-3) == sequential_colour(0));
  CHECK(sequential_colour(7) == sequential_colour(1));
  // a quarter: halfway between the first two stops: (255+244)/2 = 249.5 -> 250 (0xfa)
  CHECK(sequential_colour(0.25) == "#fac186");  // g (247+139)/2 = 193, b (214+54)/2 = 134
}

TEST_CASE("html: a linear scale widens to nice steps and maps linearly", "[html]") {
  // 0..97 with about 5 steps: 97 / 5 = 19.4 -> step 20 -> domain 0..100, 6 ticks.
  const Scale s = linear_scale(3, 97, true, 0, 200);
  CHECK(s.lo == 0);
  CHECK(s.hi == Approx(100));
  const auto ticks = s.ticks();
  REQUIRE(ticks.size() == 6);
  CHECK(ticks[1] == Approx(20));
  CHECK(ticks[5] == Approx(100));
  CHECK(s.map(50) == Approx(100));
  // A vertical axis maps upwards.
  const Scale v = linear_scale(0, 10, true, 300, 100);
  CHECK(v.map(0) == Approx(300));
  CHECK(v.map(10) == Approx(100));
  // An empty range never divides by zero.
  const Scale e = linear_scale(5, 5, false, 0, 100);
  CHECK(e.hi > e.lo);
}

TEST_CASE("html: a log2 size scale covers whole powers of two", "[html]") {
  // log2(1000) = 9.97 -> 2^9; log2(70000) = 16.1 -> 2^17; ticks 2^9 .. 2^17.
  const Scale s = log_scale(1000, 70000, 2, 0, 800);
  CHECK(s.lo == 512);
  CHECK(s.hi == 131072);
  const auto ticks = s.ticks();
  REQUIRE(ticks.size() == 9);
  CHECK(ticks.front() == 512);
  CHECK(ticks.back() == 131072);
  CHECK(s.map(8192) == Approx(400));  // 2^13 is the middle of 2^9..2^17
  // 1 B .. 1 GiB is 31 powers: thinned to every 4th (31 / 2 = 15 > 12, 31 / 4 = 7).
  const Scale wide = log_scale(1, 1 << 30, 2, 0, 800);
  const auto wt = wide.ticks();
  REQUIRE(wt.size() == 8);  // 2^0, 2^4, ..., 2^28
  CHECK(wt[1] == 16);
}

TEST_CASE("html: a log10 scale adds 2x and 5x ticks below two decades", "[html]") {
  const Scale s = log_scale(3, 4000, 10, 0, 100);
  CHECK(s.lo == 1);
  CHECK(s.hi == 10000);
  CHECK(s.ticks().size() == 5);
  const Scale narrow = log_scale(20, 80, 10, 0, 100);  // 10 .. 100: one decade
  const auto t = narrow.ticks();
  REQUIRE(t.size() == 4);  // 10, 20, 50, 100
  CHECK(t[1] == 20);
  CHECK(t[2] == 50);
}

TEST_CASE("html: axes draw a labelled tick per scale tick", "[html]") {
  std::string out;
  {
    Svg svg(out, 400, 300, "test", "axes <test>");
    const PlotArea area{50, 10, 300, 200};
    const Scale x = log_scale(1024, 1 << 20, 2, area.left, area.right());
    draw_x_axis(svg, x, area, Unit::kBytes, "size");
  }
  // 2^10 .. 2^20: 11 ticks, each with a label.
  CHECK(count_of(out, "class=\"tick\"") == 11);
  CHECK(count_of(out, "class=\"tick-label\"") == 11);
  CHECK(out.find(">1 KiB<") != std::string::npos);
  CHECK(out.find(">1 MiB<") != std::string::npos);
  CHECK(out.find("aria-label=\"axes &lt;test&gt;\"") != std::string::npos);
  CHECK(out.rfind("</svg>") != std::string::npos);
}
