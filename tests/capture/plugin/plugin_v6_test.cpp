// Profiler API v6 (NCCL 2.29, 2.30): the copy-engine events CeColl, CeSync and CeBatch read back
// field by field (format minor 3: payloads and the CeColl detail record), the analyzer's
// collectives show the CE AllGather, and the v5 event tree fed through v6 reads back as under v5
// (parentGroup detail records included). Expected values are the descriptors fed and the
// format's contract (include/npkit/format.hpp, docs/format.md).
#include <string>

#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/plugin/v6_driver.hpp"
#include "import/npkt/host_gpu_clock.hpp"
#include "import/npkt/profiler_collectives.hpp"
#include "import/npkt/profiler_events.hpp"
#include "import/npkt/profiler_kernel_channels.hpp"

namespace npkit::test {
namespace {

TEST_CASE("plugin v6: copy-engine events read back field by field", "[plugin]") {
  PluginEnv env;
  const uint64_t hash = 0x7e57000000000d01ull;
  V6Comm comm(hash, 1, 2);
  CHECK(comm.mask() == static_cast<int>(abi::kAllV6Events));
  enqueue_ce_allgather(comm, 1, 4);
  comm.finalize();

  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 1)));
  CHECK(dump.minor_version == 4);
  CHECK(dump.comm.profiler_api == 6);
  CHECK(dump.comm.event_mask == 32767);
  check_names_section(dump);
  // GroupApi, CollApi, CeColl + its detail, CeSync, stop, CeBatch, stop, CeSync, stop, 3 stops.
  REQUIRE(dump.records.size() == 13);
  const format::ProfilerRecord& ce = dump.records[2];
  CHECK(ce.kind == format::kRecordStart);
  CHECK(ce.type == 12);
  CHECK(ce.parent_id == dump.records[1].event_id);
  const auto payload = payload_as<format::CeCollPayload>(ce);
  CHECK(payload.seq == 4);
  CHECK(payload.count == 1048576);
  CHECK(payload.root == -1);
  CHECK(dump.string_at(payload.func) == "AllGather");
  CHECK(dump.string_at(payload.datatype) == "ncclInt8");
  CHECK(dump.string_at(payload.sync_strategy) == "UC");
  CHECK(payload.intra_batch_sync == 1);
  CHECK(payload.ce_seq == 104);

  const format::ProfilerRecord& detail = dump.records[3];
  CHECK(detail.kind == format::kRecordDetail);
  CHECK(detail.type == 12);
  CHECK(detail.event_id == ce.event_id);
  CHECK(detail.word == format::kDetailCeColl);
  const auto buffers = payload_as<format::CeCollDetail>(detail);
  CHECK(buffers.send_buff == 0x7f0000000000ull);
  CHECK(buffers.recv_buff == 0x7f0000100000ull);
  CHECK(buffers.stream == 0x5000);
  CHECK(buffers.batch_size == 7);
  CHECK(buffers.num_batches == 3);

  const format::ProfilerRecord& sync = dump.records[4];
  CHECK(sync.type == 13);
  CHECK(sync.parent_id == ce.event_id);
  CHECK(payload_as<format::CeSyncPayload>(sync).n_ranks == 2);
  CHECK(payload_as<format::CeSyncPayload>(sync).is_complete == 0);
  const format::ProfilerRecord& batch = dump.records[6];
  CHECK(batch.type == 14);
  CHECK(batch.parent_id == ce.event_id);
  CHECK(payload_as<format::CeBatchPayload>(batch).num_ops == 2);
  CHECK(payload_as<format::CeBatchPayload>(batch).total_bytes == 2097152);
  CHECK(payload_as<format::CeBatchPayload>(batch).use_intra_sync == 1);
  CHECK(payload_as<format::CeSyncPayload>(dump.records[8]).is_complete == 1);
}

TEST_CASE("plugin v6: the analyzer shows a CE AllGather as a collective without a GPU span",
          "[plugin]") {
  PluginEnv env;
  const uint64_t hash = 0x7e57000000000d02ull;
  V6Comm comm(hash, 0, 2);
  enqueue_ce_allgather(comm, 0, 0);
  enqueue_ce_allgather(comm, 0, 2);
  comm.finalize();

  const NpktDump dump = read_dump(env.file(dump_file_name(hash, 0)));
  const ProfilerEvents events = build_profiler_events(dump);
  CHECK(events.counts.started[12] == 2);
  CHECK(events.counts.started[13] == 4);
  CHECK(events.counts.started[14] == 2);
  CHECK(events.counts.details_unknown == 0);
  const HostGpuClock clock = fit_host_gpu_clock(dump, events);
  const KernelChannelCheck check = check_kernel_channels(events, clock);
  const std::vector<ProfilerCollective> ops = collect_collectives(dump, events, clock, check);
  REQUIRE(ops.size() == 2);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    INFO("operation " << i);
    CHECK(ops[i].copy_engine);
    CHECK(ops[i].func_name == "AllGather");
    CHECK(ops[i].algo == "CE");
    CHECK(ops[i].proto == "UC");
    CHECK(ops[i].type == "ncclFloat32");  // the user's, from the CollApi parent
    CHECK(ops[i].seq == 2 * i);
    // nccl-tests' S: 1048576 bytes per rank x 2 ranks.
    CHECK(ops[i].bytes == 2097152);
    CHECK_FALSE(ops[i].has_gpu_span);
    const format::CeCollDetail* detail = events.ce_detail(ops[i].event);
    REQUIRE(detail != nullptr);
    CHECK(detail->num_batches == 3);
  }
}

TEST_CASE("plugin v6: the v5 event tree fed through v6 reads back with its Group links",
          "[plugin]") {
  PluginEnv env;
  CommDriver comm({.comm_hash = 0x7e57000000000d03ull, .rank = 0, .nranks = 2, .api = 6});
  void* group_api = comm.start(group_api_descr(1, false));
  // What NCCL 2.29/2.30's v5 adapter passes for states 23 and 24: args it never set.
  abi::StateArgs garbage;
  std::memset(static_cast<void*>(&garbage), 0xA5, sizeof(garbage));
  comm.state(group_api, format::kStateGroupStartApiStop, &garbage);
  void* coll_api =
      comm.start(coll_api_descr(group_api, "AllReduce", 1000, "ncclFloat32", 0, nullptr, false));
  comm.stop(coll_api);
  void* p2p_api = comm.start(p2p_api_descr(group_api, "Send", 64, "ncclInt8", nullptr, false));
  comm.stop(p2p_api);
  comm.state(group_api, format::kStateGroupEndApiStart, &garbage);
  void* group = comm.start(group_descr());
  void* coll = comm.start(
      coll_descr(coll_api, 0, 3, "AllReduce", 1000, 0, "ncclFloat32", 2, 16, "RING", "LL", group));
  void* p2p = comm.start(p2p_descr(p2p_api, 0, "Send", 64, "ncclInt8", 1, 4, group));
  comm.stop(coll);
  comm.stop(p2p);
  comm.stop(group);
  comm.stop(group_api);
  // Records checked against the calls: Coll and P2p each followed by their parentGroup detail,
  // the GroupApi states recorded with has_args 0 whatever the args held.
  const NpktDump dump = finalize_and_check(comm, env.dir.path());
  CHECK(dump.comm.profiler_api == 6);
  const ProfilerEvents events = build_profiler_events(dump);
  std::size_t linked = 0;
  for (std::uint32_t e = 0; e < events.size(); ++e) {
    if (events.type[e] != format::kTypeColl && events.type[e] != format::kTypeP2p) continue;
    REQUIRE(events.group[e] != kNoEvent);
    CHECK(events.type[events.group[e]] == format::kTypeGroup);
    ++linked;
  }
  CHECK(linked == 2);
}

}  // namespace
}  // namespace npkit::test
