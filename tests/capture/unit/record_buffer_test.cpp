// The multi-producer record buffer: every claimed record present exactly once, drops counted,
// a close while producers run loses nothing and counts nothing twice.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "recorder/record_buffer.hpp"

using npkit::capture::RecordBuffer;
using npkit::format::ProfilerRecord;

namespace {

// Producer `thread` writes its `sequence`-th record: event_id = thread << 32 | sequence.
bool append(RecordBuffer& buffer, uint64_t thread, uint64_t sequence) {
  const uint64_t index = buffer.claim();
  if (index >= RecordBuffer::kClosedMark) return false;
  if (ProfilerRecord* record = buffer.at(index)) {
    record->event_id = thread << 32 | sequence;
    record->host_ns = index;
    RecordBuffer::publish(record, 1);
  }
  return true;
}

// The closed buffer's records, range by range.
std::vector<const ProfilerRecord*> records_of(const RecordBuffer::Closed& closed) {
  std::vector<const ProfilerRecord*> out;
  for (const RecordBuffer::Range& range : closed.ranges) {
    for (uint64_t i = range.begin; i < range.end; ++i) out.push_back(&closed.records[i]);
  }
  return out;
}

}  // namespace

TEST_CASE("record buffer: N threads append, every record is there exactly once",
          "[capture][threads]") {
  constexpr uint64_t kThreads = 4;
  constexpr uint64_t kPerThread = 20000;
  RecordBuffer buffer;
  std::string why_not;
  // Room for every record and each thread's last, partly used segment.
  REQUIRE(buffer.reserve(2 * kThreads * kPerThread, &why_not));
  std::vector<std::thread> threads;
  for (uint64_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < kPerThread; ++i) append(buffer, t, i);
    });
  }
  for (auto& thread : threads) thread.join();

  RecordBuffer::Closed closed;
  REQUIRE(buffer.close(std::chrono::milliseconds(200), &closed));
  CHECK(closed.count == kThreads * kPerThread);
  CHECK(closed.attempted == kThreads * kPerThread);
  CHECK(closed.dropped == 0);
  CHECK(closed.incomplete.empty());
  std::vector<std::vector<int>> seen(kThreads, std::vector<int>(kPerThread, 0));
  const std::vector<const ProfilerRecord*> records = records_of(closed);
  REQUIRE(records.size() == closed.count);
  for (const ProfilerRecord* record : records) {
    REQUIRE(record->kind == 1);
    REQUIRE(record->host_ns == uint64_t(record - closed.records));  // its own index
    ++seen[record->event_id >> 32][record->event_id & 0xFFFFFFFFu];
  }
  for (uint64_t t = 0; t < kThreads; ++t) {
    for (uint64_t i = 0; i < kPerThread; ++i) REQUIRE(seen[t][i] == 1);
  }
}

TEST_CASE("record buffer: a full buffer drops and counts the rest", "[capture][threads]") {
  RecordBuffer buffer;
  std::string why_not;
  REQUIRE(buffer.reserve(1000, &why_not));
  std::vector<std::thread> threads;
  for (uint64_t t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < 700; ++i) append(buffer, t, i);
    });
  }
  for (auto& thread : threads) thread.join();
  RecordBuffer::Closed closed;
  REQUIRE(buffer.close(std::chrono::milliseconds(200), &closed));
  // Every segment handed out, but a thread that stopped writing leaves the rest of its own
  // unused (at most one segment less one record per thread); every claim is counted once.
  CHECK(closed.count <= 1000);
  CHECK(closed.count >= 1000 - 3 * (buffer.segment_records() - 1));
  CHECK(closed.attempted == 2100);
  CHECK(closed.dropped == 2100 - closed.count);
  CHECK(closed.incomplete.empty());
  for (const ProfilerRecord* record : records_of(closed)) REQUIRE(record->kind == 1);
}

TEST_CASE("record buffer: closing while producers run loses and doubles nothing",
          "[capture][threads]") {
  constexpr uint64_t kThreads = 4;
  RecordBuffer buffer;
  std::string why_not;
  REQUIRE(buffer.reserve(1u << 22, &why_not));  // far more than 2 ms of appends
  std::atomic<bool> go{false};
  std::vector<uint64_t> stored(kThreads, 0);   // appends that happened before the close
  std::vector<uint64_t> refused(kThreads, 0);  // appends that saw the buffer closed
  std::vector<std::thread> threads;
  for (uint64_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      uint64_t i = 0;
      while (refused[t] < 1000) {
        if (append(buffer, t, i)) {
          ++stored[t];
          ++i;
        } else {
          ++refused[t];
        }
      }
    });
  }
  go.store(true);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  RecordBuffer::Closed closed;
  REQUIRE(buffer.close(std::chrono::milliseconds(200), &closed));
  for (auto& thread : threads) thread.join();

  uint64_t total_stored = 0;
  for (uint64_t t = 0; t < kThreads; ++t) total_stored += stored[t];
  CHECK(closed.attempted == total_stored);
  CHECK(closed.dropped == 0);
  CHECK(closed.incomplete.empty());
  REQUIRE(closed.count == total_stored);
  // Each thread's records are its sequence 0..stored-1, each exactly once.
  std::vector<std::vector<int>> seen(kThreads);
  for (uint64_t t = 0; t < kThreads; ++t) seen[t].assign(stored[t], 0);
  for (const ProfilerRecord* record : records_of(closed)) {
    REQUIRE(record->kind == 1);
    const uint64_t t = record->event_id >> 32;
    const uint64_t sequence = record->event_id & 0xFFFFFFFFu;
    REQUIRE(sequence < stored[t]);
    ++seen[t][sequence];
  }
  for (uint64_t t = 0; t < kThreads; ++t) {
    for (int count : seen[t]) REQUIRE(count == 1);
  }
  CHECK(buffer.claims_after_close() == kThreads * 1000);
}

TEST_CASE("record buffer: a record never published is listed incomplete after the wait",
          "[capture]") {
  RecordBuffer buffer;
  std::string why_not;
  REQUIRE(buffer.reserve(16, &why_not));
  append(buffer, 0, 0);
  const uint64_t stuck = buffer.claim();  // claimed, never published
  append(buffer, 0, 1);
  const uint64_t stuck_too = buffer.claim();
  RecordBuffer::Closed closed;
  const auto before = std::chrono::steady_clock::now();
  REQUIRE(buffer.close(std::chrono::milliseconds(20), &closed));
  const auto waited = std::chrono::steady_clock::now() - before;
  CHECK(waited >= std::chrono::milliseconds(20));
  CHECK(waited < std::chrono::seconds(2));
  CHECK(closed.count == 4);
  CHECK(closed.incomplete == std::vector<uint64_t>{stuck, stuck_too});
  CHECK_FALSE(buffer.release(closed));  // a stalled producer may still write there
  RecordBuffer::Closed again;
  CHECK_FALSE(buffer.close(std::chrono::milliseconds(20), &again));
}

TEST_CASE("record buffer: a complete buffer is released after the dump", "[capture]") {
  RecordBuffer buffer;
  std::string why_not;
  REQUIRE(buffer.reserve(16, &why_not));
  append(buffer, 0, 0);
  RecordBuffer::Closed closed;
  REQUIRE(buffer.close(std::chrono::milliseconds(20), &closed));
  CHECK(buffer.release(closed));
  CHECK(buffer.claim() >= RecordBuffer::kClosedMark);
  CHECK(buffer.claims_after_close() == 1);
}

TEST_CASE("record buffer: an impossible reservation fails with a reason", "[capture]") {
  RecordBuffer buffer;
  std::string why_not;
  CHECK_FALSE(buffer.reserve(uint64_t{1} << 56, &why_not));
  CHECK_THAT(why_not, Catch::Contains("mmap"));
}

TEST_CASE("record buffer: a refused claim counts only once no record is left", "[capture]") {
  RecordBuffer buffer;
  std::string why_not;
  REQUIRE(buffer.reserve(2, &why_not));
  CHECK_FALSE(buffer.claim_refused());  // records are left: nothing counted
  CHECK(buffer.claimed() == 0);
  REQUIRE(append(buffer, 0, 0));
  REQUIRE(append(buffer, 0, 1));
  CHECK(buffer.claim_refused());  // full: counted like a dropped record
  CHECK(buffer.claim_refused());
  CHECK(buffer.claimed() == 4);

  RecordBuffer::Closed closed;
  REQUIRE(buffer.close(std::chrono::milliseconds(50), &closed));
  CHECK(closed.count == 2);
  CHECK(closed.attempted == 4);
  CHECK(closed.dropped == 2);
  CHECK(closed.incomplete.empty());
  CHECK(buffer.claim_refused());  // closed: counted after the close
  CHECK(buffer.claims_after_close() == 1);
}

TEST_CASE("record buffer: a thread's claims stay in its own segment, one per buffer in turn",
          "[capture]") {
  // 16 buffers (the lanes a thread keeps) written in turn, 1000 records each: every buffer uses
  // exactly two segments of 512, nothing is wasted or dropped.
  constexpr int kBuffers = int(RecordBuffer::kThreadLanes);
  std::vector<std::unique_ptr<RecordBuffer>> buffers;
  std::string why_not;
  for (int b = 0; b < kBuffers; ++b) {
    buffers.push_back(std::make_unique<RecordBuffer>());
    REQUIRE(buffers.back()->reserve(64 * RecordBuffer::kMaxSegmentRecords, &why_not));
  }
  for (uint64_t i = 0; i < 1000; ++i) {
    for (auto& buffer : buffers) REQUIRE(append(*buffer, 0, i));
  }
  for (auto& buffer : buffers) {
    RecordBuffer::Closed closed;
    REQUIRE(buffer->close(std::chrono::milliseconds(50), &closed));
    CHECK(closed.count == 1000);
    CHECK(closed.dropped == 0);
    REQUIRE(closed.ranges.size() == 2);
    CHECK(closed.ranges[0].end - closed.ranges[0].begin == 512);
    CHECK(closed.ranges[1].end - closed.ranges[1].begin == 488);
  }
}

TEST_CASE("record buffer: small buffers use small segments, so every thread gets records",
          "[capture][threads]") {
  // 64 records: segments of 1, as many as records; 4 threads share them.
  RecordBuffer buffer;
  std::string why_not;
  REQUIRE(buffer.reserve(64, &why_not));
  std::vector<std::thread> threads;
  std::vector<uint64_t> written(4, 0);
  for (uint64_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < 16; ++i) {
        const uint64_t index = buffer.claim();
        if (ProfilerRecord* record = buffer.at(index)) {
          record->event_id = t << 32 | i;
          RecordBuffer::publish(record, 1);
          ++written[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  RecordBuffer::Closed closed;
  REQUIRE(buffer.close(std::chrono::milliseconds(50), &closed));
  CHECK(closed.count == 64);
  CHECK(closed.dropped == 0);
  CHECK(written == std::vector<uint64_t>{16, 16, 16, 16});
}
