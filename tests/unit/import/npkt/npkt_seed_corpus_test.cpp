// The seed corpus of fuzz_npkt_dump (tests/fuzz/corpus/npkt_dump/seed_*): each seed is the test
// writer's image of a builder below, and parses (or fails) as stated here. The gzip seeds
// (gzip_seed_*) are some of those images compressed, whole or damaged; zlib's output may differ
// between its versions, so each is checked by what it decompresses to and how it fails.
// NPKIT_UPDATE_NPKT_CORPUS=1 rewrites the seed files from the builders (then review the diff).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>

#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/npkt_file_bytes.hpp"
#include "support/gzip_bytes.hpp"
#include "support/npkt_writer.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
namespace format = npkit::format;
using npkit::test::NpktBuilder;

namespace {

struct Seed {
  std::string name;
  std::function<void(NpktBuilder&)> build;
  std::string error;  // a part of the expected error message; empty: the seed parses
};

// Two ranks' worth of plausible content: a ring AllReduce on 2 channels over the network.
void plausible(NpktBuilder& b) {
  b.comm(0x5eed5eed5eed5eedULL, 0, 2);
  auto& c = b.comm_info();
  c.capture_start_ns = 1700000000000000000LL;
  c.capture_end_ns = 1700000000100000000LL;
  c.clock_method = format::kClockKernelBracket;
  c.event_mask = 0xFFF;
  c.records_capacity = 1024;
  c.records_attempted = 13;
  b.meta("hostname", "node0").meta("nccl.version", "2.28.9").meta("env.NCCL_PROTO", "Simple");
  b.clock_sample(1700000000000001000LL, 1700000000000003000LL, 1700000000000142000ULL, 0);
  b.clock_sample(1700000000099990000LL, 1700000000099992000LL, 1700000000100131000ULL, 1);
  b.event_type_name(1, "Coll").event_type_name(3, "ProxyOp").event_type_name(4, "ProxyStep");
  b.event_type_name(6, "KernelCh").event_type_name(9, "CollApi");
  b.state_name(9, "ProxyStepSendWait").state_name(22, "KernelChStop");
  b.string(1, "AllReduce").string(2, "ncclFloat32").string(3, "Ring").string(4, "Simple");
  b.thread(0, 100, "python").thread(1, 101, "nccl-proxy");
  const std::uint64_t t = 1700000000010000000ULL;
  b.start(1, 0, format::kTypeCollApi, t, npkit::test::CollApiStart{.count = 262144, .func = 1});
  b.start(2, 1, format::kTypeColl, t + 100,
          npkit::test::CollStart{.seq = 0,
                                 .count = 262144,
                                 .func = 1,
                                 .datatype = 2,
                                 .algo = 3,
                                 .proto = 4,
                                 .n_channels = 2,
                                 .n_warps = 16});
  b.stop(1, format::kTypeCollApi, t + 200);
  b.start(3, 2, format::kTypeKernelCh, t + 300,
          npkit::test::KernelChStart{.gpu_start_ns = t + 140300, .channel = 0});
  b.on_thread(1).start(4, 2, format::kTypeProxyOp, t + 400,
                       npkit::test::ProxyOpStart{.pid = 4242,
                                                 .peer = 1,
                                                 .n_steps = 2,
                                                 .chunk_size = 524288,
                                                 .rank = 0,
                                                 .channel = 0,
                                                 .is_send = 1});
  b.start(5, 4, format::kTypeProxyStep, t + 500, npkit::test::ProxyStepStart{.step = 0});
  b.state(5, format::kTypeProxyStep, t + 600, format::kStateProxyStepSendWait, 524288);
  b.stop(5, format::kTypeProxyStep, t + 900);
  b.stop(4, format::kTypeProxyOp, t + 1000);
  b.on_thread(0).state(3, format::kTypeKernelCh, t + 1100, format::kStateKernelChStop, t + 141000);
  b.stop(3, format::kTypeKernelCh, t + 1100);
  b.stop(2, format::kTypeColl, t + 1200);
}

void minimal(NpktBuilder& b) {
  b.comm(1, 0, 1);
}

// The event sections of a device-recorder dump (names with phase hints, two GPU blocks, a host
// thread); `second` describes the second GPU stream.
void add_events(NpktBuilder& b, npkit::test::StreamSpec second = {}) {
  b.string(9, "allreduce").string(10, "main");
  b.event_name(0x1000, 1, "ALLREDUCE_ENTRY").event_name(0x1001, 2, "ALLREDUCE_EXIT");
  b.event_name(0x1002, 1, "ALLREDUCE_RS_ENTRY", "reduce_scatter");
  b.event_name(0x1003, 2, "ALLREDUCE_RS_EXIT", "reduce_scatter");
  b.event_name(0x1006, 1, "ALLREDUCE_SYNC_WAIT_ENTRY", "sync");
  b.event_name(0x1007, 2, "ALLREDUCE_SYNC_WAIT_EXIT", "sync");
  b.event_name(0x0033, 3, "TIME_SYNC_CPU");
  const std::uint64_t t = 1700000000010140000ULL;
  b.stream({.source = 1, .clock = 1, .name_string = 9, .capacity = 16});
  b.event(t, 0x1000, 1 << 20).event(t + 10, 0x1006).event(t + 900, 0x1007);
  b.event(t + 900, 0x1002, 1 << 19).event(t + 4000, 0x1003, 1 << 19).event(t + 4100, 0x1001);
  second.block = 1;
  second.name_string = 9;
  second.capacity = 4;
  second.records_dropped = 2;
  b.stream(second).event(t, 0x1000).event(t + 5, 0x1002).event(t + 3000, 0x1003);
  b.event(t + 3010, 0x1001);
  b.stream({.source = 3, .clock = 3, .cuda_device = -1, .name_string = 10, .os_tid = 100});
  b.event(t - 150000, 0x0033).event(t - 140000, 0x1000).event(t + 10000, 0x1001);
}

void events_only(NpktBuilder& b) {
  b.comm(0x5eed, 1, 2);
  b.comm_info().capture_start_ns = 1700000000000000000LL;
  b.comm_info().clock_method = format::kClockKernelBracket;
  b.meta("hostname", "node0").meta("gpu.name", "NVIDIA H200");
  b.clock_sample(1700000000000001000LL, 1700000000000003000LL, 1700000000000142000ULL, 0);
  b.clock_sample(1700000000099990000LL, 1700000000099992000LL, 1700000000100131000ULL, 1);
  b.omit(NpktBuilder::kNames).omit(NpktBuilder::kThreads).omit(NpktBuilder::kProfilerRecords);
  add_events(b);
}

// The payload_size of the first section of `kind` in a builder's image, from the section table.
std::uint64_t section_payload(const std::string& image, std::uint32_t kind) {
  std::uint32_t count = 0;
  std::memcpy(&count, image.data() + 20, 4);
  std::size_t offset = 64;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::uint32_t k = 0;
    std::uint64_t payload = 0;
    std::memcpy(&k, image.data() + offset, 4);
    std::memcpy(&payload, image.data() + offset + 8, 8);
    if (k == kind) return payload;
    offset += 16 + (payload + 7) / 8 * 8;
  }
  return 0;
}

// A live file (format minor 2) as a killed process leaves it: the plausible records with room for
// 100 more, strings in a LiveStrings section right after Communicator (entry 2 not written), and
// the image cut at `cut_at`, or (0) 20 bytes into the record after the last one.
void live_cut(NpktBuilder& b, std::size_t cut_at) {
  plausible(b);
  b.comm_info().end_reason = format::kEndLive;
  b.comm_info().capture_end_ns = 0;
  b.minor(2).feature_bits(format::kFeatureProfilerRecords | format::kFeatureLiveFile);
  std::string strings;
  for (const auto& [id, text] :
       {std::pair<std::uint32_t, std::string>{1, "AllReduce"}, {0, ""}, {3, "Ring"}}) {
    format::LiveStringEntry entry{};
    entry.id = id;
    entry.size = static_cast<std::uint32_t>(text.size());
    text.copy(entry.text, text.size());
    strings.append(reinterpret_cast<const char*>(&entry), sizeof entry);
  }
  b.omit(NpktBuilder::kStrings).extra_section(format::kSectionLiveStrings, 264, strings);
  const std::string whole = b.bytes();  // ProfilerRecords is its last section
  const std::uint64_t records = section_payload(whole, NpktBuilder::kProfilerRecords);
  b.payload_size(NpktBuilder::kProfilerRecords, records + 100 * 64);
  b.file_size(whole.size() + 100 * 64);
  if (cut_at != 0) {
    b.truncate_at(cut_at);
  } else {
    b.trailing(std::string(20, '\x11'));  // the record being written
  }
}

const std::vector<Seed>& seeds() {
  static const std::vector<Seed> kSeeds = {
      {"seed_valid_minimal", minimal, ""},
      {"seed_valid_plausible", plausible, ""},
      {"seed_valid_standard_names", [](NpktBuilder& b) { minimal(b.standard_names()); }, ""},
      {"seed_valid_newer_minor",
       [](NpktBuilder& b) {
         plausible(b);
         b.minor(7).header_size(72).feature_bits(0xF0);
         b.entry_size(NpktBuilder::kCommunicator, 144).entry_size(NpktBuilder::kThreads, 32);
         b.entry_size(NpktBuilder::kProfilerRecords, 72);
         b.extra_section(42, 0, "future").extra_section(43, 8, std::string(16, '\1'));
         b.name(3, 1, "future domain");
       },
       ""},
      {"seed_valid_warnings",
       [](NpktBuilder& b) {
         minimal(b);
         b.omit(NpktBuilder::kNames);
         b.start(1, 0, format::kTypeColl, 10);
         npkit::test::RecordSpec unfinished;
         b.record(unfinished);
         npkit::test::RecordSpec odd;
         odd.kind = 9;
         odd.type = 40;
         b.record(odd);
         b.stop(1, format::kTypeColl, 20);
       },
       ""},
      {"seed_valid_comm_last",
       [](NpktBuilder& b) { minimal(b.meta("k", "v").last(NpktBuilder::kCommunicator)); }, ""},
      {"seed_valid_events", events_only, ""},
      {"seed_valid_events_and_profiler",
       [](NpktBuilder& b) {
         plausible(b);
         add_events(b);
       },
       ""},
      {"seed_valid_events_newer",
       [](NpktBuilder& b) {
         minimal(b);
         add_events(b, {.source = 9, .clock = 7});
         b.minor(3)
             .entry_size(NpktBuilder::kStreams, 88)
             .entry_size(NpktBuilder::kEventRecords, 40);
         b.event_name(0x2000, 5, "FUTURE_KIND", "x");
       },
       ""},
      {"seed_bad_event_stream_range",
       [](NpktBuilder& b) {
         minimal(b);
         add_events(b, {.first_record = 12, .records_written = 4});
       },
       "Streams section: stream 1: records [12, 12 + 4) run past the 13 record(s)"},
      {"seed_bad_event_stream_overlap",
       [](NpktBuilder& b) {
         minimal(b);
         add_events(b, {.first_record = 5});
       },
       "Streams section: stream 1: records [5, 5 + 4) overlap stream 0's records [0, 0 + 6)"},
      {"seed_bad_event_records_without_streams",
       [](NpktBuilder& b) { events_only(b.omit(NpktBuilder::kStreams)); },
       "EventRecords section: 13 record(s) but no Streams section"},
      {"seed_bad_event_name_twice",
       [](NpktBuilder& b) {
         events_only(b);
         b.event_name(0x1002, 1, "OTHER_ENTRY");
       },
       "EventNames section: event id 4098 named twice"},
      {"seed_bad_magic", [](NpktBuilder& b) { minimal(b.magic("NPKTDUMp")); },
       "offset 0: expected the magic"},
      {"seed_bad_big_endian", [](NpktBuilder& b) { plausible(b.big_endian()); },
       "offset 16: endian marker reads 0x04030201"},
      {"seed_bad_major_2", [](NpktBuilder& b) { plausible(b.major(2)); },
       "offset 8: was written by a newer npkit (format 2.x)"},
      {"seed_bad_header_size", [](NpktBuilder& b) { minimal(b.header_size(60)); },
       "offset 12: header_size 60"},
      {"seed_valid_live_cut", [](NpktBuilder& b) { live_cut(b, 0); }, ""},
      {"seed_bad_live_cut_in_strings", [](NpktBuilder& b) { live_cut(b, 700); },
       "offset 224: LiveStrings section: payload_size 792 runs past the end of the file"},
      {"seed_bad_truncated", [](NpktBuilder& b) { plausible(b.truncate_at(1000)); },
       "offset 1000: truncated: header says"},
      {"seed_bad_section_count", [](NpktBuilder& b) { plausible(b.section_count(8)); },
       "expected section header 8 of 8"},
      {"seed_bad_payload_overflow",
       [](NpktBuilder& b) { plausible(b.payload_size(NpktBuilder::kStrings, ~0ULL - 3)); },
       "Strings section: payload_size 18446744073709551612 runs past the end"},
      {"seed_bad_padding", [](NpktBuilder& b) { minimal(b.meta("abc", "de").padding_byte(0x5A)); },
       "Metadata section: expected zero padding, found 0x5a"},
      {"seed_bad_duplicate_records",
       [](NpktBuilder& b) { plausible(b.duplicate(NpktBuilder::kProfilerRecords)); },
       "a second ProfilerRecords section"},
      {"seed_bad_missing_comm",
       [](NpktBuilder& b) { plausible(b.omit(NpktBuilder::kCommunicator)); },
       "expected a Communicator section (kind 1)"},
      {"seed_bad_records_entry_size",
       [](NpktBuilder& b) { plausible(b.entry_size(NpktBuilder::kProfilerRecords, 56)); },
       "ProfilerRecords section: entry_size 56: expected at least 64"},
      {"seed_bad_threads_payload",
       [](NpktBuilder& b) {
         minimal(b.omit(NpktBuilder::kThreads).extra_section(6, 24, std::string(30, 'x')));
       },
       "Threads section: payload_size 30: expected a multiple of entry_size 24"},
      {"seed_bad_metadata_text",
       [](NpktBuilder& b) {
         minimal(b.omit(NpktBuilder::kMetadata)
                     .extra_section(2, 0, std::string("\x04\0\0\0\x40\0\0\0host", 12)));
       },
       "Metadata section: entry text of 68 bytes runs past the end of the section"},
      {"seed_bad_string_id_twice", [](NpktBuilder& b) { plausible(b.string(3, "Tree")); },
       "string id 3 listed twice"},
      {"seed_bad_string_id_zero", [](NpktBuilder& b) { minimal(b.string(0, "none")); },
       "string id 0 is reserved"},
  };
  return kSeeds;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("npkt seed corpus: each seed is its builder's bytes and parses as stated", "[npkt]") {
  const fs::path dir = npkit::test::source_path("tests/fuzz/corpus/npkt_dump");
  const bool update = std::getenv("NPKIT_UPDATE_NPKT_CORPUS") != nullptr;
  std::set<std::string> names;
  for (const Seed& seed : seeds()) {
    INFO(seed.name);
    names.insert(seed.name);
    NpktBuilder b;
    seed.build(b);
    const std::string image = b.bytes();
    CHECK(image.size() < 4096);
    if (update) {
      fs::create_directories(dir);
      std::ofstream(dir / seed.name, std::ios::binary) << image;
    }
    CHECK(read_file(dir / seed.name) == image);
    auto dump = npkit::parse_npkt(seed.name, reinterpret_cast<const std::uint8_t*>(image.data()),
                                  image.size());
    if (seed.error.empty()) {
      CHECK(dump.ok());
      if (!dump.ok()) FAIL(dump.error().message);
    } else {
      REQUIRE_FALSE(dump.ok());
      CHECK_THAT(dump.error().message,
                 Catch::StartsWith(seed.name + ": offset ") && Catch::Contains(seed.error));
    }
  }
  // No stale seed: every seed_* file has its builder here.
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("seed_", 0) == 0) CHECK(names.count(name) == 1);
  }
}

namespace {

struct GzipSeed {
  std::string name;
  std::string from;                                     // the seed_* whose image it compresses
  std::function<std::string(const std::string&)> make;  // image -> the seed's bytes
  std::string gzip_error;   // a part of decompress_npkt's error; empty: it decompresses
  std::string parse_error;  // a part of parse_npkt's error; empty: the image parses
};

const std::vector<GzipSeed>& gzip_seeds() {
  using npkit::test::gzip_bytes;
  static const std::vector<GzipSeed> kSeeds = {
      {"gzip_seed_valid_minimal", "seed_valid_minimal",
       [](const std::string& image) { return gzip_bytes(image, 9); }, "", ""},
      {"gzip_seed_valid_live_cut", "seed_valid_live_cut",
       [](const std::string& image) { return gzip_bytes(image, 1); }, "", ""},
      {"gzip_seed_valid_two_members", "seed_valid_plausible",
       [](const std::string& image) {
         return gzip_bytes(image.substr(0, 100)) + gzip_bytes(image.substr(100), 0);
       },
       "", ""},
      {"gzip_seed_bad_cut", "seed_valid_plausible",
       [](const std::string& image) {
         const std::string gz = gzip_bytes(image);
         return gz.substr(0, gz.size() / 2);
       },
       "gzip data cut at compressed byte", ""},
      {"gzip_seed_bad_crc", "seed_valid_plausible",
       [](const std::string& image) {
         std::string gz = gzip_bytes(image);
         gz[gz.size() - 8] ^= 0x01;
         return gz;
       },
       "incorrect data check", ""},
      {"gzip_seed_bad_bomb", "seed_valid_minimal",
       [](const std::string& image) {
         return gzip_bytes(image + std::string(std::size_t{1} << 20, '\0'), 9);
       },
       "the file_size its npkt header gives", ""},
      {"gzip_seed_bad_inner_truncated", "seed_bad_truncated",
       [](const std::string& image) { return gzip_bytes(image); }, "", "truncated"},
  };
  return kSeeds;
}

}  // namespace

TEST_CASE("npkt seed corpus: each gzip seed decompresses or fails as stated", "[npkt]") {
  const fs::path dir = npkit::test::source_path("tests/fuzz/corpus/npkt_dump");
  const bool update = std::getenv("NPKIT_UPDATE_NPKT_CORPUS") != nullptr;
  std::map<std::string, std::string> images;
  for (const Seed& seed : seeds()) {
    NpktBuilder b;
    seed.build(b);
    images[seed.name] = b.bytes();
  }
  std::set<std::string> names;
  for (const GzipSeed& seed : gzip_seeds()) {
    INFO(seed.name);
    names.insert(seed.name);
    REQUIRE(images.count(seed.from) == 1);
    const std::string& image = images[seed.from];
    if (update) std::ofstream(dir / seed.name, std::ios::binary) << seed.make(image);
    const std::string bytes = read_file(dir / seed.name);
    CHECK(bytes.size() < 4096);
    std::vector<std::uint8_t> out;
    auto unzipped = npkit::decompress_npkt(
        seed.name, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), out);
    if (!seed.gzip_error.empty()) {
      REQUIRE_FALSE(unzipped.ok());
      CHECK_THAT(unzipped.error().message,
                 Catch::StartsWith(seed.name + ": ") && Catch::Contains(seed.gzip_error));
      continue;
    }
    if (!unzipped.ok()) FAIL(unzipped.error().message);
    CHECK(std::string(out.begin(), out.end()) == image);
    auto dump = npkit::parse_npkt(seed.name, out.data(), out.size());
    CHECK(dump.ok() == seed.parse_error.empty());
    if (!dump.ok()) CHECK_THAT(dump.error().message, Catch::Contains(seed.parse_error));
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("gzip_seed_", 0) == 0) CHECK(names.count(name) == 1);
  }
}
