// write_busbw_counters gives each rank's process the busbw its collectives drive, by hand: on 4
// ranks an AllReduce of 1,000,000 B in 1,000 ns is 1,000 GB/s algbw × 2·3/4 = 1,500 GB/s busbw;
// an AllGather of S = 400,000 B in 2,000 ns 200 × 3/4 = 150; a Broadcast of 300,000 B in 2,000 ns
// 150 × 1; on 2 ranks an AllReduce of 100,000 B in 1,000 ns 100 × 1. Overlapping collectives add
// up (also across communicators that share a process), changes at one time give one sample, the
// counter returns to exactly 0, and what cannot be timed (untimed or empty members, functions
// nccl-tests does not define, communicators without start times, ranks without a process, a busbw
// past 10^12 GB/s) writes nothing.
#include "output/trace/busbw_counters.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

namespace {

using Sample = std::tuple<std::uint32_t, std::int64_t, std::int64_t>;  // pid, at, thousandths

class CounterRecorder : public npkit::TraceEncoder {
 public:
  void begin(std::string_view, const npkit::TraceTimes&) override {}
  void name_process(std::uint32_t, std::string_view) override {}
  void name_thread(std::uint32_t, std::uint32_t, std::string_view) override {}
  void write(const npkit::TraceSlice&) override {}
  void count(const npkit::TraceCounter& c) override {
    CHECK(c.name == "busbw");
    CHECK(c.series == "GB/s");
    samples.emplace_back(c.pid, c.at_ns, c.thousandths);
  }
  npkit::Status finish(const std::string&) override { return npkit::Ok{}; }
  std::uint64_t events() const override { return samples.size(); }
  std::uint64_t bytes() const override { return 0; }
  std::unique_ptr<npkit::TraceEncoder> fragment(std::uint32_t) const override { return nullptr; }
  void append(npkit::TraceEncoder&) override {}

  std::vector<Sample> samples;
};

npkit::RunInstance instance(std::string func, std::uint64_t bytes,
                            std::vector<npkit::RunMember> members) {
  npkit::RunInstance i;
  i.func = std::move(func);
  i.bytes = bytes;
  i.members = std::move(members);
  return i;
}

npkit::RunMember member(std::int32_t rank, std::int64_t start, std::int64_t end,
                        bool timed = true) {
  npkit::RunMember m;
  m.rank = rank;
  m.timed = timed;
  m.start_ns = start;
  m.end_ns = end;
  return m;
}

}  // namespace

TEST_CASE("busbw counters: per rank, overlapping collectives add up", "[render]") {
  npkit::Run run;
  npkit::RunCommunicator comm;
  comm.nranks = 4;
  comm.instances.push_back(instance("AllReduce", 1'000'000, {member(0, 1'000, 2'000)}));
  comm.instances.push_back(instance("AllGather", 400'000, {member(0, 1'500, 3'500)}));
  // Starts as the AllGather ends, at the same rate: the value does not change there.
  comm.instances.push_back(instance("Broadcast", 300'000, {member(0, 3'500, 5'500)}));
  comm.instances.push_back(instance("AllReduce", 1'000'000,
                                    {member(1, 10'000, 11'000), member(2, 0, 1'000),
                                     member(3, 0, 1'000, false), member(1, 12'000, 12'000)}));
  comm.instances.push_back(instance("my_kernel", 1'000'000, {member(1, 20'000, 21'000)}));
  // A corrupt size: 1.8e19 B in 1 ns.
  comm.instances.push_back(instance("AllReduce", UINT64_MAX, {member(3, 30'000, 30'001)}));
  run.comms.push_back(comm);
  npkit::RunCommunicator durations_only = comm;
  durations_only.no_start_times = "the input records durations only";
  run.comms.push_back(durations_only);
  // Another communicator whose rank 0 shares process 1: 100,000 B in 1,000 ns on 2 ranks.
  npkit::RunCommunicator other;
  other.nranks = 2;
  other.instances.push_back(instance("AllReduce", 100'000, {member(0, 6'000, 7'000)}));
  run.comms.push_back(other);

  CounterRecorder out;
  const auto pid_of = [](const npkit::RunCommunicator&,
                         std::int32_t rank) -> std::optional<std::uint32_t> {
    if (rank == 2) return std::nullopt;
    return static_cast<std::uint32_t>(rank + 1);
  };
  CHECK(npkit::write_busbw_counters(run, pid_of, 500, out) == 8);
  const std::vector<Sample> want = {
      {1, 500, 1'500'000}, {1, 1'000, 1'650'000}, {1, 1'500, 150'000},   {1, 5'000, 0},
      {1, 5'500, 100'000}, {1, 6'500, 0},         {2, 9'500, 1'500'000}, {2, 10'500, 0},
  };
  CHECK(out.samples == want);
}
