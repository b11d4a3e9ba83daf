#include "real/sync_checks.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace npkit::test {
namespace {

using simdjson::dom::element;

double max_of(const std::vector<double>& v) {
  REQUIRE_FALSE(v.empty());
  return *std::max_element(v.begin(), v.end());
}

bool near(element e, double expected, double tolerance) {
  return std::abs(e.get_double().value() - expected) <= tolerance;
}

std::string upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

void check_sync(element holder, const plain::Sync& s) {
  CHECK(holder["join_gaps"].get_array().size() == 0);
  element alignment = holder["alignment"];
  CHECK(alignment["same_host_violations"].get_uint64().value() == s.violations);
  CHECK(near(alignment["same_host_violation_max_ns"], static_cast<double>(s.violation_max_ns), 2));
  element sync = holder["sync"];
  CHECK(sync["instances_compared"].get_uint64().value() == s.compared);

  std::size_t funcs = 0;
  for (element c : sync["collectives"].get_array()) {
    // The report names a collective by its NCCL function (AllReduce); the plain recount of
    // event records by the event the phase map gives that function (ALLREDUCE).
    const std::string func(c["collective"].get_string().value());
    INFO("sync of " << func);
    const auto same = [&](const auto& entry) { return upper(entry.first) == upper(func); };
    REQUIRE(std::count_if(s.funcs.begin(), s.funcs.end(), same) == 1);
    const plain::FuncSync& f = std::find_if(s.funcs.begin(), s.funcs.end(), same)->second;
    ++funcs;
    const auto n = static_cast<double>(f.instances);
    CHECK(c["instances"].get_uint64().value() == f.instances);
    CHECK(near(c["spread_median_ns"], plain::median(f.spread), 2));
    CHECK(near(c["spread_max_ns"], max_of(f.spread), 2));
    CHECK(near(c["true_duration_median_ns"], plain::median(f.true_duration), 2));
    CHECK(near(c["wait_ns"], static_cast<double>(f.wait_ns), 2 * n));
  }
  CHECK(funcs == s.funcs.size());

  std::vector<std::pair<std::int32_t, const plain::RankSync*>> order;
  for (element r : sync["ranks"].get_array()) {
    const auto rank = static_cast<std::int32_t>(r["rank"].get_int64().value());
    INFO("sync of rank " << rank);
    REQUIRE(s.ranks.count(rank) == 1);
    const plain::RankSync& x = s.ranks.at(rank);
    order.emplace_back(rank, &x);
    const auto n = static_cast<double>(x.instances);
    CHECK(r["instances"].get_uint64().value() == x.instances);
    CHECK(r["arrived_last"].get_uint64().value() == x.arrived_last);
    CHECK(near(r["skew_median_ns"], plain::median(x.skew), 2));
    CHECK(near(r["skew_max_ns"], max_of(x.skew), 2));
    CHECK(near(r["wait_ns"], static_cast<double>(x.wait_ns), 2 * n));
    CHECK(near(r["busy_ns"], static_cast<double>(x.busy_ns), 2 * n));
    CHECK(r["wait_share"].get_double().value() ==
          Approx(static_cast<double>(x.wait_ns) / static_cast<double>(x.busy_ns)).epsilon(1e-3));
    CHECK(near(r["margin_median_ns"], plain::median(x.margins), 2));
    CHECK(near(r["margin_max_ns"], max_of(x.margins), 2));
  }
  CHECK(order.size() == s.ranks.size());

  // Stragglers: most often last first, then the larger median margin, then the lower rank.
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.second->arrived_last != b.second->arrived_last) {
      return a.second->arrived_last > b.second->arrived_last;
    }
    return plain::median(a.second->margins) > plain::median(b.second->margins);
  });
  std::vector<std::int64_t> expected;
  for (const auto& [rank, x] : order) expected.push_back(rank);
  std::vector<std::int64_t> reported;
  for (element r : sync["straggler_order"].get_array()) reported.push_back(r.get_int64().value());
  CHECK(reported == expected);
}

}  // namespace npkit::test
