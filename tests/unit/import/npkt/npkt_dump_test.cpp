// parse_npkt / read_npkt_file on valid files: every section and field through the test writer
// (an independent byte-by-byte encoder), forward compatibility and warnings.
#include "import/npkt/npkt_dump.hpp"

#include <catch2/catch.hpp>

#include <cstring>

#include "support/npkt_writer.hpp"
#include "support/temp_dir.hpp"

namespace format = npkit::format;
using npkit::NpktDump;
using npkit::test::NpktBuilder;
using npkit::test::Payload;
using npkit::test::RecordSpec;
using npkit::test::TempDir;

namespace {

NpktDump parse_ok(const NpktBuilder& b) {
  const std::string image = b.bytes();
  auto dump = npkit::parse_npkt("t.npkt", reinterpret_cast<const std::uint8_t*>(image.data()),
                                image.size());
  if (!dump.ok()) FAIL(dump.error().message);
  return std::move(*dump);
}

template <typename T>
T payload_as(const format::ProfilerRecord& r) {
  static_assert(sizeof(T) == sizeof(r.payload));
  T p;
  std::memcpy(&p, r.payload, sizeof(T));
  return p;
}

RecordSpec raw_record(std::uint64_t host_ns, std::uint64_t id, std::uint8_t kind, std::uint8_t type,
                      std::uint32_t word = 0) {
  RecordSpec r;
  r.host_ns = host_ns;
  r.event_id = id;
  r.kind = kind;
  r.type = type;
  r.word = word;
  return r;
}

// A file using every section and every CommunicatorInfo field, with distinct values.
NpktBuilder full_builder() {
  NpktBuilder b;
  b.comm(0x0123456789abcdefULL, 3, 8);
  auto& c = b.comm_info();
  c.nnodes = 2;
  c.pid = 31337;
  c.capture_start_ns = 1700000000000000000LL;
  c.capture_end_ns = 1700000005000000000LL;
  c.end_reason = format::kEndProcessExit;
  c.clock_method = format::kClockKernelBracket;
  c.profiler_api = 4;
  c.host_clock = format::kHostClockRealtime;
  c.event_mask = 0xFFF;
  c.records_capacity = 1000;
  c.records_attempted = 1007;
  c.records_dropped = 7;
  c.records_incomplete = 1;
  c.events_after_dump = 5;
  b.meta("hostname", "node-a").meta("comm_name", "").meta("env.NCCL_ALGO", "Ring,Tree");
  b.clock_sample(100, 300, 140200, format::kSampleAtInit);
  b.clock_sample(-5, 9000000000LL, 0xFFFFFFFFFFFFFFF0ULL, format::kSampleAtEnd);
  b.event_type_name(1, "Coll").event_type_name(6, "KernelCh").state_name(22, "KernelChStop");
  b.string(1, "AllReduce").string(2, "ncclFloat32").string(4, "Ring");
  b.thread(0, 4001, "python").thread(1, 4002, "exactly16chars!!");
  return b;
}

}  // namespace

TEST_CASE("npkt: header, Communicator and every fixed field round trip", "[npkt]") {
  NpktBuilder b = full_builder();
  b.minor(0).feature_bits(0x8000000000000003ULL);
  const NpktDump d = parse_ok(b);
  CHECK(d.path == "t.npkt");
  CHECK(d.minor_version == 0);
  CHECK(d.feature_bits == 0x8000000000000003ULL);
  CHECK(d.comm.comm_hash == 0x0123456789abcdefULL);
  CHECK(d.comm.rank == 3);
  CHECK(d.comm.nranks == 8);
  CHECK(d.comm.nnodes == 2);
  CHECK(d.comm.pid == 31337);
  CHECK(d.comm.capture_start_ns == 1700000000000000000LL);
  CHECK(d.comm.capture_end_ns == 1700000005000000000LL);
  CHECK(d.comm.end_reason == 2);
  CHECK(d.comm.clock_method == 1);
  CHECK(d.comm.profiler_api == 4);
  CHECK(d.comm.host_clock == 1);
  CHECK(d.comm.event_mask == 0xFFF);
  CHECK(d.comm.records_capacity == 1000);
  CHECK(d.comm.records_attempted == 1007);
  CHECK(d.comm.records_dropped == 7);
  CHECK(d.comm.records_incomplete == 1);
  CHECK(d.comm.events_after_dump == 5);
  CHECK(d.warnings.empty());
}

TEST_CASE("npkt: metadata, clock samples, names, strings and threads round trip", "[npkt]") {
  const NpktDump d = parse_ok(full_builder());
  using Pair = std::pair<std::string, std::string>;
  CHECK(d.metadata == std::vector<Pair>{{"hostname", "node-a"},
                                        {"comm_name", ""},
                                        {"env.NCCL_ALGO", "Ring,Tree"}});
  CHECK(d.meta("hostname") == "node-a");
  CHECK(d.meta("env.NCCL_ALGO") == "Ring,Tree");
  CHECK(d.meta("gpu.name").empty());

  REQUIRE(d.clock_samples.size() == 2);
  CHECK(d.clock_samples[0].host_before_ns == 100);
  CHECK(d.clock_samples[0].host_after_ns == 300);
  CHECK(d.clock_samples[0].gpu_ns == 140200);
  CHECK(d.clock_samples[0].when == 0);
  CHECK(d.clock_samples[1].host_before_ns == -5);
  CHECK(d.clock_samples[1].host_after_ns == 9000000000LL);
  CHECK(d.clock_samples[1].gpu_ns == 0xFFFFFFFFFFFFFFF0ULL);
  CHECK(d.clock_samples[1].when == 1);

  using Name = std::pair<std::uint32_t, std::string>;
  CHECK(d.event_type_names == std::vector<Name>{{1, "Coll"}, {6, "KernelCh"}});
  CHECK(d.state_names == std::vector<Name>{{22, "KernelChStop"}});

  // Ids 1, 2 and 4: id 3 is a gap, id 0 is "none".
  CHECK(d.strings == std::vector<std::string>{"", "AllReduce", "ncclFloat32", "", "Ring"});
  CHECK(d.string_at(0).empty());
  CHECK(d.string_at(4) == "Ring");
  CHECK(d.string_at(5).empty());
  CHECK(d.string_at(0xFFFFFFFFu).empty());

  REQUIRE(d.threads.size() == 2);
  CHECK(d.threads[0].slot == 0);
  CHECK(d.threads[0].os_tid == 4001);
  CHECK(std::string(d.threads[0].name, strnlen(d.threads[0].name, 16)) == "python");
  CHECK(d.threads[1].slot == 1);
  CHECK(d.threads[1].os_tid == 4002);
  CHECK(std::string(d.threads[1].name, 16) == "exactly16chars!!");
}

TEST_CASE("npkt: records keep every field and every start payload layout", "[npkt]") {
  NpktBuilder b;
  b.comm(1, 0, 2);
  b.on_thread(0).start(1, 0, format::kTypeGroupApi, 10,
                       npkit::test::GroupApiStart{.group_depth = 2, .graph_captured = 1},
                       format::kStartParentNull);
  b.start(2, 1, format::kTypeCollApi, 11,
          npkit::test::CollApiStart{.count = 1024,
                                    .stream = 0xdeadbeef,
                                    .root = -1,
                                    .func = 1,
                                    .datatype = 2,
                                    .graph_captured = 1});
  b.start(3, 1, format::kTypeP2pApi, 12,
          npkit::test::P2pApiStart{
              .count = 7, .stream = 9, .func = 3, .datatype = 4, .graph_captured = 1});
  b.start(4, 2, format::kTypeKernelLaunch, 13, npkit::test::KernelLaunchStart{.stream = 0x77});
  b.on_thread(1).start(5, 0, format::kTypeColl, 14,
                       npkit::test::CollStart{.seq = 42,
                                              .count = 1 << 20,
                                              .root = 3,
                                              .func = 1,
                                              .datatype = 2,
                                              .algo = 5,
                                              .proto = 6,
                                              .n_channels = 16,
                                              .n_warps = 8},
                       format::kStartParentOtherComm);
  b.start(6, 0, format::kTypeP2p, 15,
          npkit::test::P2pStart{.count = 99, .peer = 1, .func = 7, .datatype = 8, .n_channels = 2});
  b.start(7, 5, format::kTypeProxyOp, 16,
          npkit::test::ProxyOpStart{.pid = 555,
                                    .peer = 1,
                                    .n_steps = 8,
                                    .chunk_size = 524288,
                                    .rank = 0,
                                    .channel = 3,
                                    .is_send = 1},
          format::kStartParentForeign);
  b.start(8, 7, format::kTypeProxyStep, 17, npkit::test::ProxyStepStart{.step = 6, .rank = 0});
  b.start(9, 5, format::kTypeKernelCh, 18,
          npkit::test::KernelChStart{.gpu_start_ns = 1234567890123ULL, .channel = 31});
  b.start(10, 0, format::kTypeNetPlugin, 19, npkit::test::NetPluginStart{.plugin_id = 0x10001},
          format::kStartParentUnknown);
  b.start(11, 0, format::kTypeProxyCtrl, 20);
  b.on_thread(2).state(8, format::kTypeProxyStep, 21, format::kStateProxyStepSendWait, 65536);
  b.state(1, format::kTypeGroupApi, 22, format::kStateGroupEndApiStart, 0, false);
  b.stop(9, format::kTypeKernelCh, 0xFFFFFFFFFFFFFFFFULL);

  const NpktDump d = parse_ok(b);
  REQUIRE(d.records.size() == 14);
  const auto& r = d.records;
  CHECK(r[0].host_ns == 10);
  CHECK(r[0].event_id == 1);
  CHECK(r[0].parent_id == 0);
  CHECK(r[0].kind == format::kRecordStart);
  CHECK(r[0].type == format::kTypeGroupApi);
  CHECK(r[0].thread == 0);
  CHECK(r[0].word == format::kStartParentNull);
  const auto group = payload_as<format::GroupApiPayload>(r[0]);
  CHECK(group.group_depth == 2);
  CHECK(group.graph_captured == 1);

  const auto coll_api = payload_as<format::CollApiPayload>(r[1]);
  CHECK(r[1].parent_id == 1);
  CHECK(coll_api.count == 1024);
  CHECK(coll_api.stream == 0xdeadbeef);
  CHECK(coll_api.root == -1);
  CHECK(coll_api.func == 1);
  CHECK(coll_api.datatype == 2);
  CHECK(coll_api.graph_captured == 1);

  const auto p2p_api = payload_as<format::P2pApiPayload>(r[2]);
  CHECK(p2p_api.count == 7);
  CHECK(p2p_api.stream == 9);
  CHECK(p2p_api.func == 3);
  CHECK(p2p_api.datatype == 4);
  CHECK(p2p_api.graph_captured == 1);

  CHECK(payload_as<format::KernelLaunchPayload>(r[3]).stream == 0x77);

  const auto coll = payload_as<format::CollPayload>(r[4]);
  CHECK(r[4].thread == 1);
  CHECK(r[4].word == format::kStartParentOtherComm);
  CHECK(coll.seq == 42);
  CHECK(coll.count == 1u << 20);
  CHECK(coll.root == 3);
  CHECK(coll.func == 1);
  CHECK(coll.datatype == 2);
  CHECK(coll.algo == 5);
  CHECK(coll.proto == 6);
  CHECK(coll.n_channels == 16);
  CHECK(coll.n_warps == 8);

  const auto p2p = payload_as<format::P2pPayload>(r[5]);
  CHECK(p2p.count == 99);
  CHECK(p2p.peer == 1);
  CHECK(p2p.func == 7);
  CHECK(p2p.datatype == 8);
  CHECK(p2p.n_channels == 2);

  const auto op = payload_as<format::ProxyOpPayload>(r[6]);
  CHECK(r[6].word == format::kStartParentForeign);
  CHECK(op.pid == 555);
  CHECK(op.peer == 1);
  CHECK(op.n_steps == 8);
  CHECK(op.chunk_size == 524288);
  CHECK(op.rank == 0);
  CHECK(op.channel == 3);
  CHECK(op.is_send == 1);

  const auto step = payload_as<format::ProxyStepPayload>(r[7]);
  CHECK(step.step == 6);
  CHECK(step.rank == 0);

  const auto kch = payload_as<format::KernelChPayload>(r[8]);
  CHECK(kch.gpu_start_ns == 1234567890123ULL);
  CHECK(kch.channel == 31);

  CHECK(payload_as<format::NetPluginPayload>(r[9]).plugin_id == 0x10001);
  CHECK(r[9].word == format::kStartParentUnknown);

  CHECK(r[10].type == format::kTypeProxyCtrl);
  for (auto byte : r[10].payload) CHECK(byte == 0);

  const auto state = payload_as<format::StatePayload>(r[11]);
  CHECK(r[11].kind == format::kRecordState);
  CHECK(r[11].thread == 2);
  CHECK(r[11].word == format::kStateProxyStepSendWait);
  CHECK(state.value == 65536);
  CHECK(state.has_args == 1);
  const auto no_args = payload_as<format::StatePayload>(r[12]);
  CHECK(r[12].word == format::kStateGroupEndApiStart);
  CHECK(no_args.has_args == 0);

  CHECK(r[13].kind == format::kRecordStop);
  CHECK(r[13].event_id == 9);
  CHECK(r[13].host_ns == 0xFFFFFFFFFFFFFFFFULL);
  CHECK(r[13].word == 0);
  CHECK(d.warnings.empty());
}

TEST_CASE("npkt: sections in any order, empty optional sections", "[npkt]") {
  // Only a Communicator: every other section left out; no names gives a warning.
  NpktBuilder only_comm;
  only_comm.comm(5, 1, 2);
  for (auto k : {NpktBuilder::kMetadata, NpktBuilder::kNames, NpktBuilder::kStrings,
                 NpktBuilder::kThreads, NpktBuilder::kProfilerRecords}) {
    only_comm.omit(k);
  }
  const NpktDump d = parse_ok(only_comm);
  CHECK(d.comm.comm_hash == 5);
  CHECK(d.records.empty());
  CHECK(d.strings == std::vector<std::string>{""});
  CHECK(d.warnings == std::vector<std::string>{
                          "no Names section: event types and states are unnamed in this file"});

  // The Communicator section need not come first.
  NpktBuilder late_comm;
  late_comm.comm(7, 1, 4).meta("k", "v").last(NpktBuilder::kCommunicator);
  const NpktDump late = parse_ok(late_comm);
  CHECK(late.comm.comm_hash == 7);
  CHECK(late.comm.rank == 1);
  CHECK(late.comm.nranks == 4);
  CHECK(late.meta("k") == "v");
}

TEST_CASE("npkt: a newer minor is read: bigger header, bigger entries, unknown sections",
          "[npkt]") {
  NpktBuilder b = full_builder();
  b.minor(7).header_size(96);
  b.entry_size(NpktBuilder::kCommunicator, 144)
      .entry_size(NpktBuilder::kClockSamples, 40)
      .entry_size(NpktBuilder::kThreads, 32)
      .entry_size(NpktBuilder::kProfilerRecords, 72);
  b.start(1, 0, format::kTypeColl, 1000, npkit::test::CollStart{.seq = 3, .count = 64});
  b.stop(1, format::kTypeColl, 2000);
  b.extra_section(200, 0, "a newer section");
  b.extra_section(201, 12, std::string(36, '\x7f'));
  b.extra_section(200, 0, "");
  b.name(3, 0, "a newer domain");
  const NpktDump d = parse_ok(b);
  CHECK(d.minor_version == 7);
  CHECK(d.comm.comm_hash == 0x0123456789abcdefULL);
  CHECK(d.comm.events_after_dump == 5);
  for (auto byte : d.comm.reserved) CHECK(byte == 0);  // the 0xA5 filler is not read
  REQUIRE(d.clock_samples.size() == 2);
  CHECK(d.clock_samples[1].gpu_ns == 0xFFFFFFFFFFFFFFF0ULL);
  CHECK(d.clock_samples[1].when == 1);
  REQUIRE(d.threads.size() == 2);
  CHECK(d.threads[1].os_tid == 4002);
  REQUIRE(d.records.size() == 2);
  CHECK(d.records[0].host_ns == 1000);
  CHECK(payload_as<format::CollPayload>(d.records[0]).seq == 3);
  CHECK(d.records[1].kind == format::kRecordStop);
  CHECK(d.records[1].host_ns == 2000);
  CHECK(d.meta("hostname") == "node-a");
  CHECK(d.string_at(4) == "Ring");
  // This reader knows minors up to 4 (KernelPhase, call tags: NCCL profiler API v7).
  CHECK(
      d.warnings ==
      std::vector<std::string>{
          "1 name(s) of an unknown domain skipped (known: 1 event type, 2 state)",
          "written by a newer npkit (format 1.7; this reader knows 1.4): sections, records, event "
          "types and details it added are skipped, the rest is read (format.md, Compatibility "
          "rules)",
          "3 section(s) of unknown kind skipped (kinds 200, 201)"});
}

TEST_CASE("npkt: unfinished and unknown records are left out with counted warnings", "[npkt]") {
  NpktBuilder b;
  b.comm(1, 0, 1);
  b.start(1, 0, format::kTypeColl, 100);
  b.record(raw_record(0, 0, 0, 0));
  b.record(raw_record(5, 2, 5, 1));
  b.record(raw_record(0, 3, 0, 9));
  b.record(raw_record(6, 4, 1, 16));
  b.record(raw_record(7, 5, 3, 15, 99));
  b.stop(1, format::kTypeColl, 200);
  const NpktDump d = parse_ok(b);
  // Records payload starts at 296 (64 header + 152 Communicator + 4 empty sections of 16 bytes
  // + the records section header); the kind-5 record is the third: 296 + 2 * 64 = 424.
  REQUIRE(d.records.size() == 3);
  CHECK(d.records[0].event_id == 1);
  CHECK(d.records[1].event_id == 5);  // kind 3, type 15: the largest accepted
  CHECK(d.records[1].word == 99);
  CHECK(d.records[2].event_id == 1);
  CHECK(d.records[2].kind == format::kRecordStop);
  CHECK(d.warnings ==
        std::vector<std::string>{
            "2 record(s) not finished when the dump was taken (kind 0) left out",
            "2 record(s) of an unknown kind (> 4) or event type (> 15) skipped; first at offset "
            "424: kind 5, type 1"});
}

TEST_CASE("npkt: read_npkt_file reads the file the writer wrote", "[npkt]") {
  TempDir tmp;
  NpktBuilder b = full_builder();
  b.standard_names();
  b.start(1, 0, format::kTypeColl, 100).stop(1, format::kTypeColl, 150);
  const std::string path = b.write(tmp);
  CHECK(path == tmp.file("npkit_0123456789abcdef_rank3.npkt"));
  auto d = npkit::read_npkt_file(path);
  REQUIRE(d.ok());
  CHECK(d->path == path);
  CHECK(d->records.size() == 2);
  CHECK(d->event_type_names.size() == 2 + 12);
  CHECK(d->state_names.size() == 1 + 25);
  CHECK(d->state_names.back() == std::pair<std::uint32_t, std::string>{24, "GroupEndApiStart"});
}

TEST_CASE("npkt: looks_like_npkt checks the magic only", "[npkt]") {
  const auto u8 = [](const char* s) { return reinterpret_cast<const std::uint8_t*>(s); };
  CHECK(npkit::looks_like_npkt(u8("NPKTDUMP"), 8));
  CHECK(npkit::looks_like_npkt(u8("NPKTDUMPxyz"), 11));
  CHECK_FALSE(npkit::looks_like_npkt(u8("NPKTDUM"), 7));
  CHECK_FALSE(npkit::looks_like_npkt(u8("NPKTDUMQ"), 8));
  CHECK_FALSE(npkit::looks_like_npkt(nullptr, 0));
}
