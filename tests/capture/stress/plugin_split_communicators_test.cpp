// Many communicators in one process, as ncclCommSplit makes them: created and destroyed one
// after another while a parent communicator lives on, and many alive at once, finalized in the
// reverse order. Each dump must hold exactly its own communicator's calls.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"

namespace npkit::test {
namespace {

// A collective with two kernel channels; the channels' parents are the Coll.
void one_collective(CommDriver& comm, uint64_t seq) {
  void* coll = comm.start(coll_descr(nullptr, comm.setup().rank, seq, "AllReduce", 1024, 0,
                                     "ncclFloat32", 2, 8, "RING", "SIMPLE", nullptr));
  for (uint8_t channel = 0; channel < 2; ++channel) {
    void* kernel = comm.start(kernel_ch_descr(coll, channel, 1000 * seq + channel));
    const abi::StateArgs stop_time = kernel_stop_args(1000 * seq + channel + 500);
    comm.state(kernel, format::kStateKernelChStop, &stop_time);
    comm.stop(kernel);
  }
  comm.stop(coll);
}

TEST_CASE("plugin stress: 128 split communicators created, recorded and finalized in turn",
          "[plugin][stress]") {
  PluginEnv env;
  constexpr int kSplits = 128;
  const uint64_t parent_hash = 0x5b1100000000f000ull;
  CommDriver parent({.comm_hash = parent_hash, .rank = 0, .nranks = 8, .comm_name = "world"});
  one_collective(parent, 0);
  std::vector<std::string> expected_files = {dump_file_name(parent_hash, 0)};
  for (int i = 0; i < kSplits; ++i) {
    INFO("split " << i);
    const uint64_t hash = 0x5b11000000000000ull + static_cast<uint64_t>(i);
    CommDriver split(
        {.comm_hash = hash, .rank = i % 8, .nranks = 8, .nnodes = 2, .comm_name = "split"});
    one_collective(split, static_cast<uint64_t>(i));
    // Handles crossing the two communicators, both ways (NCCL never does this, a plugin must
    // still keep each file to its own records).
    void* in_split = split.start(kernel_ch_descr(nullptr, 9, 77));
    void* in_parent = parent.start(kernel_ch_descr(in_split, 7, 1000 + i), ParentLink::kOtherComm);
    split.stop(split.start(kernel_ch_descr(in_parent, 8, 88), ParentLink::kOtherComm));
    split.stop(in_split);
    parent.stop(in_parent);
    finalize_and_check(split, env.dir.path());
    expected_files.push_back(dump_file_name(hash, i % 8));
  }
  one_collective(parent, 1);
  finalize_and_check(parent, env.dir.path());
  std::sort(expected_files.begin(), expected_files.end());
  CHECK(entries_in(env.dir.path()) == expected_files);
}

TEST_CASE(
    "plugin stress: 160 communicators alive at once, calls interleaved, finalized in "
    "reverse order",
    "[plugin][stress]") {
  PluginEnv env(std::nullopt, "1");
  constexpr int kComms = 160;
  constexpr uint64_t kCapacity = 1024 * 1024 / 64;
  std::vector<std::unique_ptr<CommDriver>> comms;
  for (int i = 0; i < kComms; ++i) {
    comms.push_back(std::make_unique<CommDriver>(
        CommSetup{.comm_hash = 0xa11e000000000000ull + static_cast<uint64_t>(i),
                  .rank = i % 4,
                  .nranks = 4,
                  .comm_name = "alive"}));
  }
  // Round after round, every communicator gets one collective; a kernel channel of comm i names
  // a handle of comm i-1 as its parent.
  std::vector<void*> previous(kComms, nullptr);
  for (uint64_t round = 0; round < 3; ++round) {
    for (int i = 0; i < kComms; ++i) {
      one_collective(*comms[i], round);
      void* mine = comms[i]->start(kernel_ch_descr(nullptr, 3, round));
      if (i > 0 && previous[i - 1] != nullptr) {
        comms[i]->stop(
            comms[i]->start(kernel_ch_descr(previous[i - 1], 4, round), ParentLink::kOtherComm));
      }
      comms[i]->stop(mine);
      previous[i] = mine;
    }
  }
  for (int i = kComms - 1; i >= 0; --i) {
    INFO("communicator " << i);
    CommDriver& comm = *comms[i];
    comm.finalize();
    const NpktDump dump =
        read_dump(env.file(dump_file_name(comm.setup().comm_hash, comm.setup().rank)));
    DumpExpectations expected = finalized_expectations(comm);
    expected.records_capacity = kCapacity;
    check_comm_info(dump, comm, expected);
    check_records_match_calls(dump, comm.calls());
  }
  CHECK(entries_in(env.dir.path()).size() == size_t{kComms});
}

}  // namespace
}  // namespace npkit::test
