// A full record buffer drops new records and counts them exactly, never blocks, and keeps
// handing out handles that later calls may use (format.hpp CommunicatorInfo::records_dropped).
#include <set>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"

namespace npkit::test {
namespace {

TEST_CASE("plugin: 20,000 records into a 1 MB buffer keep 16,384 and count 3,616 dropped",
          "[plugin]") {
  PluginEnv env(std::nullopt, "1");
  constexpr uint64_t kCapacity = 1024 * 1024 / 64;  // 64-byte records in 1 MB
  constexpr uint64_t kAttempted = 20000;
  CommDriver comm({.comm_hash = 0x7e57000000000401ull, .nranks = 2});

  // 10,000 KernelCh events of two records each: start, stop.
  std::vector<void*> handles;
  for (uint64_t i = 0; i < kAttempted / 2; ++i) {
    void* h = comm.start(kernel_ch_descr(nullptr, static_cast<uint8_t>(i % 64), 1000 + i));
    handles.push_back(h);
    comm.stop(h);
  }
  // Handles returned after the buffer filled are still distinct and usable.
  std::set<void*> distinct(handles.begin(), handles.end());
  CHECK(distinct.size() == handles.size());

  comm.finalize();
  const NpktDump dump = read_dump(env.file(dump_file_name(0x7e57000000000401ull, 0)));
  DumpExpectations expected = finalized_expectations(comm);
  expected.records_capacity = kCapacity;
  expected.records_attempted = kAttempted;
  expected.records_dropped = kAttempted - kCapacity;
  check_comm_info(dump, comm, expected);
  CHECK(dump.comm.records_dropped == 3616);

  // The records kept are the first 16,384 calls, in order.
  std::vector<LoggedCall> kept = comm.calls();
  REQUIRE(kept.size() == kAttempted);
  kept.resize(kCapacity);
  check_records_match_calls(dump, kept);
}

}  // namespace
}  // namespace npkit::test
