#include "output/bandwidth_columns.hpp"

#include <fmt/format.h>

#include "output/run_text.hpp"
#include "run/nccl_names.hpp"

namespace npkit {
namespace {

using R = BandwidthRow;
using Read = std::function<Cell(const R&)>;

constexpr unsigned kNotOnPage = kTextView | kCsvView | kJsonView;

Column<R> column(std::string header, std::string key, Read value, unsigned shown = kEveryView,
                 CellUnit unit = CellUnit::kPlain) {
  Column<R> c;
  c.header = std::move(header);
  c.key = std::move(key);
  c.unit = unit;
  c.shown = shown;
  c.value = std::move(value);
  return c;
}

Column<R> with_text(Column<R> c, Read text) {
  c.text = std::move(text);
  return c;
}

Column<R> when_any(Column<R> c) {
  c.when_any = true;
  return c;
}

bool timed(const R& r) {
  return !r.ranks.empty();
}
bool has_period(const R& r) {
  return r.period_ns.has_value();
}
bool has_true_time(const R& r) {
  return r.true_time_ns.has_value();
}
bool has_compute(const R& r) {
  return r.compute_ns.has_value();
}

// A bandwidth of the row, none where `has` says the row lacks the time it rests on.
Column<R> bandwidth(std::string header, std::string key, bool (*has)(const R&), double R::*field,
                    unsigned shown = kEveryView) {
  return column(
      std::move(header), std::move(key),
      [has, field](const R& r) { return has(r) ? Cell{r.*field} : Cell{}; }, shown,
      CellUnit::kGbps);
}

Column<R> nanoseconds(std::string header, std::string key, std::optional<double> R::*field,
                      unsigned shown = kEveryView) {
  return field_column(std::move(header), std::move(key), field, CellUnit::kNanoseconds, shown);
}

}  // namespace

TableSpec<BandwidthRow> bandwidth_columns(const Run& run) {
  constexpr auto kPlain = CellUnit::kPlain;
  const Run* in = &run;
  return {
      column(
          "comm", "comm",
          [in](const R& r) {
            for (const auto& c : in->comms) {
              if (c.hash == r.comm_hash) return Cell{comm_key(c)};
            }
            return Cell{std::string()};
          },
          kDataViews),
      field_column("collective", "collective", &R::func, kPlain, kNotOnPage),
      field_column("size (B)", "size_bytes", &R::bytes),
      with_text(field_column("count", "count", &R::count),
                [](const R& r) { return r.count > 0 ? Cell{r.count} : Cell{}; }),
      with_text(field_column("type", "type", &R::type),
                [](const R& r) {
                  const std::string name(nccl_tests_type_name(r.type));
                  return name.empty() ? Cell{} : Cell{name};
                }),
      name_column("algo", "algo", &R::algo),
      name_column("proto", "proto", &R::proto),
      field_column("nranks", "nranks", &R::nranks, kPlain, kDataViews),
      field_column("instances", "instances", &R::instances),
      field_column("timed", "timed_instances", &R::timed_instances),
      field_column("not sampled", "not_sampled_instances", &R::not_sampled_instances, kPlain,
                   kDataViews),
      field_column("stale", "stale_instances", &R::stale_instances, kPlain, kDataViews),
      field_column("host-disagree", "host_disagree_instances", &R::host_disagree_instances, kPlain,
                   kDataViews),
      with_text(column("ranks", "ranks_timed", [](const R& r) { return cell_of(r.ranks.size()); }),
                [](const R& r) { return Cell{fmt::format("{}/{}", r.ranks.size(), r.nranks)}; }),
      column(
          "time (us)", "time_ns", [](const R& r) { return timed(r) ? Cell{r.time_ns} : Cell{}; },
          kEveryView, CellUnit::kNanoseconds),
      bandwidth("algbw (GB/s)", "algbw_gbps", timed, &R::algbw_gbps),
      bandwidth("busbw (GB/s)", "busbw_gbps", timed, &R::busbw_gbps),
      field_column("period pairs", "period_pairs", &R::period_pairs, kPlain, kDataViews),
      nanoseconds("period (us)", "period_ns", &R::period_ns),
      bandwidth("period algbw", "period_algbw_gbps", has_period, &R::period_algbw_gbps, kNotOnPage),
      bandwidth("period busbw", "period_busbw_gbps", has_period, &R::period_busbw_gbps),
      field_column("true instances", "true_instances", &R::true_instances, kPlain, kDataViews),
      nanoseconds("true time (us)", "true_time_ns", &R::true_time_ns),
      bandwidth("true algbw", "true_algbw_gbps", has_true_time, &R::true_algbw_gbps, kNotOnPage),
      bandwidth("true busbw", "true_busbw_gbps", has_true_time, &R::true_busbw_gbps),
      field_column("channels", "channels", &R::channels, kPlain, kDataViews),
      when_any(nanoseconds("compute (us)", "compute_ns", &R::compute_ns, kNotOnPage)),
      when_any(bandwidth("compute busbw", "compute_busbw_gbps", has_compute, &R::compute_busbw_gbps,
                         kNotOnPage)),
      column(
          "flags", "flags", [](const R& r) { return Cell{r.flags()}; }, kNotOnPage),
  };
}

}  // namespace npkit
