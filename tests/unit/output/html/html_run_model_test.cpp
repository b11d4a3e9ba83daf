// The HTML report model (output/html/run_report_model.hpp) of tests/golden/cases/npkt_ring/dump,
// whose spec (dump.spec next to it) computes every number used here by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <variant>

#include "analysis/report/run_report.hpp"
#include "import/npkt/communicator_join.hpp"
#include "import/npkt/npkt_channel_spans.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "import/run_input.hpp"
#include "output/html/channel_timeline.hpp"
#include "output/html/instance_choice.hpp"
#include "output/html/run_report_model.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"
#include "unit/import/npkt/profiler_test_captures.hpp"

using namespace npkit;
using namespace npkit::html;

namespace {

const std::string kRing = "tests/golden/cases/npkt_ring/dump";

struct Loaded {
  std::vector<std::unique_ptr<RankCapture>> files;
  std::vector<Communicator> comms;
};

Loaded load_ring() {
  Loaded l;
  for (int r = 0; r < 2; ++r) {
    auto dump = read_npkt_file(
        test::source_path(kRing + "/npkit_00000000c0ffee01_rank" + std::to_string(r) + ".npkt"));
    REQUIRE(dump.ok());
    l.files.push_back(build_rank_capture(std::move(*dump)));
  }
  std::vector<const RankCapture*> raw;
  for (const auto& f : l.files) raw.push_back(f.get());
  Diagnostics d;
  l.comms = join_communicators(raw, d);
  return l;
}

// The page model as `report --format html` builds it, without the timeline.
struct Modelled {
  std::unique_ptr<RunInput> input;
  Run run;
  std::optional<RunReport> report;  // refers to `run`
  ReportModel model;
};

std::unique_ptr<Modelled> model_of(const std::string& relative) {
  ImportOptions o;
  o.path = test::source_path(relative);
  auto input = open_run_input(o);
  REQUIRE(input.ok());
  auto out = std::make_unique<Modelled>();
  out->input = std::move(*input);
  RunInput& in = *out->input;
  auto sink = read_run<RunReportSink>(
      in, out->run, [&] { return RunReportSink(in.phases(), in.span_names().size()); });
  REQUIRE(sink.ok());
  out->report.emplace(build_run_report(out->run, std::move(*sink), in.has_spans(), in.phases(),
                                       in.span_names(), Thresholds{}, in.diagnostics()));
  RunReportInput model;
  model.path = "ring";
  model.facts = in.facts();
  model.phases = &in.phases();
  model.report = &*out->report;
  model.timeline_absent = "none";
  out->model = build_run_report_model(std::move(model));
  return out;
}

template <typename T>
std::vector<const T*> blocks_of(const ReportModel& m, const std::string& section) {
  std::vector<const T*> out;
  for (const auto& s : m.sections) {
    if (s.id != section) continue;
    for (const auto& b : s.blocks) {
      if (const T* t = std::get_if<T>(&b)) out.push_back(t);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("html: the model of a .npkt capture: facts come from the files' metadata", "[html]") {
  const auto modelled = model_of(kRing);
  const ReportModel* m = &modelled->model;
  auto fact = [&](const std::string& name) {
    for (const auto& f : m->facts) {
      if (f.name == name) return f.value;
    }
    return std::string("(absent)");
  };
  CHECK(fact("hosts") == "node0 (2 files)");
  CHECK(fact("GPUs") == "NVIDIA H200 (2 files)");
  CHECK(fact("NCCL") == "2.28.9 (2 files); profiler API v5");
  CHECK(fact("communicator") == "comm 00000000c0ffee01 (train), 2 of 2 rank(s)");
}

TEST_CASE("html: the model of a .npkt capture: per-rank bars hold the hand-computed times",
          "[html]") {
  const auto modelled = model_of(kRing);
  const ReportModel* m = &modelled->model;
  const auto bars = blocks_of<StackedBars>(*m, "phases");
  REQUIRE(bars.size() == 3);  // by collective, proxy phases, ring split
  // GPU spans: rank 0 10 + 100 us, rank 1 12 + 110 us.
  REQUIRE(bars[0]->segments == std::vector<std::string>{"AllReduce"});
  CHECK(bars[0]->values[0][0] == 110000);
  CHECK(bars[0]->values[1][0] == 122000);
  // Proxy steps: rank 0 net_send 40, net_recv 0, sync 17, other 1 us; rank 1 0, 22, 7, 0.
  CHECK(bars[1]->values[0] == std::vector<double>{40000, 0, 17000, 1000});
  CHECK(bars[1]->values[1] == std::vector<double>{0, 22000, 7000, 0});
  // Ring split: rank 0 29 / 29 us; rank 1 29 / 0 us.
  CHECK(bars[2]->values[0] == std::vector<double>{29000, 29000, 0});
  CHECK(bars[2]->values[1] == std::vector<double>{29000, 0, 0});
}

TEST_CASE("html: the model of a .npkt capture: bandwidth plots mark the LL to SIMPLE switch",
          "[html]") {
  const auto modelled = model_of(kRing);
  const ReportModel* m = &modelled->model;
  const auto plots = blocks_of<LinePlot>(*m, "bandwidth");
  REQUIRE(plots.size() == 2);
  const LinePlot& bw = *plots[0];
  REQUIRE(bw.series.size() == 2);
  CHECK(bw.series[0].name == "RING/LL");
  REQUIRE(bw.series[0].points.size() == 1);
  CHECK(bw.series[0].points[0].x == 8192);
  CHECK(bw.series[0].points[0].y == Approx(8192.0 / 11000));  // mean(10, 12) us
  CHECK(bw.series[1].name == "RING/SIMPLE");
  CHECK(bw.series[1].points[0].y == Approx(1048576.0 / 105000));  // mean(100, 110) us
  REQUIRE(bw.markers.size() == 1);
  CHECK(bw.markers[0].x == 1048576);
  CHECK(bw.markers[0].label == "RING/LL → RING/SIMPLE");
  const LinePlot& lat = *plots[1];
  CHECK(lat.y_axis == YAxis::kLog10);
  CHECK(lat.series[1].points[0].y == Approx(105000));
  const auto tables = blocks_of<Table>(*m, "bandwidth");
  REQUIRE(tables.size() == 1);
  CHECK(tables[0]->table.rows.size() == 2);
}

TEST_CASE("html: the model of a .npkt capture: heatmaps show who is late and who waits", "[html]") {
  const auto modelled = model_of(kRing);
  const ReportModel* m = &modelled->model;
  const auto maps = blocks_of<Heatmap>(*m, "waits");
  REQUIRE(maps.size() == 2);
  const Heatmap& late = *maps[0];
  const Heatmap& wait = *maps[1];
  REQUIRE(late.columns.size() == 2);
  // seq 0: both arrive at host 10000; seq 1: rank 0 at 50000, rank 1 at 55000 (one host: no
  // offset). Lateness = arrival - first; wait = last - arrival, capped by the rank's duration.
  CHECK(late.values[0] == std::vector<double>{0, 0});
  CHECK(late.values[1] == std::vector<double>{0, 5000});
  CHECK(wait.values[0] == std::vector<double>{0, 5000});
  CHECK(wait.values[1] == std::vector<double>{0, 0});
  CHECK(late.columns[1] == "#1 AllReduce seq 1, 1 MiB");
}

TEST_CASE("html: the timeline shows the median instance unless one is chosen", "[html]") {
  const Loaded l = load_ring();
  const CrossRankInput input = npkit::test::cross_rank_of(l.comms[0]);
  // Windows: seq 0 10000..22000 (12 us), seq 1 50000..165000 (115 us); the lower median of two
  // is the shorter.
  auto median = choose_instance(input.instances, std::nullopt);
  REQUIRE(median.ok());
  CHECK(*median == 0);
  auto chosen = choose_instance(input.instances, 1);
  REQUIRE(chosen.ok());
  CHECK(*chosen == 1);
  auto bad = choose_instance(input.instances, 2);
  REQUIRE(!bad.ok());
  CHECK(bad.error().message.find("2 collective instance(s) were joined across ranks (0..1)") !=
        std::string::npos);

  const auto window = window_of(input.instances[1]);
  REQUIRE(window.has_value());
  CHECK(window->end_ns - window->start_ns == 115000);
  const Timeline t =
      channel_timeline(npkt_channel_spans(l.comms[0], window->start_ns, window->end_ns),
                       l.comms[0].nranks, *window, "title", "chosen.");
  // seq 1 on the GPU: rank 0 ch 0 50000..150000, ch 1 52000..148000; rank 1 ch 0
  // 55000..165000, ch 1 56000..160000 (host = gpu - offset, offsets 135000 and 140000).
  std::size_t kernel = 0;
  bool rank1_ch0 = false;
  for (const auto& s : t.spans) {
    if (s.category != "AllReduce") continue;
    ++kernel;
    const auto& row = t.rows[s.row];
    if (t.groups[row.group] == "rank 1" && row.label == "GPU ch 0") {
      rank1_ch0 = true;
      CHECK(s.start_ns - t.origin_ns == 55000 - 50000);
      CHECK(s.end_ns - s.start_ns == 110000);
    }
  }
  CHECK(kernel == 4);
  CHECK(rank1_ch0);
  // Rank 0's send ProxyOp (host 40000..140000) overlaps the window.
  bool proxy = false;
  for (const auto& s : t.spans) proxy = proxy || s.category == "proxy send";
  CHECK(proxy);
  CHECK(t.note.rfind("chosen. Drawn:", 0) == 0);
}

TEST_CASE("html: report --iteration picks the timeline's instance", "[html]") {
  const test::TempDir dir;
  const std::string page = dir.file("ring.html");
  const auto run = test::run_cli({"report", test::source_path(kRing), "--format", "html",
                                  "--iteration", "1", "-o", page, "-q"});
  REQUIRE(run.exit_code == 0);
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("Timeline of AllReduce seq 1 (1 MiB)") != std::string::npos);
  CHECK(text.str().find("chosen with --iteration") != std::string::npos);
  const auto bad = test::run_cli({"report", test::source_path(kRing), "--format", "html",
                                  "--iteration", "7", "-o", page, "-q"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--iteration 7") != std::string::npos);
}
