// Live record buffers: records are in the live file the moment they are published (read back by
// the analyzer's reader while the buffer is still open), with the process's strings and threads;
// a live file cut at any byte reads as its whole records, or as an error naming where it is cut.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "capture/unit/dump_at_path.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "recorder/live_file.hpp"
#include "recorder/record_buffer.hpp"
#include "recorder/string_interner.hpp"
#include "recorder/thread_registry.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

using capture::LiveFile;
using capture::RecordBuffer;
using format::ProfilerRecord;

capture::DumpContent prefix_for(uint64_t comm_hash, uint64_t capacity) {
  capture::DumpContent content;
  content.comm.comm_hash = comm_hash;
  content.comm.rank = 3;
  content.comm.nranks = 4;
  content.comm.capture_start_ns = 1000;
  content.comm.end_reason = format::kEndLive;
  content.comm.records_capacity = capacity;
  content.comm.host_clock = format::kHostClockRealtime;
  content.metadata = {{"hostname", "node-7"}, {"capture.live_file", "on"}};
  return content;
}

// Publishes `count` start records of KernelCh, record i at host time 5000 + i with event id i + 1.
void publish(RecordBuffer& buffer, uint64_t count, uint16_t thread) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t index = buffer.claim();
    ProfilerRecord* record = buffer.at(index);
    REQUIRE(record != nullptr);
    record->host_ns = 5000 + index;
    record->event_id = index + 1;
    record->type = format::kTypeKernelCh;
    record->thread = thread;
    RecordBuffer::publish(record, format::kRecordStart);
  }
}

std::vector<uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Where ProfilerRecords' payload starts, walking the section headers as docs/format.md lays them
// out (not through the writer).
uint64_t records_payload_offset(const std::vector<uint8_t>& bytes) {
  uint64_t offset = 64;
  uint32_t sections = 0;
  std::memcpy(&sections, bytes.data() + 20, 4);
  for (uint32_t i = 0; i < sections; ++i) {
    uint32_t kind = 0;
    uint64_t payload = 0;
    std::memcpy(&kind, bytes.data() + offset, 4);
    std::memcpy(&payload, bytes.data() + offset + 8, 8);
    if (kind == format::kSectionProfilerRecords) return offset + 16;
    offset += 16 + (payload + 7) / 8 * 8;
  }
  FAIL("no ProfilerRecords section");
  return 0;
}

}  // namespace

TEST_CASE("live file: published records, strings and threads are in the file while it runs",
          "[capture]") {
  TempDir dir;
  const std::string path = dir.file("npkit_00000000000000aa_rank3.live.npkt");
  // Two and a half chunks: the buffer grows past its first chunks while records are written.
  const uint64_t capacity = RecordBuffer::kLiveChunkRecords * 5 / 2;
  const uint64_t written = RecordBuffer::kLiveChunkRecords * 2 + 123;
  std::string why_not;
  std::unique_ptr<LiveFile> live =
      LiveFile::create(parent_directory(path), "npkit_00000000000000aa_rank3.live.npkt",
                       prefix_for(0xaa, capacity), capacity, &why_not);
  REQUIRE(live != nullptr);
  LiveFile* file = live.get();
  RecordBuffer buffer;
  REQUIRE(buffer.reserve_live(std::move(live), capacity, &why_not));
  file->list();
  static const char kFunc[] = "AllGather";
  const uint16_t func = capture::process_string_interner().intern(kFunc);
  const uint16_t thread = capture::current_thread_slot();
  publish(buffer, written, thread);

  const auto dump = read_npkt_file(path);
  REQUIRE(dump.ok());
  CHECK(dump->is_live());
  CHECK(dump->comm.end_reason == format::kEndLive);
  CHECK(dump->comm.comm_hash == 0xaa);
  CHECK(dump->comm.rank == 3);
  CHECK(dump->meta("hostname") == "node-7");
  REQUIRE(dump->records.size() == written);
  uint64_t out_of_place = 0;
  for (uint64_t i = 0; i < written; ++i) {
    if (dump->records[i].event_id != i + 1 || dump->records[i].host_ns != 5000 + i) ++out_of_place;
  }
  CHECK(out_of_place == 0);
  CHECK(dump->comm.capture_end_ns == int64_t(5000 + written - 1));
  CHECK(dump->string_at(func) == "AllGather");
  bool thread_listed = false;
  for (const format::ThreadEntry& t : dump->threads) thread_listed |= t.slot == thread;
  CHECK(thread_listed);

  // The dump taken at the end removes the live file.
  RecordBuffer::Closed closed;
  REQUIRE(buffer.close(std::chrono::milliseconds(100), &closed));
  CHECK(closed.count == written);
  CHECK(closed.incomplete.empty());
  buffer.end_live_file(false);
  struct stat st {};
  CHECK(::stat(path.c_str(), &st) != 0);
  CHECK(buffer.release(closed));
}

TEST_CASE("live file: a file cut at any byte reads as its whole records or names the cut",
          "[capture]") {
  TempDir dir;
  const std::string path = dir.file("npkit_00000000000000bb_rank3.live.npkt");
  const uint64_t capacity = 1024;
  const uint64_t written = 300;
  std::string why_not;
  std::unique_ptr<LiveFile> live =
      LiveFile::create(parent_directory(path), "npkit_00000000000000bb_rank3.live.npkt",
                       prefix_for(0xbb, capacity), capacity, &why_not);
  REQUIRE(live != nullptr);
  RecordBuffer buffer;
  REQUIRE(buffer.reserve_live(std::move(live), capacity, &why_not));
  publish(buffer, written, 0);

  const std::vector<uint8_t> bytes = file_bytes(path);
  const uint64_t records = records_payload_offset(bytes);
  REQUIRE(bytes.size() >= records + written * sizeof(ProfilerRecord));
  std::vector<uint64_t> cuts;
  for (uint64_t at = 0; at < 4096; ++at) cuts.push_back(at);
  for (uint64_t at = 4096; at < records - 64; at += 4093) cuts.push_back(at);
  for (uint64_t at = records - 64; at < records + 3 * 64; ++at) cuts.push_back(at);
  for (uint64_t at = records + 3 * 64; at < records + (written - 3) * 64; at += 61) {
    cuts.push_back(at);
  }
  for (uint64_t at = records + (written - 3) * 64; at <= records + written * 64 + 64; ++at) {
    cuts.push_back(at);
  }
  cuts.push_back(bytes.size());

  uint64_t wrong = 0;
  std::string first_wrong;
  for (const uint64_t cut : cuts) {
    const auto dump = parse_npkt("cut", bytes.data(), cut);
    const uint64_t whole = cut < records ? 0 : std::min<uint64_t>(written, (cut - records) / 64);
    bool right = false;
    if (cut < records) {
      // Before the records: an error that says where (never a crash, never a silent result).
      right = !dump.ok() && dump.error().message.find("cut: offset ") == 0;
    } else {
      right = dump.ok() && dump->records.size() == whole;
    }
    if (!right && wrong++ == 0) {
      first_wrong = "cut at " + std::to_string(cut) + ": " +
                    (dump.ok() ? std::to_string(dump->records.size()) + " records, expected " +
                                     std::to_string(whole)
                               : dump.error().message);
    }
  }
  INFO(first_wrong);
  CHECK(wrong == 0);
}

}  // namespace npkit::test
