// Replays real NCCL 2.28.9 call recordings (2 ranks of a PyTorch job on two H200s over NVLink,
// mask 4095, tests/data/nccl-profiler-calls/README.md) into the plugin and checks the dumps
// against what the recordings say, computed from the recordings alone.
#include <algorithm>
#include <map>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_summary.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/plugin/recorded_calls.hpp"
#include "capture/plugin/recording_replayer.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

// Compares the summary of a dump with the one computed from the recording; `os_tid` maps the
// recording's thread ids onto the replay threads.
void check_summary(const CommSummary& dump, const CommSummary& recorded,
                   const std::map<int64_t, int32_t>& os_tid) {
  CHECK(dump.comm_hash == recorded.comm_hash);
  CHECK(dump.rank == recorded.rank);
  CHECK(dump.nranks == recorded.nranks);
  CHECK(dump.nnodes == recorded.nnodes);
  CHECK(dump.end_reason == recorded.end_reason);
  CHECK(dump.records_by_type_and_kind == recorded.records_by_type_and_kind);
  CHECK(dump.states_by_type_and_number == recorded.states_by_type_and_number);
  CHECK(dump.colls == recorded.colls);
  CHECK(dump.kernel_start_ns_by_channel == recorded.kernel_start_ns_by_channel);
  CHECK(dump.kernel_stop_ns_by_channel == recorded.kernel_stop_ns_by_channel);
  std::set<int64_t> replay_threads;
  for (int64_t tid : recorded.threads) replay_threads.insert(os_tid.at(tid));
  CHECK(dump.threads == replay_threads);
  CHECK(dump.threads.size() == recorded.threads.size());
}

TEST_CASE("plugin replay: NCCL 2.28.9 recordings of both ranks (H200 x2, NVLink)",
          "[plugin][threads]") {
  const std::string data = require_path(data_path("nccl-profiler-calls/h200x2-nvlink"));
  const PluginLibrary& lib = require_plugin();
  PluginEnv env;  // NPKIT_EVENTS unset: everything, as the recordings (mask 4095)

  std::map<uint64_t, std::map<int, std::vector<CollRow>>> colls_of_comm_and_rank;
  std::vector<std::string> expected_files;
  for (const char* file : {"rec_606.jsonl.gz", "rec_607.jsonl.gz"}) {
    INFO(file);
    const Recording recording = read_recording(data + "/" + file);
    const std::map<uint64_t, CommSummary> expected = summarize_recording(recording);
    REQUIRE(expected.size() == 2);

    const ReplayOutcome outcome = replay_recording(recording, lib);
    INFO(outcome.errors.size() << " replay error(s), first: "
                               << (outcome.errors.empty() ? "" : outcome.errors.front()));
    CHECK(outcome.errors.empty());
    for (const RecordedCall& call : recording.calls) {
      if (call.kind == RecordedCall::Kind::kInit) {
        CHECK(outcome.mask_after_init.at(call.ctx) == call.mask);
      }
    }
    // The communicator the job never destroyed is written now, as at process exit.
    CHECK(lib.flush() >= 1);

    for (const auto& [comm_hash, recorded] : expected) {
      INFO("communicator " << dump_file_name(comm_hash, recorded.rank));
      expected_files.push_back(dump_file_name(comm_hash, recorded.rank));
      const NpktDump dump = read_dump(env.file(expected_files.back()));
      CHECK(dump.comm.profiler_api == 5);
      CHECK(dump.comm.event_mask == abi::kAllV5Events);
      CHECK(dump.comm.records_dropped == 0);
      CHECK(dump.comm.records_incomplete == 0);
      CHECK(dump.comm.events_after_dump == 0);
      const CommSummary written = summarize_dump(dump);
      check_summary(written, recorded, outcome.os_tid_of_recorded_tid);
      colls_of_comm_and_rank[comm_hash][recorded.rank] = written.colls;
    }
  }
  std::sort(expected_files.begin(), expected_files.end());
  CHECK(entries_in(env.dir.path()) == expected_files);

  // The ranks' collectives join one to one by (communicator, func, seq).
  REQUIRE(colls_of_comm_and_rank.size() == 2);
  for (const auto& [comm_hash, ranks] : colls_of_comm_and_rank) {
    INFO("communicator " << comm_hash);
    REQUIRE(ranks.size() == 2);
    std::map<std::pair<std::string, uint64_t>, const CollRow*> rank0;
    for (const CollRow& row : ranks.at(0)) {
      CHECK(rank0.emplace(std::make_pair(row.func, row.seq), &row).second);
    }
    size_t joined = 0;
    for (const CollRow& row : ranks.at(1)) {
      auto peer = rank0.find({row.func, row.seq});
      if (peer == rank0.end()) continue;
      ++joined;
      CHECK(peer->second->count == row.count);
    }
    CHECK(joined == rank0.size());
    CHECK(joined == ranks.at(1).size());
    CHECK(joined > 0);
  }
}

}  // namespace
}  // namespace npkit::test
