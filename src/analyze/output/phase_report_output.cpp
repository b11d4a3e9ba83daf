#include "output/phase_report_output.hpp"

#include <fmt/format.h>

#include "output/table_spec.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

struct Totals {
  std::int64_t gpu = 0;
  std::int64_t cpu = 0;
};

Totals reference_totals(const std::vector<RankPhases>& ranks) {
  Totals t;
  for (const auto& r : ranks) {
    t.gpu = sat_add(t.gpu, r.gpu_reference_ns);
    t.cpu = sat_add(t.cpu, r.cpu_reference_ns);
  }
  return t;
}

// The GPU time that phases other than "other" explain.
std::int64_t gpu_other_ns(const std::vector<PhaseSpread>& spreads) {
  std::int64_t other = 0;
  for (const auto& s : spreads) {
    if (s.gpu && s.phase == "other") other = s.total_ns;
  }
  return other;
}

// The phase spread table's one column list: text in the report's time scale `ms`, CSV and JSON
// in nanoseconds (they read no scale).
TableSpec<PhaseSpread> spread_columns(const Totals& totals, const TimeScale& ms) {
  using S = PhaseSpread;
  const auto scaled = [&ms](const std::string& what, std::string key, std::int64_t S::*field) {
    Column<S> c = field_column(ms.header(what), std::move(key), field);
    c.text = [ms, field](const S& s) { return Cell{ms(static_cast<double>(s.*field))}; };
    return c;
  };
  Column<S> domain;
  domain.header = domain.key = "domain";
  domain.value = [](const S& s) { return Cell{std::string(s.gpu ? "gpu" : "cpu")}; };
  Column<S> share_of;
  share_of.header = share_of.key = "share";
  share_of.unit = CellUnit::kShare;
  share_of.value = [totals](const S& s) {
    return Cell{share(s.total_ns, s.gpu ? totals.gpu : totals.cpu)};
  };
  return {field_column("phase", "name", &S::phase),
          domain,
          field_column("count", "count", &S::count),
          scaled("total", "total_ns", &S::total_ns),
          share_of,
          scaled("rank min", "rank_min_ns", &S::min_ns),
          scaled("median", "rank_median_ns", &S::median_ns),
          scaled("max", "rank_max_ns", &S::max_ns),
          field_column("slowest rank", "slowest_rank", &S::slowest_rank)};
}

// Per rank, the time of the domain's reference and of each of its phases.
TextTable rank_table(const std::vector<RankPhases>& ranks, const std::vector<PhaseSpread>& spreads,
                     const PhaseAssignment& phases, const TimeScale& ms, bool gpu) {
  TextTable t;
  t.columns = {"rank", ms.header(gpu ? "collective" : "span")};
  std::vector<std::uint16_t> ids;
  for (const auto& s : spreads) {
    if (s.gpu != gpu) continue;
    for (std::size_t p = 0; p < phases.phase_names.size(); ++p) {
      if (phases.phase_names[p] == s.phase) ids.push_back(static_cast<std::uint16_t>(p));
    }
    t.columns.push_back(s.phase);
  }
  for (const auto& r : ranks) {
    const std::int64_t reference = gpu ? r.gpu_reference_ns : r.cpu_reference_ns;
    const auto& by_phase = gpu ? r.gpu : r.cpu;
    std::vector<std::string> row = {std::to_string(r.rank), ms(reference)};
    for (auto p : ids) {
      row.push_back(
          fmt::format("{} ({})", ms(by_phase[p].ns), percent(share(by_phase[p].ns, reference))));
    }
    t.add_row(std::move(row));
  }
  return t;
}

}  // namespace

void render_phase_report(const PhaseReport& report, const PhaseAssignment& phases,
                         const PhaseReportWording& wording, OutputFormat format, std::string& out) {
  const auto& ranks = report.breakdown.ranks();
  const Totals totals = reference_totals(ranks);
  const std::int64_t other = gpu_other_ns(report.spreads);
  const TimeScale ms = time_scale_for(std::max(totals.gpu, totals.cpu));
  out += fmt::format("{} {} {} ({}); phases explain {}", wording.gpu_time, ms(totals.gpu), ms.unit,
                     wording.gpu_note, percent(share(sat_sub(totals.gpu, other), totals.gpu)));
  out += totals.cpu > 0 ? fmt::format("; {} {} {}\n\n", wording.cpu_time, ms(totals.cpu), ms.unit)
                        : "\n\n";
  const bool markdown = format == OutputFormat::kMarkdown;
  TextTable spread = spec_table(spread_columns(totals, ms), report.spreads, kTextView);
  spread.title = wording.spread_title;
  render_table(spread, format, out);
  if (!markdown) out += "\n";
  TextTable gpu = rank_table(ranks, report.spreads, phases, ms, true);
  gpu.title = wording.rank_title;
  render_table(gpu, format, out);
  if (wording.host_rank_title.empty() || totals.cpu == 0) return;
  if (!markdown) out += "\n";
  TextTable cpu = rank_table(ranks, report.spreads, phases, ms, false);
  cpu.title = wording.host_rank_title;
  render_table(cpu, format, out);
}

TextTable phase_report_csv(const PhaseReport& report) {
  const Totals totals = reference_totals(report.breakdown.ranks());
  return spec_table(spread_columns(totals, TimeScale{}), report.spreads, kCsvView);
}

void write_phase_report_json(JsonWriter& w, const PhaseReport& report,
                             const PhaseAssignment& phases) {
  const auto& ranks = report.breakdown.ranks();
  const Totals totals = reference_totals(ranks);
  w.field("gpu_collective_ns", totals.gpu);
  w.field("cpu_span_ns", totals.cpu);
  const std::int64_t other = gpu_other_ns(report.spreads);
  w.field("gpu_explained_share",
          totals.gpu > 0 ? share(sat_sub(totals.gpu, other), totals.gpu) : 0.0);
  const TableSpec<PhaseSpread> columns = spread_columns(totals, TimeScale{});
  w.objects("phases", report.spreads,
            [&](const PhaseSpread& s) { write_spec_fields(w, columns, s); });
  w.key("ranks");
  w.begin_array();
  for (const auto& r : ranks) {
    w.begin_object();
    w.field("rank", r.rank);
    w.field("gpu_collective_ns", r.gpu_reference_ns);
    w.field("cpu_span_ns", r.cpu_reference_ns);
    w.key("phases");
    w.begin_array();
    for (const bool gpu : {true, false}) {
      const auto& totals_by_phase = gpu ? r.gpu : r.cpu;
      for (std::size_t p = 0; p < totals_by_phase.size(); ++p) {
        if (totals_by_phase[p].ns == 0 && totals_by_phase[p].count == 0) continue;
        w.begin_object();
        w.field("name", phases.phase_names[p]);
        w.field("domain", gpu ? "gpu" : "cpu");
        w.field("ns", totals_by_phase[p].ns);
        w.field("share",
                share(totals_by_phase[p].ns, gpu ? r.gpu_reference_ns : r.cpu_reference_ns));
        w.field("count", totals_by_phase[p].count);
        w.end_object();
      }
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
}

}  // namespace npkit
