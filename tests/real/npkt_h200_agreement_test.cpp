// The analyzer's back-to-back period against the capture driver's own nccl-tests-style timing
// (samples/nccl-h200/{agree,nvlink}: wall clock over `iters` back-to-back launches / iters, mean
// over ranks; read from driver.csv at test time).
//
// The driver's time is t = (end of the timed loop − its start) / iters. Over the loop the GPU
// runs at the back-to-back period P, but the loop also pays, once, the first launch's latency and
// the wait of the first kernel for the rank released last from the driver's barrier, so
// t = P + start-up / iters. With 20 iterations the start-up (50-100 µs on these captures) keeps t
// 5-15 % above P up to 4 MiB; with 5 it does so up to 16 MiB. So the period equals the driver's
// time only where the start-up share is small, and the test checks, for every size from 1 MiB:
//  1. the row exists with the driver's size, nccl-tests count and type name, and one instance
//     per launch (warm-up + timed, + the check AllReduce);
//  2. the driver's loop, rebuilt from the dump (the first timed launch's API call to the last
//     one's GPU stop, / iters, mean over ranks), is within 5 % of the driver's time: the dump's
//     clocks and spans agree with the driver's wall clock;
//  3. each rank's median pair is within 5 % of the median GPU-start-to-GPU-start gap of the
//     driver's timed launches on that rank, and its period within 1 % of their mean gap (first
//     timed start to last over iters - 1: a second computation, over the launches the driver
//     timed, never a warm-up's);
//  4. the period is never above the driver's time (+5 %): the loop holds every period;
//  5. where the loop's start-up adds under 1 % to the driver's time, the period busbw is within
//     5 % of the driver's busbw; where it adds 1-5 %, within 5 % plus that share (the driver's
//     time holds the start-up on top of the period, so the period's busbw is higher by about
//     that share). Each sample must have at least one such row, so the direct comparison can
//     never silently apply to nothing (with 5 iterations, the nvlink sample's start-up share is
//     3-4 % even at 64 MiB).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "import/npkt/npkt_run.hpp"
#include "real/npkt_h200_driver.hpp"
#include "run/nccl_names.hpp"
#include "util/quantiles.hpp"

namespace {

using npkit::test::DriverRow;
using npkit::test::DriverRun;

constexpr std::uint64_t kMiB = 1024 * 1024;

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return npkit::sorted_quantile(v, 0.5);
}

const npkit::BandwidthRow& row_for(const std::vector<npkit::BandwidthRow>& rows,
                                   const DriverRow& d) {
  std::vector<const npkit::BandwidthRow*> found;
  for (const auto& r : rows) {
    if (npkit::coll_key(npkit::parse_nccl_func(r.func)) == d.coll && r.bytes == d.size_bytes) {
      found.push_back(&r);
    }
  }
  REQUIRE(found.size() == 1);
  return *found.front();
}

// Checks 1-5 for one driver row; returns whether check 5 applied.
bool check_row(const npkit::test::Sample& sample, const DriverRun& run, const DriverRow& d,
               const std::vector<npkit::BandwidthRow>& rows) {
  INFO(d.coll << " " << d.size_bytes << " B: driver " << d.time_us << " us");
  const auto& r = row_for(rows, d);
  const npkit::NcclFunc func = npkit::parse_nccl_func(r.func);
  CHECK(r.count == d.count);
  CHECK(npkit::nccl_tests_type_name(r.type) == d.type);
  CHECK(r.nranks == d.nranks);
  const bool checked = run.check && func == npkit::NcclFunc::kAllReduce;
  CHECK(r.instances == static_cast<std::uint64_t>(run.warmup + run.iters + (checked ? 1 : 0)));
  REQUIRE(r.period_ns);

  double loop_sum = 0;
  int loop_ranks = 0;
  for (const auto& c : sample.captures) {
    INFO("rank " << c->rank());
    const auto ops = npkit::test::stream_of(*c, func, r.bytes);
    REQUIRE(ops.size() >= static_cast<std::size_t>(run.warmup + run.iters));
    const auto first = ops.begin() + run.warmup;
    const auto last = first + (run.iters - 1);
    if ((*first)->has_gpu_span && (*last)->has_gpu_span) {
      loop_sum += static_cast<double>((*last)->gpu_stop_ns - (*first)->api_start_ns) / run.iters;
      ++loop_ranks;
    }
    if ((*first)->has_gpu_span && (*last)->has_gpu_span) {
      const double loop_mean =
          static_cast<double>((*last)->gpu_start_ns - (*first)->gpu_start_ns) / (run.iters - 1);
      const auto rank = std::find_if(r.ranks.begin(), r.ranks.end(),
                                     [&](const auto& m) { return m.rank == c->rank(); });
      REQUIRE(rank != r.ranks.end());
      INFO("period " << rank->period_ns << " ns, timed loop's mean gap " << loop_mean << " ns");
      CHECK(std::abs(rank->period_ns - loop_mean) <= 0.01 * loop_mean);  // 3
    }
    std::vector<double> gaps;
    for (auto it = first; it != last; ++it) {
      if ((*it)->has_gpu_span && (*(it + 1))->has_gpu_span) {
        gaps.push_back(static_cast<double>((*(it + 1))->gpu_start_ns - (*it)->gpu_start_ns));
      }
    }
    const auto rank = std::find_if(r.ranks.begin(), r.ranks.end(),
                                   [&](const auto& m) { return m.rank == c->rank(); });
    REQUIRE(rank != r.ranks.end());
    REQUIRE_FALSE(gaps.empty());
    const double in_loop = median_of(gaps);
    INFO("period " << rank->period_median_ns << " ns, timed-loop gap median " << in_loop << " ns");
    CHECK(std::abs(rank->period_median_ns - in_loop) <= 0.05 * in_loop);  // 3
  }
  REQUIRE(loop_ranks > 0);
  const double driver_ns = d.time_us * 1e3;
  const double loop_ns = loop_sum / loop_ranks;
  INFO("loop rebuilt from the dump " << loop_ns << " ns, period " << *r.period_ns << " ns");
  CHECK(std::abs(loop_ns - driver_ns) <= 0.05 * driver_ns);  // 2
  CHECK(*r.period_ns <= 1.05 * driver_ns);                   // 4
  // The loop's start-up per launch: what the loop holds beyond iters periods.
  const double start_up_share = (loop_ns - *r.period_ns) / driver_ns;
  if (start_up_share >= 0.05) return false;
  const double slack = start_up_share < 0.01 ? 0.0 : start_up_share;
  INFO("period busbw " << r.period_busbw_gbps << ", driver busbw " << d.busbw_gbps
                       << ", start-up share " << start_up_share);
  CHECK(std::abs(r.period_busbw_gbps - d.busbw_gbps) <= (0.05 + slack) * d.busbw_gbps);  // 5
  return true;
}

}  // namespace

TEST_CASE("npkt H200 agree: period against the driver's AllReduce timing", "[npkt][real]") {
  const std::string dir = npkit::test::sample_dir("agree");
  npkit::test::require_path(dir + "/dump");
  const DriverRun run = npkit::test::read_driver(dir);
  const auto sample = npkit::test::load_sample(dir + "/dump");
  REQUIRE(sample.comms.size() == 1);
  npkit::Diagnostics diagnostics;
  const auto rows = npkit::bandwidth_rows(npkit::npkt_run("", sample.comms, diagnostics), "all");
  int checked = 0;
  int literal = 0;
  for (const auto& d : run.rows) {
    if (d.size_bytes < kMiB) continue;
    ++checked;
    literal += check_row(sample, run, d, rows) ? 1 : 0;
  }
  CHECK(checked > 0);
  INFO("agree: " << literal << " of " << checked
                 << " sizes have a start-up share under 5 % and were checked against the "
                    "driver's busbw directly");
  REQUIRE(literal >= 1);
}

TEST_CASE("npkt H200 nvlink: period against the driver for AllReduce, AllGather, ReduceScatter",
          "[npkt][real]") {
  const std::string dir = npkit::test::sample_dir("nvlink");
  npkit::test::require_path(dir + "/dump");
  const DriverRun run = npkit::test::read_driver(dir);
  const auto sample = npkit::test::load_sample(dir + "/dump");
  REQUIRE(sample.comms.size() == 1);
  npkit::Diagnostics diagnostics;
  const auto rows = npkit::bandwidth_rows(npkit::npkt_run("", sample.comms, diagnostics), "all");
  int checked = 0;
  int literal = 0;
  for (const auto& d : run.rows) {
    if (d.size_bytes < kMiB) continue;
    if (d.coll != "allreduce" && d.coll != "allgather" && d.coll != "reducescatter") continue;
    ++checked;
    literal += check_row(sample, run, d, rows) ? 1 : 0;
  }
  CHECK(checked > 0);
  INFO("nvlink: " << literal << " of " << checked
                  << " rows have a start-up share under 5 % and were checked against the "
                     "driver's busbw directly");
  REQUIRE(literal >= 1);
}
