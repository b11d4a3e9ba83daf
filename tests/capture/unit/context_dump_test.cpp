// One context's dump: counters, threads that wrote, the one-dump rule, and the exit-time dump of
// every live context. Files are read back with the separate test reader.
#include <sys/syscall.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "capture/unit/dump_at_path.hpp"
#include "recorder/context_dump.hpp"
#include "recorder/event_recorder.hpp"
#include "recorder/host_clock.hpp"
#include "recorder/string_interner.hpp"
#include "support/dump_bytes_reader.hpp"
#include "support/temp_dir.hpp"

namespace fmt = npkit::format;
using namespace npkit::capture;

namespace {

std::unique_ptr<CaptureContext> dumpable_context(ContextRegistry& registry, uint64_t capacity,
                                                 const std::string& path, bool detached = false) {
  auto context = std::make_unique<CaptureContext>();
  std::string why_not;
  REQUIRE(context->buffer.reserve(capacity, &why_not));
  context->comm_hash = 0xfeedull;
  context->rank = 1;
  context->nranks = 2;
  context->nnodes = 1;
  context->pid = static_cast<int32_t>(getpid());
  context->profiler_api = 5;
  context->event_mask = 4095;
  context->capture_start_ns = 5;
  context->directory = npkit::test::parent_directory(path);
  context->dump_name = std::filesystem::path(path).filename().string();
  context->metadata = {{"hostname", "h"}};
  context->clock_notes = {{"no clock sample at init", "no GPU"}};
  if (detached)
    REQUIRE(registry.set_detached(context.get()));
  else
    REQUIRE(registry.add(context.get()));
  return context;
}

StartRequest coll_request(const void* parent) {
  StartRequest out;
  out.type = fmt::kTypeColl;
  out.parent = parent;
  return out;
}

}  // namespace

TEST_CASE("context dump: counters, threads and records of one communicator", "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  const std::string path = dir.file("npkit_000000000000feed_rank1.npkt");
  auto context = dumpable_context(*registry, 4, path);

  // This thread writes 2 records, a second thread 1; a third thread only adds dropped ones.
  static const char kAllReduce[] = "AllReduce";
  const uint16_t func_id = process_string_interner().intern(kAllReduce);
  void* coll = record_start(*registry, context.get(), coll_request(nullptr));
  record_stop(*registry, decode_handle(coll));
  int32_t helper_tid = 0;
  std::thread([&] {
    helper_tid = static_cast<int32_t>(syscall(SYS_gettid));
    record_start(*registry, context.get(), coll_request(coll));
  }).join();
  record_start(*registry, context.get(), coll_request(nullptr));
  std::thread([&] {
    for (int i = 0; i < 3; ++i) record_start(*registry, context.get(), coll_request(nullptr));
  }).join();

  const int64_t before = npkit::capture::host_now_ns();
  const DumpResult result =
      dump_context(*context, fmt::kEndFinalize, {}, {{"no clock sample at end", "no GPU"}});
  REQUIRE(result.status == DumpResult::kWritten);
  CHECK(result.path == path);
  record_stop(*registry, decode_handle(coll));  // after the dump: not in the file

  const auto dump = npkit::test::parse_dump_bytes(npkit::test::read_whole_file(path));
  CHECK(dump.problems.empty());
  CHECK(dump.comm.comm_hash == 0xfeedull);
  CHECK(dump.comm.rank == 1);
  CHECK(dump.comm.pid == getpid());
  CHECK(dump.comm.capture_start_ns == 5);
  CHECK(dump.comm.capture_end_ns >= before);
  CHECK(dump.comm.end_reason == fmt::kEndFinalize);
  CHECK(dump.comm.clock_method == fmt::kClockNone);
  CHECK(dump.comm.host_clock == fmt::kHostClockRealtime);
  CHECK(dump.comm.records_capacity == 4);
  CHECK(dump.comm.records_attempted == 7);
  CHECK(dump.comm.records_dropped == 3);
  CHECK(dump.comm.records_incomplete == 0);
  CHECK(dump.comm.events_after_dump == 0);
  CHECK(dump.meta("clock.note") == "no clock sample at init, no clock sample at end: no GPU");
  CHECK(dump.strings.at(func_id) == "AllReduce");

  REQUIRE(dump.records.size() == 4);
  CHECK(dump.records[0].kind == fmt::kRecordStart);
  CHECK(dump.records[1].kind == fmt::kRecordStop);
  CHECK(dump.records[2].parent_id == 1);
  CHECK(dump.records[3].event_id == 4);
  std::set<int32_t> tids;
  for (const auto& thread : dump.threads) tids.insert(thread.os_tid);
  CHECK(tids == std::set<int32_t>{static_cast<int32_t>(syscall(SYS_gettid)), helper_tid});
  CHECK(context->buffer.claims_after_close() == 1);

  CHECK(dump_context(*context, fmt::kEndFinalize, {}, {}).status == DumpResult::kAlreadyTaken);
}

TEST_CASE("context dump: records of several threads are written in time order", "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  const std::string path = dir.file("npkit_000000000000feed_rank1.npkt");
  // Segments of 512 records: each thread writes into its own, so buffer order is by thread.
  auto context = dumpable_context(*registry, 1u << 16, path);
  for (int round = 0; round < 3; ++round) {
    record_start(*registry, context.get(), coll_request(nullptr));
    std::thread([&] { record_start(*registry, context.get(), coll_request(nullptr)); }).join();
  }
  REQUIRE(dump_context(*context, fmt::kEndFinalize, {}, {}).status == DumpResult::kWritten);

  const auto dump = npkit::test::parse_dump_bytes(npkit::test::read_whole_file(path));
  CHECK(dump.problems.empty());
  REQUIRE(dump.records.size() == 6);
  // Alternating threads (main, helper, main, ...), each later than the one before.
  for (size_t i = 1; i < dump.records.size(); ++i) {
    CHECK(dump.records[i].host_ns >= dump.records[i - 1].host_ns);
    CHECK(dump.records[i].thread != dump.records[i - 1].thread);
  }
}

TEST_CASE("context dump: samples make the clock method kernel-bracket", "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  auto context = dumpable_context(*registry, 4, dir.file("d.npkt"));
  context->clock_notes.clear();
  context->clock_samples = {{1, 3, 10, fmt::kSampleAtInit, 0}};
  const fmt::ClockSample end{7, 9, 20, fmt::kSampleAtEnd, 0};
  REQUIRE(dump_context(*context, fmt::kEndFinalize, {end}, {}).status == DumpResult::kWritten);
  const auto dump = npkit::test::parse_dump_bytes(npkit::test::read_whole_file(dir.file("d.npkt")));
  CHECK(dump.comm.clock_method == fmt::kClockKernelBracket);
  REQUIRE(dump.clock_samples.size() == 2);
  CHECK(dump.clock_samples[0].gpu_ns == 10);
  CHECK(dump.clock_samples[1].gpu_ns == 20);
  CHECK(dump.clock_samples[1].when == fmt::kSampleAtEnd);
  CHECK(dump.meta("clock.note") == "<absent>");
}

TEST_CASE("context dump: a failed write is reported with the path", "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  // The directory is removed after the context opened it: no file can be created there.
  const std::string gone = dir.make_dir("gone");
  auto context = dumpable_context(*registry, 4, gone + "/d.npkt");
  std::filesystem::remove(gone);
  const DumpResult result = dump_context(*context, fmt::kEndFinalize, {}, {});
  CHECK(result.status == DumpResult::kFailed);
  CHECK_THAT(result.error, Catch::Contains(gone + "/.d.npkt."));
  CHECK_THAT(result.error, Catch::Contains("No such file or directory"));
}

TEST_CASE("context dump: at exit every live context, the detached one only with records",
          "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  auto detached = dumpable_context(*registry, 8, dir.file("detached.npkt"), /*detached=*/true);
  auto finalized = dumpable_context(*registry, 8, dir.file("finalized.npkt"));
  auto live = dumpable_context(*registry, 8, dir.file("live.npkt"));
  REQUIRE(dump_context(*finalized, fmt::kEndFinalize, {}, {}).status == DumpResult::kWritten);

  auto results = dump_live_contexts(*registry, fmt::kEndProcessExit);
  REQUIRE(results.size() == 1);
  CHECK(results[0].path == dir.file("live.npkt"));
  CHECK_FALSE(std::filesystem::exists(dir.file("detached.npkt")));
  const auto dump =
      npkit::test::parse_dump_bytes(npkit::test::read_whole_file(dir.file("live.npkt")));
  CHECK(dump.comm.end_reason == fmt::kEndProcessExit);
  CHECK(dump_live_contexts(*registry, fmt::kEndProcessExit).empty());

  auto registry2 = std::make_unique<ContextRegistry>();
  auto detached2 = dumpable_context(*registry2, 8, dir.file("detached2.npkt"), true);
  StartRequest op;
  op.type = fmt::kTypeProxyOp;
  op.foreign = true;
  record_start(*registry2, detached2.get(), op);
  results = dump_live_contexts(*registry2, fmt::kEndProcessExit);
  REQUIRE(results.size() == 1);
  CHECK(results[0].status == DumpResult::kWritten);
  CHECK(std::filesystem::exists(dir.file("detached2.npkt")));
}

TEST_CASE("context dump: at exit a forked child leaves its parent's contexts alone", "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  auto parents = dumpable_context(*registry, 8, dir.file("parent.npkt"));
  parents->pid = static_cast<int32_t>(getpid()) + 1;  // opened by another process
  CHECK(dump_live_contexts(*registry, fmt::kEndProcessExit).empty());
  CHECK_FALSE(std::filesystem::exists(dir.file("parent.npkt")));
  CHECK_FALSE(parents->dump_taken.load());
}
