// The real device-recorder capture of samples/device-h200/collectives (2 x H200, the sample ring
// all-reduce and all-to-all of samples/device-collectives): what the program's loop structure
// says the records must pair into, checked through the analyzer's event model.
// Per block and launch with n = 2 ranks (collective_kernels.cu): the all-reduce records ALLREDUCE,
// two ALLREDUCE_SYNC_WAIT (before the reduce-scatter and between the phases; the waits inside
// the step loops need n > 2), one ALLREDUCE_RS and one ALLREDUCE_AG (n - 1 = 1 step each); the
// all-to-all records ALLTOALL, two ALLTOALL_SYNC_WAIT and one ALLTOALL_SEND per rank (2). The run
// (run.txt) launched each collective 7 times (2 warm-up + 5 timed) at each of 3 sizes on 32 blocks
// per rank and recorded 13440 GPU records per rank with none dropped.
#include <catch2/catch.hpp>

#include "analysis/phases/phase_breakdown.hpp"
#include "import/npkt/npkt_input.hpp"
#include "support/test_data.hpp"

namespace {

constexpr std::uint64_t kBlocks = 32;
constexpr std::uint64_t kLaunches = 3 * 7;  // per collective and block

std::uint64_t phase_count(const npkit::RankPhases& r, const npkit::PhaseAssignment& a,
                          const std::string& phase) {
  for (std::size_t p = 0; p < a.phase_names.size(); ++p) {
    if (a.phase_names[p] == phase) return r.gpu.at(p).count;
  }
  return 0;
}

}  // namespace

TEST_CASE("device events (real H200 capture): pairing matches the kernels' loops",
          "[model][events][real]") {
  npkit::ImportOptions o;
  o.path = npkit::test::source_path("samples/device-h200/collectives/dump");
  auto input = npkit::NpktInput::open(o, npkit::PhaseMap{});
  REQUIRE(input.ok());
  npkit::NpktInput& in = **input;
  CHECK(in.diagnostics().warnings().empty());
  const npkit::LoadedCaptures* loaded = &in.captures();
  REQUIRE(loaded->events.files.size() == 2);
  std::uint64_t gpu_streams = 0;
  for (const auto& s : loaded->event_streams) {
    INFO(npkit::locate_event_stream(*s.file, s.stream));
    CHECK(s.stats.unmatched_entries == 0);
    CHECK(s.stats.unmatched_exits == 0);
    CHECK(s.stats.unknown_ids == 0);
    CHECK(s.stats.nonmonotonic == 0);
    CHECK(s.stats.domain == npkit::TimeDomain::kHost);
    if (s.track.kind != npkit::TrackKind::kGpu) continue;
    ++gpu_streams;
    CHECK(s.stats.records == 2 * 10 * kLaunches);
    CHECK(s.stats.spans == 2 * 5 * kLaunches);
    CHECK(s.max_depth == 1);
    CHECK(s.file->dump->streams[s.stream].records_dropped == 0);
  }
  CHECK(gpu_streams == 2 * kBlocks);

  npkit::Run run;
  auto phases = npkit::read_run<npkit::PhaseBreakdownSink>(
      in, run, [&] { return npkit::PhaseBreakdownSink(in.phases()); });
  REQUIRE(phases.ok());
  CHECK(phases->clamped_spans() == 0);
  CHECK(in.diagnostics().warnings().empty());
  const auto& a = loaded->events.phases;
  REQUIRE(phases->ranks().size() == 2);
  for (const auto& r : phases->ranks()) {
    INFO("rank " << r.rank);
    CHECK(phase_count(r, a, "reduce_scatter") == kBlocks * kLaunches);
    CHECK(phase_count(r, a, "all_gather") == kBlocks * kLaunches);
    CHECK(phase_count(r, a, "sync") == kBlocks * kLaunches * (2 + 2));
    CHECK(phase_count(r, a, "p2p_send") == kBlocks * kLaunches * 2);
    // Exclusive times add up to the top-level time exactly.
    std::int64_t sum = 0;
    for (const auto& t : r.gpu) sum += t.ns;
    CHECK(sum == r.gpu_reference_ns);
    CHECK(r.gpu_reference_ns > 0);
  }
}
