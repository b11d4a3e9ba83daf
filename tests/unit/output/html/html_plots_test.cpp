#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "output/html/heatmap.hpp"
#include "output/html/line_plot.hpp"
#include "output/html/regression_bars.hpp"
#include "output/html/stacked_bars.hpp"
#include "output/html/timeline.hpp"
#include "unit/output/html/html_test_support.hpp"

using namespace npkit::html;
using npkit::test::count_of;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

TEST_CASE("html: stacked bars draw one rect per non-zero value", "[html]") {
  StackedBars b;
  b.title = "phases";
  b.segments = {"reduce_scatter", "all_gather", "sync"};
  b.bars = {"rank 0", "rank 1", "rank <2>"};
  b.values = {{100, 200, 0}, {150, 150, 50}, {0, 0, 0}};
  std::string out;
  render_stacked_bars(b, out);
  CHECK(count_of(out, "<rect class=\"bar\"") == 5);
  CHECK(count_of(out, "class=\"legend-swatch\"") == 3);
  // rank 0's reduce_scatter is 100 of 300 ns.
  CHECK(out.find("<title>rank 0 · reduce_scatter: 100 ns (33.3% of 300 ns)</title>") !=
        std::string::npos);
  CHECK(out.find("rank <2>") == std::string::npos);
  CHECK(out.find("rank &lt;2&gt;") != std::string::npos);
  CHECK(count_of(out, "<svg ") == 1);
  CHECK(count_of(out, "</svg>") == 1);
}

TEST_CASE("html: stacked bars stack upwards from the axis", "[html]") {
  StackedBars b;
  b.segments = {"a", "b"};
  b.bars = {"x"};
  b.values = {{50, 50}};
  std::string out;
  render_stacked_bars(b, out);
  // Plot area: top 16 + one legend row (16) = 32, height 220 -> bottom 252; domain 0..100
  // (step 20): a spans 252..142, b 142..32.
  CHECK(out.find("y=\"142.0\" width") != std::string::npos);
  CHECK(out.find("y=\"32.0\" width") != std::string::npos);
  CHECK(out.find("height=\"110.0\"") != std::string::npos);
}

TEST_CASE("html: empty stacked bars say so", "[html]") {
  StackedBars b;
  b.title = "nothing";
  std::string out;
  render_stacked_bars(b, out);
  CHECK(count_of(out, "class=\"bar\"") == 0);
  CHECK(out.find(">no data<") != std::string::npos);
}

TEST_CASE("html: a line plot draws its points, lines and markers", "[html]") {
  LinePlot p;
  p.title = "busbw";
  p.x_label = "size";
  p.y_label = "busbw";
  p.series = {{"Ring/LL", {{1024, 1, ""}, {4096, 3, ""}, {2048, 2, "extra line"}}},
              {"Ring/Simple", {{8192, 8, ""}, {16384, 9, ""}}}};
  p.markers = {{8192, "Ring/LL → Ring/Simple"}};
  std::string out;
  render_line_plot(p, out);
  CHECK(count_of(out, "<circle class=\"point\"") == 5);
  CHECK(count_of(out, "<polyline class=\"series-line\"") == 2);
  CHECK(count_of(out, "<line class=\"marker\"") == 1);
  CHECK(out.find("Ring/LL → Ring/Simple") != std::string::npos);
  CHECK(out.find("<title>Ring/LL\nsize: 2 KiB\nbusbw: 2 GB/s\nextra line</title>") !=
        std::string::npos);
  // Sizes 1 KiB .. 16 KiB: 5 ticks on the log2 axis.
  CHECK(out.find(">1 KiB<") != std::string::npos);
  CHECK(out.find(">16 KiB<") != std::string::npos);
  // Points are joined in x order: 1 KiB, 2 KiB, 4 KiB. The x domain is 2^10 .. 2^14 over the
  // plot area's 850 px from x = 86, so 2^(10+k) is at 86 + 850 k / 4: 2 KiB at 298.5.
  CHECK(out.find("points=\"86.0,") != std::string::npos);
  const auto line = out.find("points=\"86.0,");
  const auto second = out.find(' ', line);
  CHECK(out.compare(second + 1, 6, "298.5,") == 0);
}

TEST_CASE("html: a log axis leaves out values <= 0 and says how many", "[html]") {
  LinePlot p;
  p.y_axis = YAxis::kLog10;
  p.series = {{"s", {{1024, 10, ""}, {2048, 0, ""}, {4096, 100, ""}}}};
  std::string out;
  render_line_plot(p, out);
  CHECK(count_of(out, "<circle class=\"point\"") == 2);
  CHECK(out.find("1 point(s) &lt;= 0 not drawn") != std::string::npos);
}

TEST_CASE("html: a heatmap draws every cell, missing ones grey", "[html]") {
  Heatmap h;
  h.rows = {"rank 0", "rank 1", "rank 2"};
  h.columns = {"a", "b", "c", "d"};
  h.values = {{0, 10, 20, kNaN}, {5, 5, 5, 5}, {kNaN, kNaN, 40, 0}};
  std::string out;
  render_heatmap(h, out);
  CHECK(count_of(out, "<rect class=\"cell\"") == 9);
  CHECK(count_of(out, "<rect class=\"cell missing\"") == 3);
  // 40 is the largest value: its cell has the darkest colour, 20 the middle one.
  CHECK(out.find("fill=\"#7f1416\"><title>rank 2 · c: 40 ns</title>") != std::string::npos);
  CHECK(out.find("fill=\"#f48b36\"><title>rank 0 · c: 20 ns</title>") != std::string::npos);
  CHECK(out.find("<title>rank 0 · d: no data</title>") != std::string::npos);
}

TEST_CASE("html: heatmap columns bucket by their largest value", "[html]") {
  Heatmap h;
  h.rows = {"r"};
  for (int i = 1; i <= 10; ++i) h.columns.push_back("i" + std::to_string(i));
  h.values = {{1, 7, 3, kNaN, kNaN, kNaN, 2, 9, 4, 6}};
  // 10 columns into at most 4: 3 per bucket -> buckets {1,7,3} {-,-,-} {2,9,4} {6}.
  CHECK(bucket_columns(h, 4) == 3);
  REQUIRE(h.columns.size() == 4);
  REQUIRE(h.values[0].size() == 4);
  CHECK(h.values[0][0] == 7);
  CHECK(std::isnan(h.values[0][1]));
  CHECK(h.values[0][2] == 9);
  CHECK(h.values[0][3] == 6);
  CHECK(h.columns[0] == "i1 … i3 (3 columns)");
  CHECK(h.columns[3] == "i10 … i10 (1 columns)");
  CHECK(bucket_columns(h, 4) == 1);  // already small enough
}

TEST_CASE("html: a timeline draws one rect per span on its row", "[html]") {
  Timeline t;
  t.title = "one iteration";
  t.groups = {"rank 0", "rank 1"};
  t.rows = {{"GPU ch 0", 0}, {"GPU ch 1", 0}, {"GPU ch 0", 1}};
  t.origin_ns = 1000;
  t.spans = {{0, 1000, 2000, "AllReduce", "seq 1", "1 MiB"},
             {1, 1100, 1900, "AllReduce", "seq 1", ""},
             {2, 1500, 3000, "proxy send", "", ""}};
  std::string out;
  render_timeline(t, out);
  CHECK(count_of(out, "<rect class=\"span\"") == 3);
  CHECK(count_of(out, "class=\"row-label\"") == 3);
  CHECK(count_of(out, "class=\"group-label\"") == 2);
  CHECK(count_of(out, "class=\"legend-swatch\"") == 2);
  CHECK(out.find("class=\"tl-domain\"") != std::string::npos);
  CHECK(out.find("<title>AllReduce · seq 1\nstart +0 ns, duration 1 us\n1 MiB</title>") !=
        std::string::npos);
  // Rows are 14 px from y 0 of the view: the third row's span sits at 2 * 14 + 1.
  CHECK(out.find("y=\"29.0\"") != std::string::npos);
}

TEST_CASE("html: regression verdicts compare the change with the noise band", "[html]") {
  const RegressionBar inside{"1 KiB", 2, -3, 3, ""};
  const RegressionBar down{"2 KiB", -10, -3, 3, ""};
  const RegressionBar up{"4 KiB", 10, -3, 3, ""};
  CHECK(regression_verdict(inside, true) == "within-noise");
  CHECK(regression_verdict(down, true) == "regression");  // busbw fell
  CHECK(regression_verdict(up, true) == "improvement");
  CHECK(regression_verdict(down, false) == "improvement");  // time fell
  CHECK(regression_verdict(up, false) == "regression");
  RegressionBars r;
  r.title = "busbw change";
  r.metric = "busbw";
  r.bars = {inside, down, up};
  std::string out;
  render_regression_bars(r, out);
  CHECK(count_of(out, "<rect class=\"noise\"") == 3);
  CHECK(count_of(out, "<rect class=\"bar regression\"") == 1);
  CHECK(count_of(out, "<rect class=\"bar improvement\"") == 1);
  CHECK(count_of(out, "<rect class=\"bar within-noise\"") == 1);
  CHECK(out.find("2 KiB: busbw -10.0% (noise band -3.0% .. +3.0%): regression") !=
        std::string::npos);
}
