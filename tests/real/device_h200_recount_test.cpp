// The real 2×H200 device-recorder capture (samples/device-h200/collectives, read with the
// sample's phase map samples/device-collectives/phase-map.txt) against a second computation
// made here from the raw event records (support/npkt_plain.hpp) and the program's own account
// of the run (run.txt, results.csv):
//  - `report`: each rank's top-level GPU and host time, every phase's exclusive time and span
//    count per rank and over ranks (shares, spread, slowest rank), the explained share, the
//    cross-rank block over the kernel-wide spans (joined by k-th occurrence per name, size and
//    stream: first ENTRY to last EXIT over the rank's streams) and the phase imbalance;
//  - `bandwidth --coll allreduce`: per size the per-rank and all-ranks time distributions,
//    algbw/busbw, and every event's duration and GB/s per size bucket;
//  - the program's figures bound them: GPU records per rank as run.txt counts them, 2 warm-up +
//    5 timed launches per size and collective, and no median kernel span above the program's
//    own time per launch (results.csv, CUDA events around the timed launches).
// The golden cases device_h200_report and device_h200_bandwidth_md print these numbers.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "real/sync_checks.hpp"
#include "support/cli_runner.hpp"
#include "support/npkt_plain.hpp"
#include "support/test_data.hpp"

namespace {

namespace plain = npkit::test::plain;
using simdjson::dom::element;

constexpr std::uint64_t kLaunchesPerSize = 2 + 5;  // run.txt: 2 warm-up + 5 timed launches

struct Rule {
  std::string phase;
  std::string collective;  // "" when the span is not a whole collective
};

// The phase map's rules (this file uses exact names, no globs).
std::map<std::string, Rule> read_phase_map(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::map<std::string, Rule> rules;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string pattern;
    Rule rule;
    f >> pattern >> rule.phase >> rule.collective;
    REQUIRE(pattern.find('*') == std::string::npos);
    rules[pattern] = rule;
  }
  REQUIRE_FALSE(rules.empty());
  return rules;
}

struct Paths {
  std::string dir =
      npkit::test::require_path(npkit::test::source_path("samples/device-h200/collectives"));
  std::string dump = dir + "/dump";
  std::string map = npkit::test::require_path(
      npkit::test::source_path("samples/device-collectives/phase-map.txt"));
};

std::uint64_t bucket_of(std::uint64_t bytes) {
  if (bytes == 0) return 0;
  std::uint64_t b = 1;
  while (b <= bytes / 2) b *= 2;
  return b;
}

bool near(element e, double expected, double tolerance) {
  return std::abs(e.get_double().value() - expected) <= tolerance;
}

// The kernel-wide spans as collective instances: the k-th span of a name and size in each
// stream of a rank is the rank's k-th instance, from its first ENTRY to its last EXIT.
struct Collectives {
  std::vector<plain::Rank> ranks;  // one Op per instance and rank
  std::vector<plain::Instance> instances;
};

Collectives kernel_wide(const std::vector<plain::EventRank>& event_ranks,
                        const std::map<std::string, Rule>& rules) {
  Collectives c;
  std::map<std::tuple<std::string, std::uint64_t, std::uint64_t>, std::map<std::int32_t, int>>
      index;
  for (const plain::EventRank& r : event_ranks) {
    plain::Rank rank;
    rank.rank = r.rank;
    std::map<std::tuple<std::string, std::uint64_t, std::size_t>, std::uint64_t> seen;
    std::map<std::tuple<std::string, std::uint64_t, std::uint64_t>, plain::Op> ops;
    for (const plain::Span& s : r.spans) {
      if (!rules.count(s.name) || rules.at(s.name).collective.empty()) continue;
      const std::uint64_t k = seen[{s.name, s.size, s.stream}]++;
      auto [it, fresh] = ops.try_emplace({s.name, s.size, k});
      plain::Op& op = it->second;
      if (fresh) {
        op.func = s.name;
        op.bytes = s.size;
        op.timed = true;
        op.gpu_start_ns = s.start_ns;
        op.gpu_stop_ns = s.stop_ns;
      }
      op.gpu_start_ns = std::min(op.gpu_start_ns, s.start_ns);
      op.gpu_stop_ns = std::max(op.gpu_stop_ns, s.stop_ns);
    }
    for (auto& [key, op] : ops) rank.ops.push_back(op);
    c.ranks.push_back(rank);
  }
  std::map<std::tuple<std::string, std::uint64_t, std::uint64_t>, plain::Instance> keyed;
  for (const plain::Rank& r : c.ranks) {
    std::map<std::pair<std::string, std::uint64_t>, std::uint64_t> k;
    for (const plain::Op& op : r.ops) {
      plain::Instance& in = keyed[{op.func, op.bytes, k[{op.func, op.bytes}]++}];
      in.func = op.func;
      in.by_rank[r.rank] = &op;
    }
  }
  for (auto& [key, in] : keyed) c.instances.push_back(in);
  return c;
}

void check_against_program(const Paths& p, const std::vector<plain::EventRank>& ranks,
                           const Collectives& c) {
  // run.txt: "# recorder rank R: 32 GPU streams, N records written, ..."
  std::ifstream run(p.dir + "/run.txt");
  std::map<std::int32_t, std::uint64_t> written;
  for (std::string line; std::getline(run, line);) {
    int rank = 0;
    int streams = 0;
    unsigned long long records = 0;
    if (std::sscanf(line.c_str(), "# recorder rank %d: %d GPU streams, %llu records written", &rank,
                    &streams, &records) == 3) {
      written[rank] = records;
    }
  }
  REQUIRE(written.size() == ranks.size());
  for (const auto& r : ranks) CHECK(r.gpu_records == written.at(r.rank));

  // results.csv: build,coll,size_bytes,count,iters,time_us,... : every collective and size has
  // its launches on every rank, and their median GPU span is below the program's time per launch.
  std::ifstream csv(p.dir + "/results.csv");
  std::string line;
  REQUIRE(std::getline(csv, line));
  REQUIRE(line.rfind("build,coll,size_bytes,count,iters,time_us", 0) == 0);
  std::size_t rows = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    std::istringstream f(line);
    for (std::string cell; std::getline(f, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() >= 6);
    std::string name = cells[1];
    std::transform(name.begin(), name.end(), name.begin(), ::toupper);
    // A kernel-wide ALLTOALL span carries what goes to one peer; results.csv the nccl-tests
    // size, that × nranks (samples/device-collectives/README.md).
    const std::uint64_t size =
        std::stoull(cells[2]) / (name == "ALLTOALL" ? static_cast<std::uint64_t>(ranks.size()) : 1);
    const double time_ns = std::stod(cells[5]) * 1e3;
    INFO(name << " " << size);
    ++rows;
    for (const plain::Rank& r : c.ranks) {
      std::vector<double> spans;
      for (const plain::Op& op : r.ops) {
        if (op.func == name && op.bytes == size) spans.push_back(static_cast<double>(op.span_ns()));
      }
      CHECK(spans.size() == kLaunchesPerSize);
      if (!spans.empty()) CHECK(plain::median(spans) < time_ns);
    }
  }
  CHECK(rows == 6);
}

}  // namespace

TEST_CASE("device capture report: phases, cross-rank sync and imbalance match a plain recount",
          "[real][events]") {
  const Paths p;
  const auto rules = read_phase_map(p.map);
  const auto ranks = plain::read_event_capture(p.dump);
  REQUIRE(ranks.size() == 2);
  const Collectives collectives = kernel_wide(ranks, rules);
  check_against_program(p, ranks, collectives);

  const auto run =
      npkit::test::run_cli({"report", p.dump, "--phase-map", p.map, "--format", "json", "-q"});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  element doc = parser.parse(run.out);
  element ev = doc;  // the phase split is the report's own (the input's spans)

  // Per rank: top-level time per domain, exclusive time and span count per phase.
  struct Totals {
    std::int64_t gpu = 0, cpu = 0;
    std::uint64_t gpu_spans = 0, cpu_spans = 0;
    std::map<std::pair<std::string, bool>, std::pair<std::int64_t, std::uint64_t>> phases;
  };
  std::map<std::int32_t, Totals> totals;
  for (const auto& r : ranks) {
    Totals& t = totals[r.rank];
    for (const plain::Span& s : r.spans) {
      REQUIRE(rules.count(s.name) == 1);
      auto& [ns, count] = t.phases[{rules.at(s.name).phase, s.gpu}];
      ns += s.exclusive_ns;
      ++count;
      if (s.depth > 0) continue;
      (s.gpu ? t.gpu : t.cpu) += s.ns();
      ++(s.gpu ? t.gpu_spans : t.cpu_spans);
    }
  }
  std::int64_t gpu_all = 0, cpu_all = 0;
  std::uint64_t spans_all = 0;
  for (const auto& [rank, t] : totals) {
    gpu_all += t.gpu;
    cpu_all += t.cpu;
    spans_all += t.gpu_spans + t.cpu_spans;
  }
  const auto n_all = static_cast<double>(spans_all);
  CHECK(near(ev["gpu_collective_ns"], static_cast<double>(gpu_all), n_all));
  CHECK(near(ev["cpu_span_ns"], static_cast<double>(cpu_all), n_all));
  for (element r : ev["ranks"].get_array()) {
    const auto rank = static_cast<std::int32_t>(r["rank"].get_int64().value());
    INFO("rank " << rank);
    const Totals& t = totals.at(rank);
    CHECK(near(r["gpu_collective_ns"], static_cast<double>(t.gpu), 2.0 * t.gpu_spans));
    CHECK(near(r["cpu_span_ns"], static_cast<double>(t.cpu), 2.0 * t.cpu_spans));
    std::size_t phases = 0;
    for (element ph : r["phases"].get_array()) {
      const std::string name(ph["name"].get_string().value());
      const bool gpu = ph["domain"].get_string().value() == "gpu";
      INFO("phase " << name);
      REQUIRE(t.phases.count({name, gpu}) == 1);
      const auto& [ns, count] = t.phases.at({name, gpu});
      ++phases;
      CHECK(ph["count"].get_uint64().value() == count);
      CHECK(near(ph["ns"], static_cast<double>(ns), 2.0 * count));
      CHECK(
          ph["share"].get_double().value() ==
          Approx(static_cast<double>(ns) / static_cast<double>(gpu ? t.gpu : t.cpu)).epsilon(1e-4));
    }
    CHECK(phases == t.phases.size());
  }

  // Over ranks: each phase's total, share of its domain, spread of the rank totals.
  std::int64_t other = 0;
  std::size_t phases = 0;
  for (element ph : ev["phases"].get_array()) {
    const std::string name(ph["name"].get_string().value());
    const bool gpu = ph["domain"].get_string().value() == "gpu";
    INFO("phase " << name << " over ranks");
    ++phases;
    std::vector<double> per_rank;
    std::int64_t sum = 0;
    std::uint64_t count = 0;
    std::int32_t slowest = 0;
    double slowest_ns = -1;
    for (const auto& [rank, t] : totals) {
      const auto& [ns, n] = t.phases.at({name, gpu});
      per_rank.push_back(static_cast<double>(ns));
      sum += ns;
      count += n;
      if (static_cast<double>(ns) > slowest_ns) {
        slowest_ns = static_cast<double>(ns);
        slowest = rank;
      }
    }
    if (gpu && name == "other") other = sum;
    CHECK(ph["count"].get_uint64().value() == count);
    CHECK(near(ph["total_ns"], static_cast<double>(sum), 2.0 * count));
    CHECK(ph["share"].get_double().value() ==
          Approx(static_cast<double>(sum) / static_cast<double>(gpu ? gpu_all : cpu_all))
              .epsilon(1e-4));
    CHECK(near(ph["rank_min_ns"], plain::quantile(per_rank, 0), 2.0 * count));
    CHECK(near(ph["rank_median_ns"], plain::median(per_rank), 2.0 * count));
    CHECK(near(ph["rank_max_ns"], plain::quantile(per_rank, 1), 2.0 * count));
    CHECK(ph["slowest_rank"].get_int64().value() == slowest);
  }
  CHECK(phases == totals.begin()->second.phases.size());
  CHECK(ev["gpu_explained_share"].get_double().value() ==
        Approx(1.0 - static_cast<double>(other) / static_cast<double>(gpu_all)).epsilon(1e-4));

  // The text report's clock bounds, and the streams as `info` counts them.
  const auto text = npkit::test::run_cli({"report", p.dump, "--phase-map", p.map, "-q"});
  REQUIRE(text.exit_code == 0);
  std::size_t streams = 0;
  for (const auto& r : ranks) {
    streams += r.streams;
    char line[160];
    std::snprintf(line, sizeof line, "rank %d clock samples (offset and drift) ±%.3f us on %s",
                  r.rank, r.clock.uncertainty_ns / 1000.0, r.hostname.c_str());
    INFO(line);
    CHECK(text.out.find(line) != std::string::npos);
  }
  CHECK(text.out.find(".npkt capture, " + std::to_string(ranks.size()) + " file(s)") !=
        std::string::npos);
  const auto info = npkit::test::run_cli({"info", p.dump, "--format", "json", "-q"});
  REQUIRE(info.exit_code == 0);
  simdjson::dom::parser info_parser;
  std::size_t info_streams = 0;
  for (element f : info_parser.parse(info.out)["details"]["files"].get_array()) {
    info_streams += f["event_records"]["streams"].get_array().size();
  }
  CHECK(info_streams == streams);

  // Across ranks: the kernel-wide spans as instances.
  // The communicator of the event records' collective-level spans: scope = the dump's path.
  element cross;
  for (element c : doc["communicators"].get_array()) {
    if (c["comm"].get_string().value() == p.dump) cross = c;
  }
  REQUIRE(cross.is_object());
  npkit::test::check_sync(cross, plain::sync(collectives.instances));
  std::size_t imbalance = 0;
  for (element ph : cross["imbalance"].get_array()) {
    const std::string name(ph["phase"].get_string().value());
    INFO("imbalance of " << name);
    ++imbalance;
    std::vector<double> per_rank;
    double mean = 0;
    double tolerance = 0;  // 2 ns per span of the rank with the most
    for (const auto& [rank, t] : totals) {
      const auto& [ns, count] = t.phases.at({name, true});
      per_rank.push_back(static_cast<double>(ns));
      mean += per_rank.back() / static_cast<double>(totals.size());
      tolerance = std::max(tolerance, 2.0 * static_cast<double>(count));
    }
    double variance = 0;
    for (double v : per_rank) variance += (v - mean) * (v - mean) / per_rank.size();
    CHECK(ph["ranks"].get_uint64().value() == totals.size());
    CHECK(near(ph["min_ns"], plain::quantile(per_rank, 0), tolerance));
    CHECK(near(ph["median_ns"], plain::median(per_rank), tolerance));
    CHECK(near(ph["max_ns"], plain::quantile(per_rank, 1), tolerance));
    CHECK(ph["cv"].get_double().value() == Approx(std::sqrt(variance) / mean).margin(1e-3));
  }
  CHECK(imbalance == 5);  // the GPU phases: other, reduce_scatter, all_gather, sync, p2p_send
}

TEST_CASE("device capture bandwidth: event-record collectives and events match a plain recount",
          "[real][events][bandwidth]") {
  const Paths p;
  const auto rules = read_phase_map(p.map);
  const auto ranks = plain::read_event_capture(p.dump);
  const Collectives collectives = kernel_wide(ranks, rules);
  const auto run = npkit::test::run_cli(
      {"bandwidth", p.dump, "--phase-map", p.map, "--coll", "allreduce", "--format", "json", "-q"});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  element doc = parser.parse(run.out);

  const auto check_quantiles = [](element q, const std::vector<double>& v, double tolerance) {
    CHECK(q["count"].get_uint64().value() == v.size());
    CHECK(near(q["min"], plain::quantile(v, 0), tolerance));
    CHECK(near(q["p10"], plain::quantile(v, 0.1), tolerance));
    CHECK(near(q["p50"], plain::quantile(v, 0.5), tolerance));
    CHECK(near(q["p90"], plain::quantile(v, 0.9), tolerance));
    CHECK(near(q["max"], plain::quantile(v, 1), tolerance));
  };

  // Per size: every rank's instance spans, and per instance the last rank's start to the last
  // rank's end.
  std::map<std::uint64_t, std::map<std::int32_t, std::vector<double>>> rank_times;
  std::map<std::uint64_t, std::vector<double>> true_times;
  for (const plain::Instance& in : collectives.instances) {
    if (in.func != "ALLREDUCE") continue;
    std::int64_t last_start = INT64_MIN, last_end = INT64_MIN;
    std::uint64_t size = 0;
    for (const auto& [rank, op] : in.by_rank) {
      size = op->bytes;
      rank_times[size][rank].push_back(static_cast<double>(op->span_ns()));
      last_start = std::max(last_start, op->gpu_start_ns);
      last_end = std::max(last_end, op->gpu_stop_ns);
    }
    true_times[size].push_back(static_cast<double>(last_end - last_start));
  }
  // The event records' communicator is named by the dump's path; the profiler events' one has
  // no AllReduce.
  std::size_t rows = 0;
  for (element c : doc["collectives"].get_array()) {
    const std::uint64_t size = c["size_bytes"].get_uint64();
    INFO("allreduce " << size);
    REQUIRE(std::string_view(c["comm"].get_string().value()) == p.dump);
    REQUIRE(rank_times.count(size) == 1);
    ++rows;
    CHECK(c["collective"].get_string().value() == "AllReduce");
    CHECK(c["instances"].get_uint64().value() == kLaunchesPerSize);
    CHECK(c["ranks_timed"].get_uint64().value() == ranks.size());
    double time = 0;
    for (element r : c["per_rank"].get_array()) {
      const auto rank = static_cast<std::int32_t>(r["rank"].get_int64().value());
      INFO("rank " << rank);
      const double median = plain::median(rank_times.at(size).at(rank));
      CHECK(near(r["median_ns"], median, 2));
      time += median / static_cast<double>(ranks.size());
    }
    CHECK(near(c["time_ns"], time, 2));
    CHECK(near(c["true_time_ns"], plain::median(true_times.at(size)), 2));
    CHECK(c["algbw_gbps"].get_double().value() ==
          Approx(static_cast<double>(size) / time).epsilon(1e-3));
    CHECK(c["busbw_gbps"].get_double().value() == c["algbw_gbps"].get_double().value());
  }
  CHECK(rows == rank_times.size());

  // Events under the AllReduce kernels, per rank and over ranks, by event and size bucket.
  std::map<std::tuple<std::string, std::string, std::uint64_t>, std::vector<const plain::Span*>>
      events;
  for (const auto& r : ranks) {
    for (const plain::Span& s : r.spans) {
      if (s.top != "ALLREDUCE") continue;
      for (const std::string& who : {std::to_string(r.rank), std::string("all")}) {
        events[{who, s.name, bucket_of(s.size)}].push_back(&s);
      }
    }
  }
  std::size_t seen = 0;
  for (element e : doc["events"].get_array()) {
    std::string who;
    std::int64_t rank = 0;
    if (e["rank"].get(rank) == simdjson::SUCCESS) {
      who = std::to_string(rank);
    } else {
      who = std::string(e["rank"].get_string().value());
    }
    const auto key = std::make_tuple(who, std::string(e["event"].get_string().value()),
                                     e["size_bucket"].get_uint64().value());
    INFO("events of " << who << " " << std::get<1>(key) << " " << std::get<2>(key));
    REQUIRE(events.count(key) == 1);
    ++seen;
    std::vector<double> durations;
    std::vector<double> gbps;
    std::uint64_t bytes = 0;
    for (const plain::Span* s : events.at(key)) {
      durations.push_back(static_cast<double>(s->ns()));
      if (s->ns() > 0) gbps.push_back(static_cast<double>(s->size) / static_cast<double>(s->ns()));
      bytes += s->size;
    }
    CHECK(e["total_bytes"].get_uint64().value() == bytes);
    check_quantiles(e["duration_ns"], durations, 2);
    element g = e["gbps"];
    CHECK(g["count"].get_uint64().value() == gbps.size());
    CHECK(g["p50"].get_double().value() == Approx(plain::median(gbps)).epsilon(1e-3));
    CHECK(g["min"].get_double().value() == Approx(plain::quantile(gbps, 0)).epsilon(1e-3));
    CHECK(g["max"].get_double().value() == Approx(plain::quantile(gbps, 1)).epsilon(1e-3));
  }
  CHECK(seen == events.size());
}
