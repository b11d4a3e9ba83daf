#include <catch2/catch.hpp>

#include "output/html/page.hpp"
#include "unit/output/html/html_test_support.hpp"

using namespace npkit::html;
using npkit::test::count_of;

namespace {

ReportModel every_block() {
  ReportModel m;
  m.title = "report of <run & co>";
  m.subtitle = "sub";
  m.facts = {{"ranks", "2"}, {"env", "NCCL_ALGO=Ring"}};
  m.warnings = {"1 × stale KernelCh"};
  m.reduction = {"Timeline: one instance only."};
  Section s{"all-blocks", "All blocks", {}};
  s.blocks.emplace_back(Paragraph{"a <b> paragraph"});
  npkit::TextTable t;
  t.title = "table";
  t.columns = {"name", "value"};
  t.add_row({"x", "12.5"});
  t.add_row({"y<", "-"});
  s.blocks.emplace_back(Table{t, "a note"});
  StackedBars bars;
  bars.title = "bars";
  bars.segments = {"a"};
  bars.bars = {"r0"};
  bars.values = {{1}};
  s.blocks.emplace_back(bars);
  LinePlot line;
  line.title = "line";
  line.series = {{"s", {{1024, 1, ""}}}};
  s.blocks.emplace_back(line);
  Heatmap h;
  h.title = "heat";
  h.rows = {"r"};
  h.columns = {"c"};
  h.values = {{1}};
  s.blocks.emplace_back(h);
  Timeline tl;
  tl.title = "timeline";
  tl.groups = {"rank 0"};
  tl.rows = {{"ch 0", 0}};
  tl.spans = {{0, 0, 10, "x", "", ""}};
  s.blocks.emplace_back(tl);
  RegressionBars r;
  r.title = "regression";
  r.bars = {{"1 KiB", 1, -2, 2, ""}};
  s.blocks.emplace_back(r);
  s.blocks.emplace_back(FindingList{
      {{"warning", "rank 1 is a straggler", {"last in 9 of 10"}, "check rank 1's input pipeline"}},
      ""});
  m.sections.push_back(std::move(s));
  m.sections.push_back(Section{"empty", "Findings", {FindingList{{}, "No finding."}}});
  return m;
}

}  // namespace

TEST_CASE("html: the page holds every block, escaped, with no external reference", "[html]") {
  const std::string page = render_report_html(every_block());
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.find("<title>report of &lt;run &amp; co&gt;</title>") != std::string::npos);
  CHECK(page.find("<run & co>") == std::string::npos);
  CHECK(count_of(page, "<svg class=\"plot ") == 5);
  CHECK(count_of(page, "<figure>") == 5);
  CHECK(count_of(page, "<table class=\"data\">") == 1);
  CHECK(page.find("<td class=\"num\">12.5</td>") != std::string::npos);
  CHECK(page.find("<td>y&lt;</td>") != std::string::npos);
  CHECK(page.find("<p>a &lt;b&gt; paragraph</p>") != std::string::npos);
  CHECK(page.find("<li class=\"finding severity-warning\">") != std::string::npos);
  CHECK(page.find("Next step: check rank 1&#39;s input pipeline") != std::string::npos);
  CHECK(page.find("<p class=\"no-findings\">No finding.</p>") != std::string::npos);
  CHECK(page.find("<section id=\"all-blocks\">") != std::string::npos);
  CHECK(page.find("<a href=\"#empty\">Findings</a>") != std::string::npos);
  CHECK(page.find("1 × stale KernelCh") != std::string::npos);
  CHECK(page.find("Timeline: one instance only.") != std::string::npos);
  // Self-contained: nothing is fetched (the SVG namespace URI is a name, not a request).
  CHECK(page.find("src=") == std::string::npos);
  CHECK(page.find("<link") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
  CHECK(page.find("url(") == std::string::npos);
  CHECK(page.find("href=\"http") == std::string::npos);
  // The error recorder runs before anything else can fail.
  const auto error_script = page.find("addEventListener('error'");
  REQUIRE(error_script != std::string::npos);
  CHECK(error_script < page.find("<style>"));
  CHECK(error_script < page.find("<body>"));
  CHECK(count_of(page, "<script>") == 2);
}

TEST_CASE("html: an empty model is still a whole page", "[html]") {
  ReportModel m;
  m.title = "empty";
  const std::string page = render_report_html(m);
  CHECK(page.find("<h1>empty</h1>") != std::string::npos);
  CHECK(page.find("<nav>") == std::string::npos);
  CHECK(page.find("</html>") != std::string::npos);
}

namespace {

// The fill of the first <rect> whose tooltip starts with `title`.
std::string fill_of(const std::string& page, const std::string& title) {
  const auto t = page.find("<title>" + title);
  REQUIRE(t != std::string::npos);
  const auto fill = page.rfind("fill=\"", t);
  REQUIRE(fill != std::string::npos);
  return page.substr(fill + 6, 7);
}

}  // namespace

TEST_CASE("html page: a phase has one colour on every chart of the page", "[html]") {
  using namespace npkit::html;
  // GPU bars list "other" second, CPU bars first, the timeline after "sync": by index each
  // chart would give it another colour.
  StackedBars gpu;
  gpu.title = "GPU";
  gpu.segments = {"reduce_scatter", "other"};
  gpu.bars = {"rank 0"};
  gpu.values = {{10, 20}};
  StackedBars cpu;
  cpu.title = "CPU";
  cpu.segments = {"other", "net_send"};
  cpu.bars = {"rank 0"};
  cpu.values = {{30, 40}};
  Timeline tl;
  tl.title = "timeline";
  tl.groups = {"rank 0"};
  tl.rows = {TimelineRow{"ch 0", 0}};
  tl.spans = {TimelineSpan{0, 0, 100, "sync", "", ""}, TimelineSpan{0, 100, 200, "other", "", ""}};
  ReportModel m;
  m.title = "colours";
  m.sections.push_back(Section{"a", "A", {gpu, cpu, tl}});
  const std::string page = render_report_html(m);

  const std::string other = fill_of(page, "rank 0 · other:");
  CHECK(fill_of(page.substr(page.find("<h3>CPU</h3>")), "rank 0 · other:") == other);
  CHECK(fill_of(page.substr(page.find("<h3>timeline</h3>")), "other") == other);
  CHECK(fill_of(page, "rank 0 · reduce_scatter:") != other);
  CHECK(fill_of(page.substr(page.find("<h3>CPU</h3>")), "rank 0 · net_send:") != other);
}
