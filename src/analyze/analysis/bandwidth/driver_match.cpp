#include "analysis/bandwidth/driver_match.hpp"

#include <map>
#include <set>

#include "run/nccl_names.hpp"

namespace npkit {
namespace {

struct DriverFigures {
  std::uint32_t rows = 0;
  double time_sum_ns = 0;
  double busbw_sum_gbps = 0;
};

double ratio(double a, double b) {
  return a > 0 && b > 0 ? a / b : 0.0;
}

}  // namespace

bool driver_row_selected(std::string_view coll, const DriverResult& row) {
  return coll == "all" || coll == coll_key(parse_nccl_func(row.func));
}

DriverComparison compare_with_driver(const std::vector<BandwidthRow>& ours,
                                     const DriverResults& driver, std::string_view coll,
                                     std::string path) {
  DriverComparison out;
  out.path = std::move(path);
  std::map<DriverKey, DriverFigures> figures;
  std::vector<DriverKey> order;
  for (const auto& r : driver.rows) {
    if (!driver_row_selected(coll, r)) continue;
    if (!r.out_of_place) {
      ++out.in_place_only;
      continue;
    }
    const DriverKey key{r.func, r.bytes, r.type};
    DriverFigures& f = figures[key];
    if (f.rows == 0) order.push_back(key);
    ++f.rows;
    f.time_sum_ns += r.out_of_place->time_ns;
    f.busbw_sum_gbps += r.out_of_place->busbw_gbps;
  }
  std::set<DriverKey> used;
  for (const auto& row : ours) {
    DriverMatch m;
    m.ours = &row;
    auto found = figures.end();
    if (row.type.empty()) {
      for (auto it = figures.begin(); it != figures.end(); ++it) {
        if (it->first.func == row.func && it->first.bytes == row.bytes) {
          found = it;
          m.type_assumed = true;
          break;
        }
      }
    } else {
      found = figures.find(DriverKey{row.func, row.bytes, row.type});
    }
    if (found != figures.end()) {
      used.insert(found->first);
      const DriverFigures& f = found->second;
      m.driver_rows = f.rows;
      m.driver_time_ns = f.time_sum_ns / f.rows;
      m.driver_busbw_gbps = f.busbw_sum_gbps / f.rows;
      m.time_ratio = row.ranks.empty() ? 0.0 : ratio(m.driver_time_ns, row.time_ns);
      m.period_ratio = row.period_ns ? ratio(m.driver_time_ns, *row.period_ns) : 0.0;
    }
    out.matches.push_back(m);
  }
  for (const auto& key : order) {
    if (!used.contains(key)) out.unmatched_driver.push_back(key);
  }
  return out;
}

}  // namespace npkit
