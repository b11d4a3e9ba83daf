// HostRecorder: per-thread streams, host-clock stamps, full streams and missing streams counted,
// and capture() while threads record (run under ThreadSanitizer with [threads]).
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "capture/plugin/scoped_env.hpp"
#include "npkit/host.hpp"
#include "recorder/host_clock.hpp"

namespace fmt = npkit::format;

namespace {

std::unique_ptr<npkit::HostRecorder> make(uint32_t threads, uint64_t per_thread) {
  std::string error;
  auto recorder = npkit::HostRecorder::create({threads, per_thread}, &error);
  INFO(error);
  REQUIRE(recorder != nullptr);
  return recorder;
}

}  // namespace

TEST_CASE("host recorder: one thread's events, in order, stamped with the host clock",
          "[capture]") {
  auto recorder = make(4, 16);
  int64_t before = 0;
  int64_t after = 0;
  int32_t tid = 0;
  std::thread worker([&] {
    pthread_setname_np(pthread_self(), "npkit-hostrec");
    tid = static_cast<int32_t>(syscall(SYS_gettid));
    before = npkit::capture::host_now_ns();
    recorder->record(0x1000, 100, 1);
    recorder->record(0x1001, 200, 2);
    recorder->record(0x1002, 300, 3);
    after = npkit::capture::host_now_ns();
  });
  worker.join();
  const npkit::HostCapture captured = recorder->capture();
  REQUIRE(captured.streams.size() == 1);
  const npkit::CapturedStream& stream = captured.streams[0];
  CHECK(stream.info.source == fmt::kStreamHostThread);
  CHECK(stream.info.clock == fmt::kStreamClockHost);
  CHECK(stream.info.cuda_device == -1);
  CHECK(stream.info.os_tid == tid);
  CHECK(stream.info.records_written == 3);
  CHECK(stream.info.records_dropped == 0);
  CHECK(stream.info.capacity == 16);
  CHECK(stream.name == "npkit-hostrec");
  REQUIRE(stream.records.size() == 3);
  for (uint32_t i = 0; i < 3; ++i) {
    CHECK(stream.records[i].id == 0x1000 + i);
    CHECK(stream.records[i].size == 100 * (i + 1));
    CHECK(stream.records[i].user == i + 1);
    CHECK(stream.records[i].reserved == 0);
    CHECK(static_cast<int64_t>(stream.records[i].timestamp) >= before);
    CHECK(static_cast<int64_t>(stream.records[i].timestamp) <= after);
    if (i > 0) CHECK(stream.records[i].timestamp >= stream.records[i - 1].timestamp);
  }
}

TEST_CASE("host recorder: a full stream keeps its first records and counts the rest", "[capture]") {
  auto recorder = make(2, 2);
  for (uint32_t i = 0; i < 5; ++i) recorder->record(0x1000, 0, i);
  const npkit::HostCapture captured = recorder->capture();
  REQUIRE(captured.streams.size() == 1);
  CHECK(captured.streams[0].info.records_written == 2);
  CHECK(captured.streams[0].info.records_dropped == 3);
  REQUIRE(captured.streams[0].records.size() == 2);
  CHECK(captured.streams[0].records[1].user == 1);
}

TEST_CASE("host recorder: threads beyond max_threads are counted, not recorded", "[capture]") {
  auto recorder = make(2, 8);
  for (int t = 0; t < 3; ++t) {
    std::thread([&] {
      recorder->record(0x1000);
      recorder->record(0x1001);
    }).join();
  }
  const npkit::HostCapture captured = recorder->capture();
  CHECK(captured.streams.size() == 2);
  CHECK(captured.events_without_stream == 2);
}

TEST_CASE("host recorder: each recorder gives a thread a stream of its own", "[capture]") {
  auto first = make(2, 8);
  auto second = make(2, 8);
  first->record(0x1000);
  second->record(0x1001);
  second->record(0x1002);
  REQUIRE(first->capture().streams.size() == 1);
  CHECK(first->capture().streams[0].records.size() == 1);
  REQUIRE(second->capture().streams.size() == 1);
  CHECK(second->capture().streams[0].records.size() == 2);
}

TEST_CASE("host recorder: records per thread come from NPKIT_BUFFER_SIZE_MB", "[capture]") {
  npkit::test::ScopedEnv size("NPKIT_BUFFER_SIZE_MB", "1");
  auto recorder = make(4, 0);
  recorder->record(0x1000);
  const npkit::HostCapture captured = recorder->capture();
  REQUIRE(captured.streams.size() == 1);
  CHECK(captured.buffer_size_mb == 1);
  CHECK(captured.streams[0].info.capacity == 10922);  // 1048576 B / 4 threads / 24 B, rounded down
}

TEST_CASE("host recorder: max_threads 0 is refused", "[capture]") {
  std::string error;
  CHECK(npkit::HostRecorder::create({0, 8}, &error) == nullptr);
  CHECK_THAT(error, Catch::Contains("max_threads"));
}

TEST_CASE("host recorder: capture while threads record sees complete prefixes",
          "[capture][threads]") {
  constexpr int kThreads = 6;
  constexpr uint32_t kEvents = 20000;
  auto recorder = make(kThreads, kEvents);
  std::atomic<int> running{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint32_t i = 0; i < kEvents; ++i)
        recorder->record(static_cast<uint16_t>(0x1000 + t), i, i);
      running.fetch_sub(1);
    });
  }
  int snapshots = 0;
  auto check_prefixes = [](const npkit::HostCapture& captured) {
    for (const npkit::CapturedStream& stream : captured.streams) {
      REQUIRE(stream.records.size() == stream.info.records_written);
      for (uint32_t i = 0; i < stream.records.size(); ++i) {
        if (stream.records[i].user != i || stream.records[i].size != i ||
            stream.records[i].id != stream.records[0].id) {
          FAIL("stream " << stream.name << " record " << i << " is not the thread's record " << i);
        }
      }
    }
  };
  while (running.load() > 0) {
    check_prefixes(recorder->capture());
    ++snapshots;
  }
  for (std::thread& thread : threads) thread.join();
  const npkit::HostCapture final_capture = recorder->capture();
  check_prefixes(final_capture);
  REQUIRE(final_capture.streams.size() == kThreads);
  for (const npkit::CapturedStream& stream : final_capture.streams) {
    CHECK(stream.info.records_written == kEvents);
    CHECK(stream.info.records_dropped == 0);
  }
  CHECK(snapshots > 0);
}
