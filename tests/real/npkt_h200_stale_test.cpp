// Stale KernelCh timestamps and AlltoAll on the real H200 NVLink capture
// (samples/nccl-h200/nvlink: AllReduce, AllGather, ReduceScatter, AlltoAll, then Broadcast).
// In NCCL 2.28.9 the AlltoAll's Send/Recv to the rank itself produce no KernelCh event, yet their
// work writes the GPU timestamp rings of the channels it runs on; from then on the proxy reads,
// for later work on those channels, a slot written by earlier work: first the AlltoAll's, then,
// as the slots turn over, those of earlier operations on the channel. Checked here:
//  - the capture has stale KernelCh, all of them Broadcast's (the only collective after the
//    AlltoAll), each before its API call;
//  - most of them (at least half) carry the GPU start of an AlltoAll kernel of the same rank
//    within 1 us (the self copy starts with the kernel, its blocks a few ticks apart);
//  - Broadcast rows carry no time from a stale channel (a stale span used to make them 10-100x
//    longer than the driver's time per launch): an operation with a stale KernelCh is untimed,
//    so a Broadcast instance whose operation has a stale KernelCh on every rank has no time. In
//    this capture every Broadcast operation of both ranks has one (counted here from the
//    channels' verdicts), so every Broadcast row must be untimed: no timed instance, no timed
//    rank, no period, no true time; a timed row of any collective must be within the driver's
//    time per launch (+5 %);
//  - each AlltoAll's self Send/Recv have no KernelCh, and the AlltoAll period covers its span.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "import/npkt/npkt_run.hpp"
#include "real/npkt_h200_driver.hpp"

namespace {

const npkit::test::DriverRow* driver_row(const npkit::test::DriverRun& run,
                                         const npkit::BandwidthRow& r) {
  const std::string_view coll = npkit::coll_key(npkit::parse_nccl_func(r.func));
  for (const auto& d : run.rows) {
    if (d.coll == coll && d.size_bytes == r.bytes) return &d;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("npkt H200 nvlink: stale KernelCh are the AlltoAll's, Broadcast rows untimed",
          "[npkt][real]") {
  const std::string dir = npkit::test::sample_dir("nvlink");
  npkit::test::require_path(dir + "/dump");
  const auto run = npkit::test::read_driver(dir);
  const auto sample = npkit::test::load_sample(dir + "/dump");

  std::uint64_t stale = 0;
  std::uint64_t alltoall_timestamps = 0;
  std::uint64_t broadcast_ops = 0;
  std::uint64_t broadcast_ops_with_stale = 0;
  for (const auto& c : sample.captures) {
    INFO("rank " << c->rank());
    const auto& ev = c->events;
    // GPU starts of the KernelCh under this rank's AlltoAll operations.
    std::set<std::uint64_t> alltoall_starts;
    for (const auto& op : c->collectives) {
      if (!op.in_alltoall) continue;
      for (auto k : ev.children_of(op.event)) {
        if (ev.type[k] == npkit::format::kTypeKernelCh) {
          alltoall_starts.insert(ev.payload_as<npkit::format::KernelChPayload>(k).gpu_start_ns);
        }
      }
    }
    REQUIRE_FALSE(alltoall_starts.empty());
    for (std::uint32_t k = 0; k < ev.size(); ++k) {
      if (!npkit::is_stale(c->kernel_channels.verdict[k])) continue;
      ++stale;
      CHECK(c->kernel_channels.verdict[k] == npkit::KernelChVerdict::kBeforeApi);
      const auto owner = ev.parent[k];
      REQUIRE(owner != npkit::kNoEvent);
      const auto coll = ev.payload_as<npkit::format::CollPayload>(owner);
      CHECK(c->dump.string_at(coll.func) == "Broadcast");
      const std::uint64_t start = ev.payload_as<npkit::format::KernelChPayload>(k).gpu_start_ns;
      const auto it = alltoall_starts.lower_bound(start - 1000);
      if (it != alltoall_starts.end() && *it <= start + 1000) ++alltoall_timestamps;
    }
    // Broadcast operations, and those with a stale KernelCh, from the channels' verdicts.
    for (const auto& op : c->collectives) {
      if (op.func != npkit::NcclFunc::kBroadcast) continue;
      ++broadcast_ops;
      for (auto k : ev.children_of(op.event)) {
        if (ev.type[k] == npkit::format::kTypeKernelCh &&
            npkit::is_stale(c->kernel_channels.verdict[k])) {
          ++broadcast_ops_with_stale;
          break;
        }
      }
    }
    // AlltoAll: the self Send/Recv have no KernelCh.
    CHECK(c->alltoall.self_ops > 0);
    CHECK(c->alltoall.self_ops_without_kernel_channels == c->alltoall.self_ops);
  }
  CHECK(stale > 0);
  CHECK(2 * alltoall_timestamps >= stale);

  REQUIRE(sample.comms.size() == 1);
  npkit::Diagnostics diagnostics;
  const auto rows = npkit::bandwidth_rows(npkit::npkt_run("", sample.comms, diagnostics), "all");
  REQUIRE(broadcast_ops > 0);
  const bool every_broadcast_stale = broadcast_ops_with_stale == broadcast_ops;
  CHECK(every_broadcast_stale);  // what the capture holds (NCCL 2.28.9's ring desynchronisation)
  int broadcast_rows = 0;
  std::uint64_t broadcast_instances = 0;
  for (const auto& r : rows) {
    const auto* d = driver_row(run, r);
    INFO(r.func << " " << r.bytes << " B");
    REQUIRE(d != nullptr);
    const double driver_ns = d->time_us * 1e3;
    if (r.func == "Broadcast") {
      ++broadcast_rows;
      broadcast_instances += r.instances;
      if (every_broadcast_stale) {
        CHECK(r.timed_instances == 0);
        CHECK(r.ranks.empty());
        CHECK_FALSE(r.period_ns.has_value());
        CHECK_FALSE(r.true_time_ns.has_value());
      }
    }
    if (!r.ranks.empty()) CHECK(r.time_ns <= 1.05 * driver_ns);
    if (r.period_ns) CHECK(*r.period_ns <= 1.05 * driver_ns);
    if (r.func == "AlltoAll" && r.period_ns && !r.ranks.empty()) {
      CHECK(*r.period_ns >= r.time_ns);
    }
  }
  CHECK(broadcast_rows > 0);
  // Every Broadcast operation is in a row: one instance per operation of each of the 2 ranks.
  CHECK(2 * broadcast_instances == broadcast_ops);
}
