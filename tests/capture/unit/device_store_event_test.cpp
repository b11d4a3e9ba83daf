// The device recorder's buffer arithmetic (device.cuh store_event), run on host memory: records
// land at buffer * capacity + n, a full buffer counts without writing, the state word keeps the
// clock bits, and nothing past a buffer's end is touched.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "npkit/device.cuh"

namespace fmt = npkit::format;
using npkit::device_detail::store_event;

namespace {

struct HostBuffers {
  // `buffers` buffers of `capacity` records, plus one guard record after the last.
  HostBuffers(uint32_t buffers, uint32_t capacity)
      : records(buffers * capacity + 1), states(buffers + 1, 0) {
    std::memset(records.data(), 0xAB, records.size() * sizeof(fmt::EventRecord));
    rec.records = records.data();
    rec.states = states.data();
    rec.unbuffered = &states[buffers];
    rec.capacity = capacity;
    rec.block_buffers = buffers;
  }
  std::vector<fmt::EventRecord> records;
  std::vector<unsigned long long> states;
  npkit::DeviceRecorder rec;
};

}  // namespace

TEST_CASE("device store_event: records go to their buffer's next slot", "[capture]") {
  HostBuffers host(3, 4);
  store_event(host.rec, 1, 1000, npkit::kStateClockGlobalTimer, 0x1000, 64, 7);
  store_event(host.rec, 1, 1100, npkit::kStateClockGlobalTimer, 0x1001, 64, 7);
  store_event(host.rec, 2, 1200, npkit::kStateClockGlobalTimer, 0x1002, 0, 9);
  CHECK(host.states[0] == 0);
  CHECK(host.states[1] == (npkit::kStateClockGlobalTimer | 2));
  CHECK(host.states[2] == (npkit::kStateClockGlobalTimer | 1));
  const fmt::EventRecord& second = host.records[1 * 4 + 1];  // buffer 1, slot 1
  CHECK(second.timestamp == 1100);
  CHECK(second.size == 64);
  CHECK(second.user == 7);
  CHECK(second.id == 0x1001);
  CHECK(second.reserved == 0);
  CHECK(host.records[2 * 4].timestamp == 1200);
  // Buffer 0 untouched.
  CHECK(host.records[0].timestamp == 0xABABABABABABABABull);
}

TEST_CASE("device store_event: a full buffer counts drops and writes nothing", "[capture]") {
  HostBuffers host(2, 3);
  for (uint32_t i = 0; i < 7; ++i) {
    store_event(host.rec, 1, 100 + i, npkit::kStateClockCycles, 0x1000, 0, i);
  }
  CHECK((host.states[1] & npkit::kStateAttemptedMask) == 7);  // written 3, dropped 4
  CHECK((host.states[1] & npkit::kStateClockCycles) != 0);
  CHECK((host.states[1] & npkit::kStateClockGlobalTimer) == 0);
  CHECK(host.records[3 + 2].user == 2);  // the last slot of buffer 1 holds the third event
  CHECK(host.records[6].timestamp == 0xABABABABABABABABull);  // the guard after the end
}

TEST_CASE("device store_event: a buffer written with both clocks says so", "[capture]") {
  HostBuffers host(1, 4);
  store_event(host.rec, 0, 1, npkit::kStateClockGlobalTimer, 0x1000, 0, 0);
  store_event(host.rec, 0, 2, npkit::kStateClockCycles, 0x1000, 0, 0);
  CHECK((host.states[0] & npkit::kStateClockGlobalTimer) != 0);
  CHECK((host.states[0] & npkit::kStateClockCycles) != 0);
  CHECK((host.states[0] & npkit::kStateAttemptedMask) == 2);
}

TEST_CASE("device recorder handle: a default handle has no buffers", "[capture]") {
  const npkit::DeviceRecorder handle;
  CHECK(handle.records == nullptr);
  CHECK(handle.states == nullptr);
  CHECK(handle.unbuffered == nullptr);
  CHECK(handle.capacity == 0);
  CHECK(handle.block_buffers == 0);
  CHECK(handle.warp_blocks == 0);
}
