// write_event_dump, read back with the independent reader of device_dump_reader.hpp: a GPU
// capture (a block and a warp stream, two clocks) and a host capture in one rank's file, against
// values written out by hand from the fixture below.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "capture/plugin/scoped_env.hpp"
#include "capture/unit/dump_at_path.hpp"
#include "npkit/host.hpp"
#include "recorder/dump_writer.hpp"
#include "support/device_dump_reader.hpp"
#include "support/dump_bytes_reader.hpp"
#include "support/temp_dir.hpp"

namespace fmt = npkit::format;

namespace {

fmt::EventRecord record(uint64_t timestamp, uint64_t size, uint32_t user, uint16_t id) {
  fmt::EventRecord r{};
  r.timestamp = timestamp;
  r.size = size;
  r.user = user;
  r.id = id;
  return r;
}

npkit::CapturedStream stream(uint32_t source, uint32_t clock, uint32_t block, uint32_t warp,
                             const std::string& name, std::vector<fmt::EventRecord> records,
                             uint64_t dropped) {
  npkit::CapturedStream s;
  s.info.source = source;
  s.info.clock = clock;
  s.info.cuda_device = source == fmt::kStreamHostThread ? -1 : 1;
  s.info.block = block;
  s.info.warp = warp;
  s.info.records_written = records.size();
  s.info.records_dropped = dropped;
  s.info.capacity = 8;
  s.name = name;
  s.records = std::move(records);
  return s;
}

fmt::ClockSample sample(int64_t before, int64_t after, uint64_t gpu, uint32_t when) {
  return fmt::ClockSample{before, after, gpu, when, 0};
}

struct Fixture {
  npkit::EventNameTable names;
  npkit::RankEvents events;

  Fixture() {
    std::string error;
    REQUIRE(names.add_pair(0x1000, 0x1001, "ALLREDUCE", "", &error));
    REQUIRE(names.add_pair(0x1100, 0x1101, "HOST_STEP", "host", &error));
    events.identity = {0x0123456789abcdefull, 1, 2, 1, "device-collectives"};
    events.names = &names;

    npkit::GpuCapture gpu;
    gpu.cuda_device = 1;
    gpu.created_ns = 1'700'000'000'000'000'100;
    gpu.buffer_size_mb = 64;
    gpu.records_per_buffer = 8;
    gpu.streams.push_back(stream(
        fmt::kStreamGpuBlock, fmt::kStreamClockGlobalTimer, 0, 0, "ring",
        {record(1000, 4096, 0, 0x1000), record(2000, 4096, 0, 0x1001), record(2500, 0, 7, 0x35)},
        2));
    npkit::CapturedStream warp = stream(fmt::kStreamGpuWarp, fmt::kStreamClockCycles, 1, 2, "ring",
                                        {record(1, 2, 3, 0x2000)}, 0);
    warp.info.cycles_per_second = 1'980'000'000;
    gpu.streams.push_back(warp);
    gpu.clock_samples = {sample(100, 200, 5000, fmt::kSampleAtInit),
                         sample(300, 340, 6000, fmt::kSampleAtInit),
                         sample(900, 960, 9000, fmt::kSampleAtEnd)};
    gpu.facts = {{"gpu.name", "NVIDIA H200"}, {"gpu.cuda_device", "1"}};
    gpu.notes = {{"no clock64 rate at capture", "because"}};
    gpu.events_without_buffer = 5;
    events.gpus.push_back(gpu);

    npkit::HostCapture host;
    host.created_ns = 1'700'000'000'000'000'000;
    host.buffer_size_mb = 64;
    npkit::CapturedStream thread =
        stream(fmt::kStreamHostThread, fmt::kStreamClockHost, 0, 0, "rank0",
               {record(1'700'000'000'000'000'500, 0, 1, 0x1100)}, 0);
    thread.info.os_tid = 4242;
    host.streams.push_back(thread);
    events.hosts.push_back(host);
  }
};

}  // namespace

TEST_CASE("event dump: sections, communicator and clock samples", "[capture]") {
  npkit::test::TempDir dir;
  Fixture fixture;
  std::string path;
  std::string error;
  REQUIRE(npkit::write_event_dump(dir.file("dumps/run1"), fixture.events, &path, &error));
  CHECK(path == dir.file("dumps/run1/npkit_0123456789abcdef_rank1.npkt"));

  const auto dump = npkit::test::read_event_dump(npkit::test::read_whole_file(path));
  INFO(Catch::Detail::stringify(dump.problems));
  CHECK(dump.problems.empty());
  CHECK(dump.section_kinds == std::vector<uint32_t>{1, 2, 3, 5, 8, 9, 10});
  CHECK(dump.header.feature_bits == (fmt::kFeatureEventRecords | fmt::kFeatureClockCalibration));

  CHECK(dump.comm.comm_hash == 0x0123456789abcdefull);
  CHECK(dump.comm.rank == 1);
  CHECK(dump.comm.nranks == 2);
  CHECK(dump.comm.nnodes == 1);
  CHECK(dump.comm.pid == getpid());
  CHECK(dump.comm.capture_start_ns == 1'700'000'000'000'000'000);  // the host recorder's
  CHECK(dump.comm.capture_end_ns > 1'700'000'000'000'000'000);
  CHECK(dump.comm.end_reason == fmt::kEndFinalize);
  CHECK(dump.comm.clock_method == fmt::kClockKernelBracket);
  CHECK(dump.comm.profiler_api == 0);
  CHECK(dump.comm.host_clock == fmt::kHostClockRealtime);
  CHECK(dump.comm.event_mask == 0);
  CHECK(dump.comm.records_capacity == 0);
  CHECK(dump.comm.records_attempted == 0);
  CHECK(dump.comm.records_dropped == 0);

  // The narrowest init sample (40 ns bracket) and the end sample.
  REQUIRE(dump.clock_samples.size() == 2);
  CHECK(dump.clock_samples[0].gpu_ns == 6000);
  CHECK(dump.clock_samples[0].when == fmt::kSampleAtInit);
  CHECK(dump.clock_samples[1].gpu_ns == 9000);
  CHECK(dump.clock_samples[1].when == fmt::kSampleAtEnd);

  CHECK(std::filesystem::directory_iterator(dir.file("dumps/run1")) !=
        std::filesystem::directory_iterator());
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.file("dumps/run1"))) {
    CHECK(entry.path().filename().string().find(".tmp.") == std::string::npos);
    ++files;
  }
  CHECK(files == 1);
}

TEST_CASE("event dump: names, streams and records", "[capture]") {
  npkit::test::TempDir dir;
  Fixture fixture;
  std::string path;
  std::string error;
  REQUIRE(npkit::write_event_dump(dir.path(), fixture.events, &path, &error));
  const auto dump = npkit::test::read_event_dump(npkit::test::read_whole_file(path));
  REQUIRE(dump.problems.empty());

  REQUIRE(dump.event_names.size() == 6);
  const std::vector<std::tuple<uint32_t, uint32_t, std::string, std::string>> expected_names = {
      {0x35, fmt::kEventEntry, "ALL_REDUCE_RING_SEND_ENTRY", "reduce_scatter"},
      {0x1000, fmt::kEventEntry, "ALLREDUCE_ENTRY", ""},
      {0x1001, fmt::kEventExit, "ALLREDUCE_EXIT", ""},
      {0x1100, fmt::kEventEntry, "HOST_STEP_ENTRY", "host"},
      {0x1101, fmt::kEventExit, "HOST_STEP_EXIT", "host"},
      {0x2000, fmt::kEventInstant, "UNNAMED_0x2000", ""}};
  for (size_t i = 0; i < expected_names.size(); ++i) {
    const auto& [id, kind, name, phase] = expected_names[i];
    INFO("name " << i);
    CHECK(dump.event_names[i].id == id);
    CHECK(dump.event_names[i].kind == kind);
    CHECK(dump.event_names[i].name == name);
    CHECK(dump.event_names[i].phase == phase);
  }

  CHECK(dump.strings == std::map<uint32_t, std::string>{{1, "ring"}, {2, "rank0"}});
  REQUIRE(dump.streams.size() == 3);
  const fmt::StreamInfo& block = dump.streams[0];
  CHECK(block.source == fmt::kStreamGpuBlock);
  CHECK(block.clock == fmt::kStreamClockGlobalTimer);
  CHECK(block.cuda_device == 1);
  CHECK(block.name_string == 1);
  CHECK(block.first_record == 0);
  CHECK(block.records_written == 3);
  CHECK(block.records_dropped == 2);
  CHECK(block.capacity == 8);
  const fmt::StreamInfo& warp = dump.streams[1];
  CHECK(warp.source == fmt::kStreamGpuWarp);
  CHECK(warp.clock == fmt::kStreamClockCycles);
  CHECK(warp.block == 1);
  CHECK(warp.warp == 2);
  CHECK(warp.name_string == 1);
  CHECK(warp.first_record == 3);
  CHECK(warp.cycles_per_second == 1'980'000'000);
  const fmt::StreamInfo& host = dump.streams[2];
  CHECK(host.source == fmt::kStreamHostThread);
  CHECK(host.clock == fmt::kStreamClockHost);
  CHECK(host.cuda_device == -1);
  CHECK(host.name_string == 2);
  CHECK(host.first_record == 4);
  CHECK(host.os_tid == 4242);

  REQUIRE(dump.records.size() == 5);
  CHECK(dump.records[2].timestamp == 2500);
  CHECK(dump.records[2].user == 7);
  CHECK(dump.records[2].id == 0x35);
  CHECK(dump.records[3].id == 0x2000);
  CHECK(dump.records[4].timestamp == 1'700'000'000'000'000'500);

  // The first record's bytes, little-endian as format.hpp lays them out.
  const std::string bytes = npkit::test::read_whole_file(path);
  const uint64_t at = dump.sections.back().payload_offset;
  const unsigned char expected_first[24] = {0xE8, 0x03, 0, 0, 0, 0, 0, 0,  // timestamp 1000
                                            0x00, 0x10, 0, 0, 0, 0, 0, 0,  // size 4096
                                            0,    0,    0, 0,              // user 0
                                            0x00, 0x10,                    // id 0x1000
                                            0,    0};                      // reserved
  CHECK(std::memcmp(bytes.data() + at, expected_first, sizeof(expected_first)) == 0);
}

TEST_CASE("event dump: metadata says what the file holds and what it lacks", "[capture]") {
  npkit::test::TempDir dir;
  Fixture fixture;
  npkit::test::ScopedEnv variable("NPKIT_DEVICE_TEST_MARK", "7");
  std::string path;
  std::string error;
  REQUIRE(npkit::write_event_dump(dir.path(), fixture.events, &path, &error));
  const auto dump = npkit::test::read_event_dump(npkit::test::read_whole_file(path));
  REQUIRE(dump.problems.empty());
  char host[256] = {};
  REQUIRE(gethostname(host, sizeof(host) - 1) == 0);
  CHECK(dump.meta("hostname") == host);
  CHECK(dump.meta("comm_name") == "device-collectives");
  CHECK(dump.meta("gpu.name") == "NVIDIA H200");
  CHECK(dump.meta("gpu.cuda_device") == "1");
  CHECK(dump.meta("capture.recorders") == "device,host");
  CHECK(dump.meta("capture.buffer_size_mb") == "64");
  CHECK(dump.meta("capture.records_per_buffer") == "8");
  CHECK(dump.meta("capture.dump_dir") == dir.path());
  CHECK(dump.meta("capture.events_without_buffer") == "5");
  CHECK(dump.meta("capture.unnamed_event_ids") == "1");
  CHECK(dump.meta("capture.host_events_without_stream") == "<absent>");
  CHECK(dump.meta("clock.note") == "no clock64 rate at capture: because");
  CHECK(dump.meta("env.NPKIT_DEVICE_TEST_MARK") == "7");
}

TEST_CASE("event dump: a host-only file has no clock samples and no GPU facts", "[capture]") {
  npkit::test::TempDir dir;
  Fixture fixture;
  fixture.events.gpus.clear();
  std::string path;
  std::string error;
  REQUIRE(npkit::write_event_dump(dir.path(), fixture.events, &path, &error));
  const auto dump = npkit::test::read_event_dump(npkit::test::read_whole_file(path));
  REQUIRE(dump.problems.empty());
  CHECK(dump.section_kinds == std::vector<uint32_t>{1, 2, 5, 8, 9, 10});
  CHECK(dump.header.feature_bits == fmt::kFeatureEventRecords);
  CHECK(dump.comm.clock_method == fmt::kClockNone);
  CHECK(dump.meta("capture.recorders") == "host");
  CHECK(dump.meta("gpu.name") == "<absent>");
  REQUIRE(dump.streams.size() == 1);
  CHECK(dump.streams[0].name_string == 1);
  CHECK(dump.strings == std::map<uint32_t, std::string>{{1, "rank0"}});
  // Registered names are listed even when they did not occur; 0x35 and 0x2000 did not.
  CHECK(dump.event_names.size() == 4);
}

TEST_CASE("event dump: the directory comes from NPKIT_DUMP_DIR when none is given", "[capture]") {
  npkit::test::TempDir dir;
  npkit::test::ScopedEnv variable("NPKIT_DUMP_DIR", dir.file("from-env"));
  Fixture fixture;
  std::string path;
  std::string error;
  REQUIRE(npkit::write_event_dump("", fixture.events, &path, &error));
  CHECK(path == dir.file("from-env/npkit_0123456789abcdef_rank1.npkt"));
}

TEST_CASE("event dump: inconsistent captures write nothing and say why", "[capture]") {
  npkit::test::TempDir dir;
  std::string error;
  SECTION("two devices in one file") {
    Fixture fixture;
    fixture.events.gpus.push_back(fixture.events.gpus.front());
    fixture.events.gpus.back().cuda_device = 0;
    CHECK_FALSE(npkit::write_event_dump(dir.path(), fixture.events, nullptr, &error));
    CHECK_THAT(error, Catch::Contains("devices 1 and 0"));
  }
  SECTION("a stream whose count is not its records") {
    Fixture fixture;
    fixture.events.hosts.front().streams.front().info.records_written = 2;
    CHECK_FALSE(npkit::write_event_dump(dir.path(), fixture.events, nullptr, &error));
    CHECK_THAT(error, Catch::Contains("stream 'rank0' says 2 records but holds 1"));
  }
  SECTION("a directory that cannot be made") {
    Fixture fixture;
    dir.write_file("a-file", "x");
    CHECK_FALSE(npkit::write_event_dump(dir.file("a-file/sub"), fixture.events, nullptr, &error));
    CHECK_THAT(error, Catch::Contains("Not a directory"));
  }
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
    if (entry.path().extension() == ".npkt") ++files;
  }
  CHECK(files == 0);
}

TEST_CASE("event dump: the plugin's sections are unchanged by the event sections", "[capture]") {
  // A plugin-style DumpContent still gives the plugin's section list and feature bits.
  npkit::test::TempDir dir;
  npkit::capture::DumpContent content;
  content.comm.rank = 0;
  std::string error;
  REQUIRE(npkit::test::write_dump_at(content, dir.file("plugin.npkt"), &error));
  const auto parsed =
      npkit::test::parse_dump_bytes(npkit::test::read_whole_file(dir.file("plugin.npkt")));
  CHECK(parsed.problems.empty());
  CHECK(parsed.section_kinds == std::vector<uint32_t>{1, 2, 4, 5, 6, 7});
  CHECK(parsed.header.feature_bits == fmt::kFeatureProfilerRecords);
}

namespace {

// What `body` writes to stderr (fd 2), through a temporary file.
template <typename Body>
std::string stderr_of(const npkit::test::TempDir& dir, Body body) {
  std::fflush(stderr);
  const int saved = ::dup(2);
  const std::string capture = dir.file("stderr.txt");
  std::FILE* file = std::fopen(capture.c_str(), "w");
  ::dup2(::fileno(file), 2);
  body();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::fclose(file);
  const std::string text = npkit::test::read_whole_file(capture);
  std::filesystem::remove(capture);
  return text;
}

}  // namespace

TEST_CASE("event dump: names planted in the directory are never followed or replaced",
          "[capture]") {
  namespace fs = std::filesystem;
  const std::string name = "npkit_0123456789abcdef_rank1.npkt";
  for (const char* planted : {"link", "file", "directory", "link at the old temporary name"}) {
    DYNAMIC_SECTION(planted) {
      npkit::test::TempDir dir;
      npkit::test::TempDir owner;
      const std::string victim = owner.write_file("precious", "the owner's bytes");
      const bool old_temporary = std::strcmp(planted, "link at the old temporary name") == 0;
      const std::string at =
          old_temporary ? dir.file(name + ".tmp." + std::to_string(getpid())) : dir.file(name);
      std::string found;
      if (std::strcmp(planted, "file") == 0) {
        dir.write_file(name, "the owner's bytes");
        found = "a regular file of 17 bytes";
      } else if (std::strcmp(planted, "directory") == 0) {
        dir.make_dir(name);
        found = "a directory";
      } else {
        fs::create_symlink(victim, at);
        found = "a symbolic link to " + victim;
      }
      Fixture fixture;
      std::string path;
      std::string error;
      bool written = false;
      const std::string warnings = stderr_of(owner, [&] {
        written = npkit::write_event_dump(dir.path(), fixture.events, &path, &error);
      });
      INFO(error << warnings);
      REQUIRE(written);
      CHECK(npkit::test::read_whole_file(victim) == "the owner's bytes");
      CHECK(npkit::test::read_event_dump(npkit::test::read_whole_file(path)).problems.empty());
      if (old_temporary) {
        CHECK(path == dir.file(name));
        CHECK(fs::read_symlink(at) == victim);
        CHECK(warnings.empty());
        continue;
      }
      CHECK(path != at);
      CHECK(warnings == "npkit: " + at + " is already there (" + found +
                            (found.rfind("a regular", 0) == 0
                                 ? " owned by uid " + std::to_string(getuid())
                                 : std::string()) +
                            "); writing " + path + " instead\n");
      if (std::strcmp(planted, "link") == 0) CHECK(fs::read_symlink(at) == victim);
      if (std::strcmp(planted, "file") == 0) {
        CHECK(npkit::test::read_whole_file(at) == "the owner's bytes");
      }
      if (std::strcmp(planted, "directory") == 0) CHECK(fs::is_directory(at));
    }
  }
}
