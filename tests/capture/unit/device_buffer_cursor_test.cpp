// The cursor's buffer arithmetic (device.cuh BufferCursor), run on host memory: one load of the
// state word at open(), records after the ones already there, drops counted once the buffer is
// full, nothing written past its end, and one store of the state word at close() (none without an
// append, so an unused cursor sets no clock bit).
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "npkit/device.cuh"

namespace fmt = npkit::format;
using npkit::device_detail::BufferCursor;

namespace {

constexpr uint64_t kUntouched = 0xABABABABABABABABull;

struct HostBuffers {
  // `buffers` buffers of `capacity` records, plus one guard record after the last.
  HostBuffers(uint32_t buffers, uint32_t capacity)
      : records(buffers * capacity + 1), states(buffers, 0) {
    std::memset(records.data(), 0xAB, records.size() * sizeof(fmt::EventRecord));
    rec.records = records.data();
    rec.states = states.data();
    rec.capacity = capacity;
    rec.block_buffers = buffers;
  }
  std::vector<fmt::EventRecord> records;
  std::vector<unsigned long long> states;
  npkit::DeviceRecorder rec;
};

}  // namespace

TEST_CASE("device BufferCursor: appends follow the records already in the buffer", "[capture]") {
  HostBuffers host(2, 4);
  host.states[1] = npkit::kStateClockGlobalTimer | 1;  // one record from an earlier launch
  BufferCursor cursor;
  cursor.open(host.rec, 1);
  host.states[1] = 0;  // what open() loaded is what counts, not a later value
  cursor.append(500, 0x1000, 64, 3);
  cursor.append(600, 0x1001, 64, 3);
  cursor.close(npkit::kStateClockGlobalTimer);
  CHECK(host.states[1] == (npkit::kStateClockGlobalTimer | 3));
  // Buffer 1 starts at record 4; slot 0 was the earlier launch's, untouched here.
  CHECK(host.records[4].timestamp == kUntouched);
  CHECK(host.records[5].timestamp == 500);
  CHECK(host.records[5].id == 0x1000);
  CHECK(host.records[5].size == 64);
  CHECK(host.records[5].user == 3);
  CHECK(host.records[5].reserved == 0);
  CHECK(host.records[6].timestamp == 600);
  CHECK(host.records[6].id == 0x1001);
  CHECK(host.records[7].timestamp == kUntouched);
  CHECK(host.states[0] == 0);
}

TEST_CASE("device BufferCursor: a full buffer counts drops and writes nothing past its end",
          "[capture]") {
  HostBuffers host(1, 3);
  host.states[0] = npkit::kStateClockCycles | 2;
  BufferCursor cursor;
  cursor.open(host.rec, 0);
  for (uint32_t i = 0; i < 5; ++i) cursor.append(100 + i, 0x1000, 0, i);
  cursor.close(npkit::kStateClockCycles);
  CHECK(host.states[0] == (npkit::kStateClockCycles | 7));  // 2 earlier + 5: written 3, dropped 4
  CHECK(host.records[2].timestamp == 100);                  // only the first append fitted
  CHECK(host.records[2].user == 0);
  CHECK(host.records[3].timestamp == kUntouched);  // the guard after the end

  // Already full at open(): every append is counted, none stored.
  BufferCursor again;
  again.open(host.rec, 0);
  again.append(900, 0x1000, 0, 9);
  again.close(npkit::kStateClockCycles);
  CHECK(host.states[0] == (npkit::kStateClockCycles | 8));
  CHECK(host.records[3].timestamp == kUntouched);
}

TEST_CASE("device BufferCursor: without an append the state word keeps its value", "[capture]") {
  HostBuffers host(1, 2);
  host.states[0] = npkit::kStateClockGlobalTimer | 1;
  BufferCursor cursor;
  cursor.open(host.rec, 0);
  host.states[0] = 0;  // close() stores nothing, so this stays
  cursor.close(npkit::kStateClockCycles);
  CHECK(host.states[0] == 0);
}

TEST_CASE("device BufferCursor: the same records as one store_event per event", "[capture]") {
  HostBuffers by_cursor(1, 4), by_event(1, 4);
  BufferCursor cursor;
  cursor.open(by_cursor.rec, 0);
  for (uint32_t i = 0; i < 6; ++i) {
    cursor.append(10 * i, static_cast<uint16_t>(0x1000 + i), i * 8, i);
    npkit::device_detail::store_event(by_event.rec, 0, 10 * i, npkit::kStateClockGlobalTimer,
                                      static_cast<uint16_t>(0x1000 + i), i * 8, i);
  }
  cursor.close(npkit::kStateClockGlobalTimer);
  CHECK(by_cursor.states[0] == by_event.states[0]);
  CHECK(std::memcmp(by_cursor.records.data(), by_event.records.data(),
                    by_cursor.records.size() * sizeof(fmt::EventRecord)) == 0);
}
