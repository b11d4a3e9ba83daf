#include "output/html/bandwidth_blocks.hpp"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "output/bandwidth_columns.hpp"
#include "output/html/svg.hpp"
#include "output/render.hpp"

namespace npkit::html {
namespace {

std::string choice(const std::string& algo, const std::string& proto) {
  if (algo.empty() && proto.empty()) return "-";
  return or_dash(algo) + "/" + or_dash(proto);
}

// Series in order of first appearance.
struct SeriesSet {
  std::vector<PlotSeries> series;
  std::map<std::string, std::size_t> index;
  PlotSeries& of(const std::string& name) {
    auto [it, added] = index.emplace(name, series.size());
    if (added) series.push_back(PlotSeries{name, {}});
    return series[it->second];
  }
};

}  // namespace

LinePlot size_plot(const std::string& title, const std::string& note, YAxis y_axis, Unit y_unit,
                   const std::string& y_label) {
  LinePlot p;
  p.title = title;
  p.note = note;
  p.x_label = "size (S, bytes)";
  p.y_label = y_label;
  p.x_axis = XAxis::kLog2Bytes;
  p.x_unit = Unit::kBytes;
  p.y_axis = y_axis;
  p.y_unit = y_unit;
  return p;
}

std::vector<Block> bandwidth_blocks(const std::vector<BandwidthRow>& rows,
                                    const std::vector<SwitchPoint>& switches, const Run& run) {
  std::vector<Block> out;
  const bool several_comms = [&] {
    for (const auto& r : rows) {
      if (r.comm_hash != rows.front().comm_hash) return true;
    }
    return false;
  }();
  const TableSpec<BandwidthRow> columns = bandwidth_columns(run);
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t end = i;
    while (end < rows.size() && rows[end].comm_hash == rows[i].comm_hash &&
           rows[end].func == rows[i].func) {
      ++end;
    }
    const BandwidthRow& first = rows[i];
    const std::string who =
        several_comms ? fmt::format("{} (comm {:016x})", first.func, first.comm_hash) : first.func;
    SeriesSet busbw;
    SeriesSet time;
    TextTable table = spec_table(columns, rows, kPageView, [&](const BandwidthRow& r) {
      return r.comm_hash == first.comm_hash && r.func == first.func;
    });
    table.title = fmt::format("{}: nccl-tests-style rows (n = {})", who, first.nranks);
    for (std::size_t k = i; k < end; ++k) {
      const BandwidthRow& r = rows[k];
      if (r.ranks.empty()) continue;
      const std::string name = choice(r.algo, r.proto);
      const std::string detail = fmt::format("{} instance(s), {} rank(s), algbw {} GB/s",
                                             r.instances, r.ranks.size(), gbps(r.algbw_gbps));
      busbw.of(name).points.push_back(
          {static_cast<double>(r.bytes), r.busbw_gbps, detail + ", time " + us(r.time_ns) + " us"});
      time.of(name).points.push_back({static_cast<double>(r.bytes), r.time_ns,
                                      detail + ", busbw " + gbps(r.busbw_gbps) + " GB/s"});
    }
    std::vector<PlotMarker> markers;
    std::string switch_text;
    for (const auto& s : switches) {
      if (s.comm_hash != first.comm_hash || s.func != first.func) continue;
      const std::string label =
          choice(s.from_algo, s.from_proto) + " → " + choice(s.to_algo, s.to_proto);
      markers.push_back({static_cast<double>(s.at_bytes), label});
      switch_text += fmt::format("{}{} from {} (busbw {} → {} GB/s)",
                                 switch_text.empty() ? "" : "; ", label, format_bytes(s.at_bytes),
                                 gbps_or_dash(s.busbw_below_gbps), gbps_or_dash(s.busbw_at_gbps));
    }
    std::string source = "a rank's time of an instance";
    for (const auto& c : run.comms) {
      if (c.hash == first.comm_hash && !c.time_source.empty()) source = c.time_source;
    }
    const std::string note = "One point per (size, algorithm/protocol) row; time = " + source +
                             ", median over instances, mean over ranks, as in `bandwidth`. "
                             "Dashed lines: sizes where NCCL's choice changes.";
    if (busbw.series.empty()) {
      // Nothing to draw: the table says which rows lack a time.
      out.emplace_back(Paragraph{who + ": no instance has a GPU time, so nothing is plotted."});
    } else {
      LinePlot bw = size_plot(who + ": bus bandwidth vs size", note, YAxis::kLinear, Unit::kGbps,
                              "busbw (GB/s)");
      bw.series = std::move(busbw.series);
      bw.markers = markers;
      LinePlot lat = size_plot(who + ": time vs size", note, YAxis::kLog10, Unit::kNanoseconds,
                               "time per operation");
      lat.series = std::move(time.series);
      lat.markers = std::move(markers);
      out.emplace_back(std::move(bw));
      out.emplace_back(std::move(lat));
    }
    out.emplace_back(Table{std::move(table), {}});
    if (!switch_text.empty()) {
      out.emplace_back(Paragraph{"Switch points of " + who + ": " + switch_text + "."});
    }
    i = end;
  }
  return out;
}

}  // namespace npkit::html
