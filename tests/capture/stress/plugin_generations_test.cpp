// NCCL opens the profiler plugin with the first communicator and closes it (dlclose) after the
// last one's finalize; a later communicator opens it again. Every generation must record and dump
// as the first did, and a handle kept from an earlier generation must never land in a later
// generation's file.
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_checks.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/scoped_env.hpp"
#include "capture/stress/reloadable_plugin.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

TEST_CASE("plugin stress: dlclose and dlopen between 3 communicator generations",
          "[plugin][stress]") {
  TempDir library_dir;
  ReloadablePlugin plugin(library_dir.path());
  PluginEnv env;
  constexpr int kGenerations = 3;
  constexpr int kComms = 3;
  std::vector<void*> earlier_handles;  // open handles of finished generations
  for (int generation = 0; generation < kGenerations; ++generation) {
    INFO("generation " << generation);
    const std::string dir = env.dir.make_dir("gen" + std::to_string(generation));
    ScopedEnv dump_dir("NPKIT_DUMP_DIR", dir);
    const PluginLibrary& lib = plugin.open();
    INFO(lib.error);
    REQUIRE(lib.error.empty());

    std::vector<std::unique_ptr<CommDriver>> comms;
    std::vector<void*> left_open;  // this generation's handles still open at its finalize
    for (int c = 0; c < kComms; ++c) {
      // The same communicator hashes in every generation, as a job re-creating its groups.
      comms.push_back(std::make_unique<CommDriver>(
          CommSetup{.comm_hash = 0x6e40000000000000ull + static_cast<uint64_t>(c),
                    .rank = c,
                    .nranks = kComms},
          &lib));
    }
    for (int round = 0; round < 50; ++round) {
      for (int c = 0; c < kComms; ++c) {
        CommDriver& comm = *comms[c];
        void* coll = comm.start(coll_descr(nullptr, c, round, "Broadcast", 256, 0, "ncclUint8", 1,
                                           2, "RING", "SIMPLE", nullptr));
        void* kernel = comm.start(kernel_ch_descr(coll, 0, 100 * round));
        comm.stop(kernel);
        comm.stop(coll);
        if (round == 49) left_open.push_back(comm.start(kernel_ch_descr(nullptr, 1, 1)));
        // Stale handles of the generations before: stopped and updated through this one.
        for (void* stale : earlier_handles) {
          CHECK(lib.v5->stopEvent(stale) == abi::kSuccess);
          abi::StateArgs stop_time = kernel_stop_args(42);
          CHECK(lib.v5->recordEventState(stale,
                                         static_cast<abi::EventState>(format::kStateKernelChStop),
                                         &stop_time) == abi::kSuccess);
        }
      }
    }
    // Each file holds exactly its own generation's calls.
    for (auto& comm : comms) finalize_and_check(*comm, dir);
    CHECK(entries_in(dir).size() == size_t{kComms});
    CHECK(plugin.close() == 0);
    earlier_handles.insert(earlier_handles.end(), left_open.begin(), left_open.end());
  }
}

}  // namespace
}  // namespace npkit::test
