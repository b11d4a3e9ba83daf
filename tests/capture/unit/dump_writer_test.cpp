// The dump writer, checked by reading the bytes back with the separate reader of
// dump_bytes_reader.hpp against a hand-made DumpContent and the reference's names.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "capture/unit/dump_at_path.hpp"
#include "recorder/dump_writer.hpp"
#include "support/dump_bytes_reader.hpp"
#include "support/temp_dir.hpp"

namespace fmt = npkit::format;
using npkit::capture::DumpContent;

namespace {

fmt::ProfilerRecord make_record(uint64_t host_ns, uint64_t id, uint8_t kind, uint8_t type,
                                uint32_t word, uint8_t payload_byte) {
  fmt::ProfilerRecord record{};
  record.host_ns = host_ns;
  record.event_id = id;
  record.parent_id = id / 2;
  record.kind = kind;
  record.type = type;
  record.thread = 2;
  record.word = word;
  std::memset(record.payload, payload_byte, sizeof(record.payload));
  return record;
}

DumpContent sample_content(const std::vector<fmt::ProfilerRecord>& records) {
  DumpContent content;
  fmt::CommunicatorInfo& comm = content.comm;
  comm.comm_hash = 0x0123456789abcdefull;
  comm.rank = 3;
  comm.nranks = 8;
  comm.nnodes = 2;
  comm.pid = 4242;
  comm.capture_start_ns = 1000;
  comm.capture_end_ns = 2000;
  comm.end_reason = fmt::kEndFinalize;
  comm.clock_method = fmt::kClockKernelBracket;
  comm.profiler_api = 5;
  comm.host_clock = fmt::kHostClockRealtime;
  comm.event_mask = 71;
  comm.records_capacity = 16;
  comm.records_attempted = 4;
  comm.records_incomplete = 1;
  comm.events_after_dump = 2;
  content.metadata = {{"hostname", "node7"}, {"comm_name", ""}};
  content.clock_samples = {{100, 140, 5000, fmt::kSampleAtInit, 0},
                           {900, 950, 9000, fmt::kSampleAtEnd, 0}};
  content.strings = {{3, "AllReduce"}, {9, "RING"}};
  fmt::ThreadEntry thread{};
  thread.slot = 2;
  thread.os_tid = 555;
  std::strcpy(thread.name, "main");
  content.threads = {thread};
  content.records = records.data();
  for (uint64_t i = 0; i < records.size(); ++i) content.record_order.push_back(i);
  return content;
}

// Every event type bit index and state value with its NCCL name (profiler reference 2.4, 2.6).
const std::vector<npkit::test::ParsedName> kExpectedNames = {
    {1, 0, "Group"},
    {1, 1, "Coll"},
    {1, 2, "P2p"},
    {1, 3, "ProxyOp"},
    {1, 4, "ProxyStep"},
    {1, 5, "ProxyCtrl"},
    {1, 6, "KernelCh"},
    {1, 7, "NetPlugin"},
    {1, 8, "GroupApi"},
    {1, 9, "CollApi"},
    {1, 10, "P2pApi"},
    {1, 11, "KernelLaunch"},
    {1, 12, "CeColl"},
    {1, 13, "CeSync"},
    {1, 14, "CeBatch"},
    {1, 15, "KernelPhase"},
    {2, 0, "ProxyOpSendPosted"},
    {2, 1, "ProxyOpSendRemFifoWait"},
    {2, 2, "ProxyOpSendTransmitted"},
    {2, 3, "ProxyOpSendDone"},
    {2, 4, "ProxyOpRecvPosted"},
    {2, 5, "ProxyOpRecvReceived"},
    {2, 6, "ProxyOpRecvTransmitted"},
    {2, 7, "ProxyOpRecvDone"},
    {2, 8, "ProxyStepSendGPUWait"},
    {2, 9, "ProxyStepSendWait"},
    {2, 10, "ProxyStepRecvWait"},
    {2, 11, "ProxyStepRecvFlushWait"},
    {2, 12, "ProxyStepRecvGPUWait"},
    {2, 13, "ProxyCtrlIdle"},
    {2, 14, "ProxyCtrlActive"},
    {2, 15, "ProxyCtrlSleep"},
    {2, 16, "ProxyCtrlWakeup"},
    {2, 17, "ProxyCtrlAppend"},
    {2, 18, "ProxyCtrlAppendEnd"},
    {2, 19, "ProxyOpInProgress_v4"},
    {2, 20, "ProxyStepSendPeerWait_v4"},
    {2, 21, "NetPluginUpdate"},
    {2, 22, "KernelChStop"},
    {2, 23, "GroupStartApiStop"},
    {2, 24, "GroupEndApiStart"},
    {2, 25, "CeCollStart"},
    {2, 26, "CeCollComplete"},
    {2, 27, "CeSyncStart"},
    {2, 28, "CeSyncComplete"},
    {2, 29, "CeBatchStart"},
    {2, 30, "CeBatchComplete"},
    {2, 31, "KernelPhaseStop"},
};

}  // namespace

TEST_CASE("dump writer: every section reads back as written", "[capture]") {
  npkit::test::TempDir dir;
  const std::vector<fmt::ProfilerRecord> records = {
      make_record(10, 1, fmt::kRecordStart, fmt::kTypeColl, fmt::kStartParentNull, 0x11),
      make_record(20, 2, fmt::kRecordState, fmt::kTypeKernelCh, 22, 0x22),
      make_record(30, 3, fmt::kRecordNone, fmt::kTypeKernelCh, 0, 0x33),  // left incomplete
      make_record(40, 1, fmt::kRecordStop, fmt::kTypeColl, 0, 0x44),
  };
  DumpContent content = sample_content(records);
  content.record_order = {3, 0, 1};  // written in this order, then one zero record
  content.zero_records = 1;
  const std::string path = dir.file("npkit_0123456789abcdef_rank3.npkt");
  std::string error;
  REQUIRE(npkit::test::write_dump_at(content, path, &error));
  CHECK(error.empty());

  const std::string bytes = npkit::test::read_whole_file(path);
  const npkit::test::ParsedDump dump = npkit::test::parse_dump_bytes(bytes);
  INFO((dump.problems.empty() ? std::string() : dump.problems.front()));
  CHECK(dump.problems.empty());
  // 1.1 added the event-record sections, 1.2 live files, 1.3 the CE events and detail records,
  // 1.4 the KernelPhase events and call-tag details
  CHECK(dump.header.minor == 4);
  CHECK(dump.header.feature_bits == (fmt::kFeatureProfilerRecords | fmt::kFeatureClockCalibration));
  CHECK(dump.section_kinds == std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7});
  CHECK(bytes.size() % 8 == 0);

  CHECK(dump.comm.comm_hash == 0x0123456789abcdefull);
  CHECK(dump.comm.rank == 3);
  CHECK(dump.comm.nranks == 8);
  CHECK(dump.comm.nnodes == 2);
  CHECK(dump.comm.pid == 4242);
  CHECK(dump.comm.capture_start_ns == 1000);
  CHECK(dump.comm.capture_end_ns == 2000);
  CHECK(dump.comm.end_reason == fmt::kEndFinalize);
  CHECK(dump.comm.clock_method == fmt::kClockKernelBracket);
  CHECK(dump.comm.profiler_api == 5);
  CHECK(dump.comm.event_mask == 71);
  CHECK(dump.comm.records_capacity == 16);
  CHECK(dump.comm.records_attempted == 4);
  CHECK(dump.comm.records_incomplete == 1);
  CHECK(dump.comm.events_after_dump == 2);

  CHECK(dump.metadata ==
        std::vector<std::pair<std::string, std::string>>{{"hostname", "node7"}, {"comm_name", ""}});
  REQUIRE(dump.clock_samples.size() == 2);
  CHECK(dump.clock_samples[0].host_before_ns == 100);
  CHECK(dump.clock_samples[0].host_after_ns == 140);
  CHECK(dump.clock_samples[0].gpu_ns == 5000);
  CHECK(dump.clock_samples[1].when == fmt::kSampleAtEnd);

  REQUIRE(dump.names.size() == kExpectedNames.size());
  for (size_t i = 0; i < kExpectedNames.size(); ++i) {
    INFO("name entry " << i);
    CHECK(dump.names[i].domain == kExpectedNames[i].domain);
    CHECK(dump.names[i].id == kExpectedNames[i].id);
    CHECK(dump.names[i].name == kExpectedNames[i].name);
  }

  CHECK(dump.strings == std::map<uint32_t, std::string>{{3, "AllReduce"}, {9, "RING"}});
  REQUIRE(dump.threads.size() == 1);
  CHECK(dump.threads[0].slot == 2);
  CHECK(dump.threads[0].os_tid == 555);
  CHECK(std::string(dump.threads[0].name) == "main");

  REQUIRE(dump.records.size() == 4);
  CHECK(std::memcmp(&dump.records[0], &records[3], sizeof(fmt::ProfilerRecord)) == 0);
  CHECK(dump.records[0].payload[31] == 0x44);
  CHECK(std::memcmp(&dump.records[1], &records[0], sizeof(fmt::ProfilerRecord)) == 0);
  CHECK(std::memcmp(&dump.records[2], &records[1], sizeof(fmt::ProfilerRecord)) == 0);
  const fmt::ProfilerRecord zero{};
  CHECK(std::memcmp(&dump.records[3], &zero, sizeof(fmt::ProfilerRecord)) == 0);

  // No temporary file is left behind.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++files;
    CHECK(entry.path().filename() == "npkit_0123456789abcdef_rank3.npkt");
  }
  CHECK(files == 1);
}

TEST_CASE("dump writer: no samples means no ClockSamples section and no calibration bit",
          "[capture]") {
  npkit::test::TempDir dir;
  DumpContent content = sample_content({});
  content.clock_samples.clear();
  content.threads.clear();
  content.metadata = {{"k", "odd"}};  // 8 + 1 + 3 = 12 payload bytes: 4 bytes of padding
  const std::string path = dir.file("d.npkt");
  std::string error;
  REQUIRE(npkit::test::write_dump_at(content, path, &error));
  const std::string bytes = npkit::test::read_whole_file(path);
  const auto dump = npkit::test::parse_dump_bytes(bytes);
  CHECK(dump.problems.empty());
  CHECK(dump.header.feature_bits == fmt::kFeatureProfilerRecords);
  CHECK(dump.section_kinds == std::vector<uint32_t>{1, 2, 4, 5, 6, 7});
  CHECK(dump.records.empty());
  CHECK(dump.threads.empty());
  CHECK(dump.meta("k") == "odd");
  // Header 64, Communicator 16 + 136, Metadata 16 + 16: the Names section header starts at 248.
  uint32_t kind_at_248 = 0;
  std::memcpy(&kind_at_248, bytes.data() + 248, sizeof(kind_at_248));
  CHECK(kind_at_248 == fmt::kSectionNames);
}

TEST_CASE("dump writer: failures name the path and leave no file", "[capture]") {
  npkit::test::TempDir dir;
  const std::string blocker = dir.write_file("plain-file", "x");
  std::string error;
  CHECK(npkit::capture::open_dump_directory(blocker + "/sub", &error) == nullptr);
  CHECK(error == blocker + "/sub: " + blocker + ": Not a directory");

  // The directory goes away after it was opened: the temporary file cannot be made.
  const std::string gone = dir.make_dir("gone");
  const auto directory = npkit::test::parent_directory(gone + "/d.npkt");
  std::filesystem::remove(gone);
  npkit::capture::WrittenDump written;
  error.clear();
  CHECK_FALSE(
      npkit::capture::write_dump_file(sample_content({}), *directory, "d.npkt", &written, &error));
  CHECK_THAT(error, Catch::StartsWith(gone + "/.d.npkt."));
  CHECK_THAT(error, Catch::EndsWith(".tmp: No such file or directory"));
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    (void)entry;
    ++files;
  }
  CHECK(files == 1);  // plain-file only
}
