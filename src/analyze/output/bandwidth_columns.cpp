#include "output/bandwidth_columns.hpp"

#include <fmt/format.h>

#include <optional>
#include <type_traits>

#include "output/run_text.hpp"
#include "run/nccl_names.hpp"

namespace npkit {
namespace {

using Read = std::function<Cell(const BandwidthRow&)>;
using Has = bool (*)(const BandwidthRow&);

constexpr unsigned kNotOnPage = kTextView | kCsvView | kJsonView;

Column<BandwidthRow> column(std::string header, std::string key, Read value,
                            unsigned shown = kEveryView, CellUnit unit = CellUnit::kPlain) {
  Column<BandwidthRow> c;
  c.header = std::move(header);
  c.key = std::move(key);
  c.unit = unit;
  c.shown = shown;
  c.value = std::move(value);
  return c;
}

Column<BandwidthRow> with_text(Column<BandwidthRow> c, Read text) {
  c.text = std::move(text);
  return c;
}

Column<BandwidthRow> when_any(Column<BandwidthRow> c) {
  c.when_any = true;
  return c;
}

template <class T>
Column<BandwidthRow> number(std::string header, std::string key, T BandwidthRow::*field,
                            unsigned shown = kEveryView) {
  return column(
      std::move(header), std::move(key),
      [field](const BandwidthRow& r) {
        if constexpr (std::is_signed_v<T>) {
          return Cell{static_cast<std::int64_t>(r.*field)};
        } else {
          return Cell{static_cast<std::uint64_t>(r.*field)};
        }
      },
      shown);
}

// NCCL's algorithm or protocol: none in text where the input names none.
Column<BandwidthRow> choice(std::string header, std::string key, std::string BandwidthRow::*field) {
  return with_text(
      column(std::move(header), std::move(key),
             [field](const BandwidthRow& r) { return Cell{r.*field}; }),
      [field](const BandwidthRow& r) { return (r.*field).empty() ? Cell{} : Cell{r.*field}; });
}

bool timed(const BandwidthRow& r) {
  return !r.ranks.empty();
}
bool has_period(const BandwidthRow& r) {
  return r.period_ns.has_value();
}
bool has_true_time(const BandwidthRow& r) {
  return r.true_time_ns.has_value();
}
bool has_compute(const BandwidthRow& r) {
  return r.compute_ns.has_value();
}

Column<BandwidthRow> optional_ns(std::string header, std::string key,
                                 std::optional<double> BandwidthRow::*field,
                                 unsigned shown = kEveryView) {
  return column(
      std::move(header), std::move(key),
      [field](const BandwidthRow& r) { return r.*field ? Cell{*(r.*field)} : Cell{}; }, shown,
      CellUnit::kNanoseconds);
}

Column<BandwidthRow> bandwidth(std::string header, std::string key, Has has,
                               double BandwidthRow::*field, unsigned shown = kEveryView) {
  return column(
      std::move(header), std::move(key),
      [has, field](const BandwidthRow& r) { return has(r) ? Cell{r.*field} : Cell{}; }, shown,
      CellUnit::kGbps);
}

}  // namespace

TableSpec<BandwidthRow> bandwidth_columns(const Run& run) {
  using R = BandwidthRow;
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
      column(
          "collective", "collective", [](const R& r) { return Cell{r.func}; }, kNotOnPage),
      number("size (B)", "size_bytes", &R::bytes),
      with_text(number("count", "count", &R::count),
                [](const R& r) { return r.count > 0 ? Cell{r.count} : Cell{}; }),
      with_text(column("type", "type", [](const R& r) { return Cell{r.type}; }),
                [](const R& r) {
                  const std::string name(nccl_tests_type_name(r.type));
                  return name.empty() ? Cell{} : Cell{name};
                }),
      choice("algo", "algo", &R::algo),
      choice("proto", "proto", &R::proto),
      number("nranks", "nranks", &R::nranks, kDataViews),
      number("instances", "instances", &R::instances),
      number("timed", "timed_instances", &R::timed_instances),
      number("stale", "stale_instances", &R::stale_instances, kDataViews),
      number("host-disagree", "host_disagree_instances", &R::host_disagree_instances, kDataViews),
      with_text(column("ranks", "ranks_timed",
                       [](const R& r) { return Cell{static_cast<std::uint64_t>(r.ranks.size())}; }),
                [](const R& r) { return Cell{fmt::format("{}/{}", r.ranks.size(), r.nranks)}; }),
      column(
          "time (us)", "time_ns", [](const R& r) { return timed(r) ? Cell{r.time_ns} : Cell{}; },
          kEveryView, CellUnit::kNanoseconds),
      bandwidth("algbw (GB/s)", "algbw_gbps", timed, &R::algbw_gbps),
      bandwidth("busbw (GB/s)", "busbw_gbps", timed, &R::busbw_gbps),
      number("period pairs", "period_pairs", &R::period_pairs, kDataViews),
      optional_ns("period (us)", "period_ns", &R::period_ns),
      bandwidth("period algbw", "period_algbw_gbps", has_period, &R::period_algbw_gbps, kNotOnPage),
      bandwidth("period busbw", "period_busbw_gbps", has_period, &R::period_busbw_gbps),
      number("true instances", "true_instances", &R::true_instances, kDataViews),
      optional_ns("true time (us)", "true_time_ns", &R::true_time_ns),
      bandwidth("true algbw", "true_algbw_gbps", has_true_time, &R::true_algbw_gbps, kNotOnPage),
      bandwidth("true busbw", "true_busbw_gbps", has_true_time, &R::true_busbw_gbps),
      number("channels", "channels", &R::channels, kDataViews),
      when_any(optional_ns("compute (us)", "compute_ns", &R::compute_ns, kNotOnPage)),
      when_any(bandwidth("compute busbw", "compute_busbw_gbps", has_compute, &R::compute_busbw_gbps,
                         kNotOnPage)),
      column(
          "flags", "flags", [](const R& r) { return Cell{r.flags()}; }, kNotOnPage),
  };
}

}  // namespace npkit
