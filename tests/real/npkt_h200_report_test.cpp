// `report` on the real 2×H200 plugin captures over NET/Socket and NVLink (samples/nccl-h200/
// {socket,nvlink}) against a second computation made here from the raw records
// (support/npkt_plain.hpp), figure by figure:
//  - per rank and collective: operations, timed ones, total and median GPU time, KernelCh and
//    stale KernelCh counts (NVLink's Broadcast: 357 stale on each rank), AlltoAll recognised from
//    grouped Send/Recv, and its per-peer traffic;
//  - the clock uncertainty each rank's line states;
//  - across ranks (instances keyed by function and sequence number, host clock): instances
//    compared, same-host violations, spread, true duration, wait, arrivals last, skew, margin,
//    busy time, straggler order;
//  - latency per algorithm, protocol and power-of-two size bucket (type 7 quantiles), switch
//    points (the busiest algorithm/protocol per size, busbw from the mean of rank medians);
//  - the Socket capture's proxy steps (state time by phase, ring AllReduce positions), the phase
//    imbalance built from them and the network-wait finding; NVLink's straggler finding.
// Both captures also bound the operation counts by the driver's loop (driver.txt: warm-up +
// iterations per size, + 1 checking launch for AllReduce). The golden cases xrank_h200_socket
// and xrank_h200_nvlink_md print these numbers.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "real/npkt_h200_driver.hpp"
#include "real/sync_checks.hpp"
#include "support/cli_runner.hpp"
#include "support/npkt_plain.hpp"

namespace {

namespace plain = npkit::test::plain;
using simdjson::dom::element;

std::int64_t as_int(element e) {
  return e.get_int64().value();
}
double as_double(element e) {
  return e.get_double().value();
}
std::string as_string(element e) {
  return std::string(e.get_string().value());
}

bool collective_op(const plain::Op& op) {
  return op.func != "Send" && op.func != "Recv";
}

std::uint64_t bucket_of(std::uint64_t bytes) {
  std::uint64_t b = 1;
  if (bytes == 0) return 0;
  while (b <= bytes / 2) b *= 2;
  return b;
}

double nccl_tests_factor(const std::string& func, std::int32_t n) {
  if (func == "AllReduce") return 2.0 * (n - 1) / n;
  if (func == "AllGather" || func == "ReduceScatter" || func == "AlltoAll") {
    return static_cast<double>(n - 1) / n;
  }
  return 1.0;
}

void check_ranks(element comm, const std::vector<plain::Rank>& ranks) {
  std::size_t seen = 0;
  for (element r : comm["ranks"].get_array()) {
    const auto rank_id = static_cast<std::int32_t>(as_int(r["rank"]));
    INFO("rank " << rank_id);
    const auto it = std::find_if(ranks.begin(), ranks.end(),
                                 [&](const plain::Rank& p) { return p.rank == rank_id; });
    REQUIRE(it != ranks.end());
    const plain::Rank& rank = *it;
    ++seen;
    CHECK(as_string(r["host"]) == rank.hostname);
    std::map<std::string, std::vector<const plain::Op*>> by_func;
    for (const auto& op : rank.ops) {
      if (collective_op(op)) by_func[op.func].push_back(&op);
    }
    std::size_t funcs = 0;
    for (element c : r["collectives"].get_array()) {
      const std::string func = as_string(c["collective"]);
      INFO(func);
      REQUIRE(by_func.count(func) == 1);
      ++funcs;
      std::uint64_t timed = 0;
      std::int64_t total = 0;
      std::vector<double> spans;
      for (const plain::Op* op : by_func.at(func)) {
        if (!op->timed) continue;
        ++timed;
        total += op->span_ns();
        spans.push_back(static_cast<double>(op->span_ns()));
      }
      CHECK(c["instances"].get_uint64().value() == by_func.at(func).size());
      CHECK(c["timed"].get_uint64().value() == timed);
      CHECK(std::abs(as_int(c["total_ns"]) - total) <= static_cast<std::int64_t>(timed));
      double median = 0;
      const bool has_median = c["median_ns"].get(median) == simdjson::SUCCESS;
      CHECK(has_median == (timed > 0));  // no instance timed: no median
      if (has_median) CHECK(std::abs(median - plain::median(spans)) <= 1.0);
    }
    CHECK(funcs == by_func.size());

    // AlltoAll traffic per peer and direction, over the Send/Recv inside AlltoAll operations.
    struct Traffic {
      std::uint64_t ops = 0, bytes = 0, timed = 0, timed_bytes = 0;
      std::int64_t ns = 0;
    };
    std::map<std::pair<std::int32_t, std::string>, Traffic> traffic;
    for (const auto& op : rank.ops) {
      if (!op.in_alltoall) continue;
      Traffic& t = traffic[{op.peer, op.func == "Send" ? "send" : "recv"}];
      const std::uint64_t bytes = op.bytes;
      ++t.ops;
      t.bytes += bytes;
      if (!op.timed) continue;
      ++t.timed;
      t.timed_bytes += bytes;
      t.ns += op.span_ns();
    }
    std::size_t peers = 0;
    for (element p : r["alltoall_peers"].get_array()) {
      const std::pair<std::int32_t, std::string> key{static_cast<std::int32_t>(as_int(p["peer"])),
                                                     as_string(p["direction"])};
      INFO("peer " << key.first << " " << key.second);
      REQUIRE(traffic.count(key) == 1);
      const Traffic& t = traffic.at(key);
      ++peers;
      CHECK(p["operations"].get_uint64().value() == t.ops);
      CHECK(p["bytes"].get_uint64().value() == t.bytes);
      CHECK(p["timed"].get_uint64().value() == t.timed);
      CHECK(p["timed_bytes"].get_uint64().value() == t.timed_bytes);
      CHECK(std::abs(as_int(p["time_ns"]) - t.ns) <= static_cast<std::int64_t>(t.timed));
      if (t.ns > 0) {
        CHECK(as_double(p["gbps"]) ==
              Approx(static_cast<double>(t.timed_bytes) / static_cast<double>(t.ns)).epsilon(1e-4));
      }
    }
    CHECK(peers == traffic.size());

    // Proxy steps (only NET transports have them).
    const plain::ProxyTotals& x = rank.proxy;
    element steps;
    if (r["proxy_steps"].get(steps) != simdjson::SUCCESS || steps.is_null()) {
      CHECK(x.steps + x.never_stopped == 0);
      continue;
    }
    CHECK(steps["steps"].get_uint64().value() == x.steps);
    CHECK(steps["never_stopped"].get_uint64().value() == x.never_stopped);
    CHECK(as_int(steps["step_ns"]) == x.step_ns);
    CHECK(as_int(steps["net_send_ns"]) == x.net_send_ns);
    CHECK(as_int(steps["net_recv_ns"]) == x.net_recv_ns);
    CHECK(as_int(steps["sync_ns"]) == x.sync_ns);
    CHECK(as_int(steps["other_ns"]) == x.other_ns);
    const double explained = x.step_ns == 0
                                 ? 0.0
                                 : static_cast<double>(x.net_send_ns + x.net_recv_ns + x.sync_ns) /
                                       static_cast<double>(x.step_ns);
    CHECK(as_double(steps["explained_share"]) == Approx(explained).epsilon(1e-9));
    element ring = steps["ring_allreduce"];
    CHECK(ring["steps"].get_uint64().value() == x.ring_steps);
    CHECK(as_int(ring["reduce_scatter_ns"]) == x.ring_reduce_scatter_ns);
    CHECK(as_int(ring["all_gather_ns"]) == x.ring_all_gather_ns);
    CHECK(as_int(ring["other_steps_ns"]) ==
          x.step_ns - x.ring_reduce_scatter_ns - x.ring_all_gather_ns);
  }
  CHECK(seen == ranks.size());
}

// The communicator's cross-rank block (arrivals, skews, waits, stragglers).
void check_cross_rank(element comm, const std::vector<plain::Rank>& ranks) {
  npkit::test::check_sync(comm, plain::sync(plain::join(ranks)));
}

void check_latency_and_switches(element comm, const std::vector<plain::Rank>& ranks) {
  // Latency: every rank's span of every collective, per (func, algo, proto, bucket).
  std::map<std::tuple<std::string, std::string, std::string, std::uint64_t>, std::vector<double>>
      latency;
  // Bandwidth rows for the switch points: per (func, size): (algo, proto) -> instances, and per
  // rank the spans of the row.
  struct Row {
    std::map<std::pair<std::string, std::string>, std::uint64_t> choices;
    std::map<std::pair<std::string, std::string>, std::map<std::int32_t, std::vector<double>>>
        spans;
  };
  std::map<std::string, std::map<std::uint64_t, Row>> rows;
  for (const plain::Rank& r : ranks) {
    for (const plain::Op& op : r.ops) {
      if (!collective_op(op)) continue;
      const std::pair<std::string, std::string> choice{op.algo, op.proto};
      if (r.rank == ranks.front().rank) ++rows[op.func][op.bytes].choices[choice];
      if (!op.timed) continue;
      latency[{op.func, op.algo, op.proto, bucket_of(op.bytes)}].push_back(
          static_cast<double>(op.span_ns()));
      rows[op.func][op.bytes].spans[choice][r.rank].push_back(static_cast<double>(op.span_ns()));
    }
  }
  std::size_t buckets = 0;
  for (element l : comm["latency"].get_array()) {
    const auto key = std::make_tuple(as_string(l["collective"]), as_string(l["algo"]),
                                     as_string(l["proto"]), l["bucket_bytes"].get_uint64().value());
    INFO("latency " << std::get<0>(key) << " " << std::get<1>(key) << "/" << std::get<2>(key) << " "
                    << std::get<3>(key));
    REQUIRE(latency.count(key) == 1);
    const auto& v = latency.at(key);
    ++buckets;
    CHECK(l["count"].get_uint64().value() == v.size());
    const double tolerance = 2.0;
    CHECK(std::abs(as_double(l["min_ns"]) - plain::quantile(v, 0)) <= tolerance);
    CHECK(std::abs(as_double(l["p10_ns"]) - plain::quantile(v, 0.1)) <= tolerance);
    CHECK(std::abs(as_double(l["p50_ns"]) - plain::quantile(v, 0.5)) <= tolerance);
    CHECK(std::abs(as_double(l["p90_ns"]) - plain::quantile(v, 0.9)) <= tolerance);
    CHECK(std::abs(as_double(l["p99_ns"]) - plain::quantile(v, 0.99)) <= tolerance);
    CHECK(std::abs(as_double(l["max_ns"]) - plain::quantile(v, 1)) <= tolerance);
  }
  CHECK(buckets == latency.size());

  // Switch points: the choice with the most instances per size (first in name order on a tie);
  // a switch is a size whose choice differs from the previous size's.
  const std::int32_t n = ranks.front().nranks;
  const auto busbw = [&](const std::string& func, const Row& row,
                         const std::pair<std::string, std::string>& choice, std::uint64_t size) {
    double time = 0;
    const auto& per_rank = row.spans.at(choice);
    for (const auto& [rank, v] : per_rank) time += plain::median(v) / per_rank.size();
    return static_cast<double>(size) / time * nccl_tests_factor(func, n);
  };
  std::vector<element> reported;
  for (element sp : comm["switch_points"].get_array()) reported.push_back(sp);
  std::size_t k = 0;
  for (const auto& [func, sizes] : rows) {
    if (func == "AlltoAll") continue;  // no algorithm
    std::pair<std::string, std::string> previous;
    std::uint64_t previous_size = 0;
    const Row* previous_row = nullptr;
    for (const auto& [size, row] : sizes) {
      auto best = row.choices.begin();
      for (auto it = row.choices.begin(); it != row.choices.end(); ++it) {
        if (it->second > best->second) best = it;
      }
      if (previous_row != nullptr && best->first != previous) {
        INFO("switch of " << func << " at " << size);
        REQUIRE(k < reported.size());
        element sp = reported[k++];
        CHECK(as_string(sp["collective"]) == func);
        CHECK(sp["below_bytes"].get_uint64().value() == previous_size);
        CHECK(sp["at_bytes"].get_uint64().value() == size);
        CHECK(as_string(sp["from_algo"]) + "/" + as_string(sp["from_proto"]) ==
              previous.first + "/" + previous.second);
        CHECK(as_string(sp["to_algo"]) + "/" + as_string(sp["to_proto"]) ==
              best->first.first + "/" + best->first.second);
        // A side with no timed instance has no busbw (the field is left out).
        for (const auto& [field, side, choice, bytes] :
             {std::tuple{"busbw_below_gbps", previous_row, previous, previous_size},
              std::tuple{"busbw_at_gbps", &row, best->first, size}}) {
          INFO(field);
          double reported_busbw = 0;
          const bool has_busbw = sp[field].get(reported_busbw) == simdjson::SUCCESS;
          CHECK(has_busbw == side->spans.contains(choice));
          if (has_busbw) {
            CHECK(reported_busbw == Approx(busbw(func, *side, choice, bytes)).epsilon(1e-4));
          }
        }
      }
      previous = best->first;
      previous_size = size;
      previous_row = &row;
    }
  }
  CHECK(k == reported.size());
}

// The clock line of the text report: "rank R clock samples (offset and drift) ±U us on HOST".
void check_clock_lines(const std::string& dump, const std::vector<plain::Rank>& ranks) {
  const auto run = npkit::test::run_cli({"report", dump, "--quiet"});
  REQUIRE(run.exit_code == 0);
  for (const plain::Rank& r : ranks) {
    char line[160];
    std::snprintf(line, sizeof line, "rank %d clock samples (offset and drift) ±%.3f us on %s",
                  r.rank, r.clock.uncertainty_ns / 1000.0, r.hostname.c_str());
    INFO(line);
    CHECK(run.out.find(line) != std::string::npos);
  }
}

// Operations per function and size on each rank: warm-up + iterations (+ 1 checking AllReduce).
void check_driver_counts(const std::string& dir, const std::vector<plain::Rank>& ranks) {
  const npkit::test::DriverRun driver = npkit::test::read_driver(dir);
  static const std::map<std::string, std::string> names = {
      {"allreduce", "AllReduce"},         {"allgather", "AllGather"}, {"broadcast", "Broadcast"},
      {"reducescatter", "ReduceScatter"}, {"alltoall", "AlltoAll"},   {"reduce", "Reduce"}};
  for (const plain::Rank& r : ranks) {
    std::map<std::pair<std::string, std::uint64_t>, std::uint64_t> ops;
    for (const plain::Op& op : r.ops) {
      if (collective_op(op)) ++ops[{op.func, op.bytes}];
    }
    std::uint64_t expected_total = 0;
    for (const auto& d : driver.rows) {
      INFO("rank " << r.rank << " " << d.coll << " " << d.size_bytes);
      const std::string func = names.at(d.coll);
      const std::uint64_t launches =
          driver.warmup + driver.iters + (driver.check && func == "AllReduce" ? 1 : 0);
      CHECK(ops[{func, d.size_bytes}] == launches);
      expected_total += launches;
    }
    std::uint64_t total = 0;
    for (const auto& [key, n] : ops) total += n;
    CHECK(total == expected_total);
  }
}

// The report of one capture, and the checks both captures share: operations against the
// driver's loop, per-rank, cross-rank, latency and switch-point figures, the clock lines.
struct Report {
  std::vector<plain::Rank> ranks;
  simdjson::dom::parser parser;
  std::string text;
  element doc;
  element comm;
};

// The KernelCh counts per rank and collective, as `info` gives them.
void check_kernel_channels(const std::string& dump, const std::vector<plain::Rank>& ranks) {
  const auto cli = npkit::test::run_cli({"info", dump, "--format", "json", "--quiet"});
  REQUIRE(cli.exit_code == 0);
  simdjson::dom::parser parser;
  element doc = parser.parse(cli.out);
  std::size_t checked = 0;
  for (element f : doc["details"]["files"].get_array()) {
    const auto rank_id = static_cast<std::int32_t>(as_int(f["comm"]["rank"]));
    const auto it = std::find_if(ranks.begin(), ranks.end(),
                                 [&](const plain::Rank& p) { return p.rank == rank_id; });
    REQUIRE(it != ranks.end());
    for (element c : f["kernel_channels"]["by_collective"].get_array()) {
      const std::string func = as_string(c["collective"]);
      INFO("rank " << rank_id << " " << func);
      std::uint64_t channels = 0, stale = 0, with_stale = 0;
      for (const auto& op : it->ops) {
        if (!collective_op(op) || op.func != func) continue;
        channels += op.kernel_channels;
        stale += op.stale_channels;
        with_stale += op.stale_channels > 0;
      }
      CHECK(c["events"].get_uint64().value() == channels);
      CHECK(c["stale"].get_uint64().value() == stale);
      CHECK(c["operations_with_stale"].get_uint64().value() == with_stale);
      ++checked;
    }
  }
  CHECK(checked > 0);
}

void run_and_check_report(Report& r, const std::string& run) {
  const std::string dir = npkit::test::require_path(npkit::test::sample_dir(run));
  r.ranks = plain::read_capture(dir + "/dump");
  REQUIRE(r.ranks.size() == 2);
  check_driver_counts(dir, r.ranks);
  const auto cli = npkit::test::run_cli({"report", dir + "/dump", "--format", "json", "--quiet"});
  REQUIRE(cli.exit_code == 0);
  r.text = cli.out;
  r.doc = r.parser.parse(r.text);
  REQUIRE(r.doc["communicators"].get_array().size() == 1);
  r.comm = r.doc["communicators"].at(0);
  check_ranks(r.comm, r.ranks);
  check_cross_rank(r.comm, r.ranks);
  check_latency_and_switches(r.comm, r.ranks);
  check_clock_lines(dir + "/dump", r.ranks);
  check_kernel_channels(dir + "/dump", r.ranks);
}

}  // namespace

TEST_CASE("report on the Socket capture: per-rank, cross-rank and proxy figures match a recount",
          "[npkt][real][xrank]") {
  Report report;
  run_and_check_report(report, "socket");
  const auto& ranks = report.ranks;
  element comm = report.comm;

  // Phase imbalance from the proxy steps: per phase, the spread of the ranks' totals.
  const std::map<std::string, std::int64_t plain::ProxyTotals::*> phases = {
      {"net_send", &plain::ProxyTotals::net_send_ns},
      {"net_recv", &plain::ProxyTotals::net_recv_ns},
      {"sync", &plain::ProxyTotals::sync_ns},
      {"other", &plain::ProxyTotals::other_ns}};
  double all = 0;
  for (const auto& r : ranks) all += static_cast<double>(r.proxy.step_ns);
  std::size_t seen = 0;
  for (element p : comm["imbalance"].get_array()) {
    const std::string phase = as_string(p["phase"]);
    INFO("imbalance " << phase);
    REQUIRE(phases.count(phase) == 1);
    ++seen;
    std::vector<double> totals;
    double sum = 0;
    std::int32_t max_rank = 0;
    for (const auto& r : ranks) {
      const double v = static_cast<double>(r.proxy.*phases.at(phase));
      if (totals.empty() || v > *std::max_element(totals.begin(), totals.end())) max_rank = r.rank;
      totals.push_back(v);
      sum += v;
    }
    const double mean = sum / static_cast<double>(totals.size());
    double variance = 0;
    for (double v : totals)
      variance += (v - mean) * (v - mean) / static_cast<double>(totals.size());
    CHECK(p["ranks"].get_uint64().value() == ranks.size());
    CHECK(as_double(p["share"]) == Approx(sum / all).epsilon(1e-9));
    CHECK(as_double(p["min_ns"]) == plain::quantile(totals, 0));
    CHECK(as_double(p["median_ns"]) == plain::median(totals));
    CHECK(as_double(p["max_ns"]) == plain::quantile(totals, 1));
    CHECK(as_int(p["max_rank"]) == max_rank);
    CHECK(as_double(p["cv"]) == Approx(std::sqrt(variance) / mean).epsilon(1e-9));
  }
  CHECK(seen == phases.size());

  // The network-wait finding: net_send + net_recv over the step time of every rank.
  std::int64_t network = 0, steps = 0;
  for (const auto& r : ranks) {
    network += r.proxy.net_send_ns + r.proxy.net_recv_ns;
    steps += r.proxy.step_ns;
  }
  std::uint64_t step_count = 0;
  for (const auto& r : ranks) step_count += r.proxy.steps;
  REQUIRE(report.doc["findings"].get_array().size() == 2);
  element f = report.doc["findings"].at(0);
  CHECK(as_string(f["rule"]) == "network_wait");
  CHECK(as_int(f["numbers"]["network_ns"]) == network);
  CHECK(as_int(f["numbers"]["step_ns"]) == steps);
  CHECK(as_double(f["numbers"]["network_share"]) ==
        Approx(static_cast<double>(network) / static_cast<double>(steps)).epsilon(1e-9));
  // ENV.txt says NCCL_NET=Socket and sets neither socket thread variable: both are advised.
  CHECK(as_string(f["settings"]["NCCL_NET"]) == "Socket");
  CHECK(as_string(f["settings"]["NCCL_SOCKET_NTHREADS"]).empty());
  CHECK(as_string(f["next_step"]).find("raise NCCL_SOCKET_NTHREADS and NCCL_NSOCKS_PERTHREAD") !=
        std::string::npos);

  // Both ranks run on one host, so NET carries what P2P or SHM could: ENV.txt disables both.
  element host = report.doc["findings"].at(1);
  CHECK(as_string(host["rule"]) == "net_within_host");
  CHECK(host["numbers"]["steps"].get_uint64().value() == step_count);
  CHECK(as_int(host["numbers"]["step_ns"]) == steps);
  CHECK(as_string(host["settings"]["NCCL_P2P_DISABLE"]) == "1");
  CHECK(as_string(host["settings"]["NCCL_SHM_DISABLE"]) == "1");
  CHECK(
      as_string(host["next_step"]).rfind("NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1 in force", 0) ==
      0);
}

TEST_CASE("report on the NVLink capture: per-rank, AlltoAll and cross-rank figures match a recount",
          "[npkt][real][xrank]") {
  Report report;
  run_and_check_report(report, "nvlink");
  const auto& ranks = report.ranks;

  // The straggler finding names the rank that arrived last most often, with its numbers.
  const plain::Sync s = plain::sync(plain::join(ranks));
  auto last = s.ranks.begin();
  for (auto it = s.ranks.begin(); it != s.ranks.end(); ++it) {
    if (it->second.arrived_last > last->second.arrived_last) last = it;
  }
  REQUIRE(report.doc["findings"].get_array().size() == 1);
  element f = report.doc["findings"].at(0);
  CHECK(as_string(f["rule"]) == "straggler");
  CHECK(as_int(f["numbers"]["rank"]) == last->first);
  CHECK(f["numbers"]["arrived_last"].get_uint64().value() == last->second.arrived_last);
  CHECK(f["numbers"]["instances"].get_uint64().value() == last->second.instances);
  CHECK(std::abs(as_double(f["numbers"]["margin_median_ns"]) -
                 plain::median(last->second.margins)) <= 2.0);
}
