// A job that hangs and is aborted. ncclCommAbort frees the communicator, and freeing it calls the
// profiler's finalize (NCCL's commFree), so the plugin writes its dump with the stuck collective
// still open; `npkit-analyze hang` must name that collective, the rank that never came and the
// rank that waits in it — from the plugin's own files, as a user would run it.
#include <string>

#include <simdjson.h>
#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "support/cli_runner.hpp"

namespace npkit::test {
namespace {

constexpr uint64_t kStuckSeq = 137;

// One AllReduce on two channels that runs to completion.
void completed_allreduce(CommDriver& comm, uint64_t seq) {
  void* coll = comm.start(coll_descr(nullptr, comm.setup().rank, seq, "AllReduce", 1024, 0,
                                     "ncclFloat32", 2, 8, "RING", "SIMPLE", nullptr));
  comm.stop(coll);
  for (uint8_t channel = 0; channel < 2; ++channel) {
    void* kernel = comm.start(kernel_ch_descr(coll, channel, 10'000 * seq + channel));
    const abi::StateArgs stop_time = kernel_stop_args(10'000 * seq + channel + 5'000);
    comm.state(kernel, format::kStateKernelChStop, &stop_time);
    comm.stop(kernel);
  }
}

}  // namespace

TEST_CASE("plugin: an aborted hang — hang names the stuck AllReduce, who never came, who waits",
          "[plugin]") {
  PluginEnv env;
  const uint64_t hash = 0x4a4e600000000137ull;
  CommDriver rank0({.comm_hash = hash, .rank = 0, .nranks = 2, .comm_name = "hang"});
  CommDriver rank1({.comm_hash = hash, .rank = 1, .nranks = 2, .comm_name = "hang"});
  for (uint64_t seq = 0; seq < kStuckSeq; ++seq) {
    completed_allreduce(rank0, seq);
    completed_allreduce(rank1, seq);
  }
  // Rank 0 enqueues seq 137 and its kernel starts on both channels, waiting for rank 1, which
  // never calls it. The watchdog aborts both.
  void* coll = rank0.start(coll_descr(nullptr, 0, kStuckSeq, "AllReduce", 1024, 0, "ncclFloat32", 2,
                                      8, "RING", "SIMPLE", nullptr));
  rank0.stop(coll);
  rank0.start(kernel_ch_descr(coll, 0, 10'000 * kStuckSeq));
  rank0.start(kernel_ch_descr(coll, 1, 10'000 * kStuckSeq + 1));
  rank0.finalize();
  rank1.finalize();

  const CliRun run = run_cli({"hang", env.dir.path(), "--format", "json"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = parser.parse(run.out);
  CHECK(doc["stalled"].get_bool().value());
  const simdjson::dom::element comm = doc["communicators"].at(0);
  CHECK(comm["func"].get_string().value() == "AllReduce");
  CHECK(comm["seq"].get_uint64().value() == kStuckSeq);
  CHECK(comm["ranks_missing"].at(0).get_int64().value() == 1);
  CHECK(comm["ranks_missing"].get_array().size() == 1);
  CHECK(comm["ranks_in_flight"].at(0).get_int64().value() == 0);
  CHECK(comm["ranks_in_flight"].get_array().size() == 1);
  CHECK(comm["ranks"].at(0)["state"].get_string().value() == "kernel running");
  CHECK(comm["ranks"].at(0)["detail"].get_string().value() ==
        "kernel running on channel(s) 0, 1 (0 of 2 finished)");
  CHECK(comm["ranks"].at(1)["last_completed"].get_string().value() == "AllReduce seq 136");
  CHECK(std::string(comm["verdict"].get_string().value())
            .rfind("rank 1 never called AllReduce seq 137; rank 0 has waited in it for ", 0) == 0);

  // Everything completed: nothing is stuck, exit 0.
  PluginEnv clean;
  CommDriver a({.comm_hash = hash + 1, .rank = 0, .nranks = 2, .comm_name = "clean"});
  CommDriver b({.comm_hash = hash + 1, .rank = 1, .nranks = 2, .comm_name = "clean"});
  completed_allreduce(a, 0);
  completed_allreduce(b, 0);
  a.finalize();
  b.finalize();
  const CliRun fine = run_cli({"hang", clean.dir.path()});
  INFO(fine.out << fine.err);
  CHECK(fine.exit_code == 0);
  CHECK(fine.out.find(
            "nothing is stuck: every rank completed its last operation (AllReduce seq 0)") !=
        std::string::npos);
}

}  // namespace npkit::test
