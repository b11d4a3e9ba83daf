// Profiler API v7 (NCCL 2.31): ncclProfiler_v7's KernelPhase events, user tags and symmetric
// kernel fields read back field by field (format minor 4: the KernelPhase payload, state 31 and
// the call-tag detail), and what the analyzer's reader makes of them. Expected values are the
// descriptors fed (v7_driver.hpp) and the format's contract (include/npkit/format.hpp,
// docs/format.md).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/host_clock.hpp"
#include "capture/plugin/other_thread.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/v7_driver.hpp"
#include "import/npkt/host_gpu_clock.hpp"
#include "import/npkt/profiler_collectives.hpp"
#include "import/npkt/profiler_events.hpp"
#include "import/npkt/profiler_kernel_channels.hpp"

namespace npkit::test {
namespace {

std::vector<const format::ProfilerRecord*> records_of(const NpktDump& dump, uint8_t type,
                                                      uint8_t kind) {
  std::vector<const format::ProfilerRecord*> out;
  for (const auto& r : dump.records) {
    if (r.type == type && r.kind == kind) out.push_back(&r);
  }
  return out;
}

// The call-tag detail record of event `id`, or nullptr.
const format::ProfilerRecord* call_tag_of(const NpktDump& dump, uint64_t id) {
  for (const auto& r : dump.records) {
    if (r.kind == format::kRecordDetail && r.event_id == id && r.word == format::kDetailCallTag) {
      return &r;
    }
  }
  return nullptr;
}

// The GPU clock as the plugin's tests can have it: the host clock plus the 0.13 ms an H200's
// %globaltimer ran ahead of it (docs/format.md, Clocks), read when the kernel "ran".
uint64_t gpu_now() {
  return static_cast<uint64_t>(realtime_ns()) + 130'000;
}

// A symmetric AllGather tagged 42 on two channels with all three phases each, then an untagged
// plain AllReduce on one channel whose kernel stamped no inner instant (no phase at all).
struct TwoCalls {
  void* sym = nullptr;
  void* plain = nullptr;
  uint64_t base = 0;  // GPU ns the stamps of the first call are relative to
};

TwoCalls run_two_calls(V7Comm& comm) {
  TwoCalls out;
  out.sym = enqueue_v7_call(comm, {.func = "AllGather",
                                   .seq = 3,
                                   .count = 1048576,
                                   .datatype = "ncclInt8",
                                   .tag = 42,
                                   .channels = 2,
                                   .sym_variant = "AGxLL_R"});
  out.base = gpu_now();
  const uint64_t g = out.base;
  run_on_other_thread("profiler", [&] {
    run_kernel_channel(comm, out.sym, {0, g, g + 200, g + 4200, g + 4300});
    run_kernel_channel(comm, out.sym, {1, g + 100, g + 400, g + 4000, g + 4600});
  });
  out.plain = enqueue_v7_call(comm, {.func = "AllReduce", .seq = 0, .count = 262144});
  const uint64_t h = gpu_now();
  run_on_other_thread("profiler", [&] {
    run_kernel_channel(comm, out.plain, {2, h, 0, 0, h + 900});
  });
  return out;
}

TEST_CASE("plugin v7: KernelPhase, user tags and a symmetric kernel read back field by field",
          "[plugin]") {
  PluginEnv env;
  const uint64_t hash = 0x7e57000000000e01ull;
  V7Comm comm(hash, 1, 2);
  CHECK(comm.mask() == static_cast<int>(abi::kAllV7Events));
  const TwoCalls calls = run_two_calls(comm);
  comm.finalize();

  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 1)));
  CHECK(dump.minor_version == 4);
  CHECK(dump.comm.profiler_api == 7);
  CHECK(dump.comm.event_mask == 65535);
  check_names_section(dump);

  // The tagged call: its CollApi and Coll carry call-tag details; the untagged plain one none.
  const auto coll_apis = records_of(dump, format::kTypeCollApi, format::kRecordStart);
  REQUIRE(coll_apis.size() == 2);
  const format::ProfilerRecord* api_tag = call_tag_of(dump, coll_apis[0]->event_id);
  REQUIRE(api_tag != nullptr);
  CHECK(api_tag->type == format::kTypeCollApi);
  CHECK(payload_as<format::CallTagDetail>(*api_tag).user_tag == 42);
  CHECK(payload_as<format::CallTagDetail>(*api_tag).kernel_variant == 0);
  CHECK(payload_as<format::CallTagDetail>(*api_tag).is_sym_coll == 0);
  CHECK(call_tag_of(dump, coll_apis[1]->event_id) == nullptr);

  const auto colls = records_of(dump, format::kTypeColl, format::kRecordStart);
  REQUIRE(colls.size() == 2);
  const auto sym = payload_as<format::CollPayload>(*colls[0]);
  CHECK(sym.seq == 3);
  CHECK(dump.string_at(sym.func) == "AllGather");
  CHECK(dump.string_at(sym.algo) == "R");  // NCCL passes the variant's part after '_'
  CHECK(dump.string_at(sym.proto).empty());
  CHECK(sym.n_channels == 2);
  const format::ProfilerRecord* coll_tag = call_tag_of(dump, colls[0]->event_id);
  REQUIRE(coll_tag != nullptr);
  const auto tag = payload_as<format::CallTagDetail>(*coll_tag);
  CHECK(tag.user_tag == 42);
  CHECK(dump.string_at(tag.kernel_variant) == "AGxLL_R");
  CHECK(tag.is_sym_coll == 1);
  CHECK(call_tag_of(dump, colls[1]->event_id) == nullptr);
  CHECK(dump.string_at(payload_as<format::CollPayload>(*colls[1]).algo) == "RING");

  // KernelPhase: three per channel of the symmetric call, children of their KernelCh, each with
  // its stop as state 31; none for the plain call's channel.
  const auto kernels = records_of(dump, format::kTypeKernelCh, format::kRecordStart);
  REQUIRE(kernels.size() == 3);
  const auto phases = records_of(dump, format::kTypeKernelPhase, format::kRecordStart);
  REQUIRE(phases.size() == 6);
  const uint64_t g = calls.base;
  const uint64_t expected_start[6] = {g, g + 200, g + 4200, g + 100, g + 400, g + 4000};
  const uint64_t expected_stop[6] = {g + 200, g + 4200, g + 4300, g + 400, g + 4000, g + 4600};
  const char* names[3] = {"initial_sync", "compute", "final_sync"};
  const auto stops = records_of(dump, format::kTypeKernelPhase, format::kRecordState);
  REQUIRE(stops.size() == 6);
  for (std::size_t i = 0; i < phases.size(); ++i) {
    INFO("phase record " << i);
    const auto p = payload_as<format::KernelPhasePayload>(*phases[i]);
    CHECK(phases[i]->parent_id == kernels[i / 3]->event_id);
    CHECK(p.channel == i / 3);
    CHECK(p.phase_id == i % 3);
    CHECK(dump.string_at(p.phase_name) == names[i % 3]);
    CHECK(p.gpu_start_ns == expected_start[i]);
    CHECK(stops[i]->event_id == phases[i]->event_id);
    CHECK(stops[i]->word == format::kStateKernelPhaseStop);
    CHECK(payload_as<format::StatePayload>(*stops[i]).value == expected_stop[i]);
    CHECK(payload_as<format::StatePayload>(*stops[i]).has_args == 1);
  }
  CHECK(records_of(dump, format::kTypeKernelPhase, format::kRecordStop).size() == 6);
}

TEST_CASE("plugin v7: the analyzer's collectives carry the phases, the tag and the variant",
          "[plugin]") {
  PluginEnv env;
  const uint64_t hash = 0x7e57000000000e02ull;
  V7Comm comm(hash, 0, 2);
  run_two_calls(comm);
  comm.finalize();

  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 0)));
  const ProfilerEvents events = build_profiler_events(dump);
  CHECK(events.counts.started[format::kTypeKernelPhase] == 6);
  CHECK(events.counts.never_stopped[format::kTypeKernelPhase] == 0);
  CHECK(events.counts.details_unknown == 0);
  const HostGpuClock clock = fit_host_gpu_clock(dump, events);
  const KernelChannelCheck check = check_kernel_channels(events, clock);
  CHECK(check.stale() == 0);
  const std::vector<ProfilerCollective> ops = collect_collectives(dump, events, clock, check);
  REQUIRE(ops.size() == 2);
  const ProfilerCollective& sym = ops[0];
  CHECK(sym.func_name == "AllGather");
  CHECK(sym.user_tag == 42);
  CHECK(sym.kernel_variant == "AGxLL_R");
  CHECK(sym.sym_kernel);
  REQUIRE(sym.has_gpu_span);
  // Channel 0: 0, 200, 4200, 4300; channel 1: 100, 400, 4000, 4600 (ns after the base). First
  // begin 0, first compute start 200, last compute end 4200, last end 4600.
  CHECK(sym.gpu_duration_ns() == 4600);
  REQUIRE(sym.kernel_phases.has_value());
  CHECK(sym.kernel_phases->initial_sync_ns() == 200);
  CHECK(sym.kernel_phases->compute_ns() == 4000);
  CHECK(sym.kernel_phases->final_sync_ns() == 400);
  CHECK(sym.kernel_phases->channels == 2);
  const ProfilerCollective& plain = ops[1];
  CHECK(plain.func_name == "AllReduce");
  CHECK(plain.user_tag == 0);
  CHECK(plain.kernel_variant.empty());
  CHECK_FALSE(plain.sym_kernel);
  CHECK(plain.has_gpu_span);
  CHECK_FALSE(plain.kernel_phases.has_value());
}

}  // namespace
}  // namespace npkit::test
