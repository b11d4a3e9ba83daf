// NPKIT_SAMPLE against the real NCCL 2.28.9 recordings (tests/data/nccl-profiler-calls), replayed
// with the mask honoured as NCCL honours it (recording_replayer.hpp): the collectives that get
// kernel events are the ones docs/capture.md's rule names, computed here from the recordings
// alone (each communicator's CollApi starts counted in call order), and the chosen ones are the
// same on both ranks, also when one rank makes fewer calls and groups; `bandwidth` and `diff` on
// the sampled dumps count the instances left out as sampling's, not as untimed ones.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include <simdjson.h>
#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_env.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/plugin/recorded_calls.hpp"
#include "capture/plugin/recording_replayer.hpp"
#include "import/npkt/communicator_join.hpp"
#include "import/npkt/npkt_run.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "support/cli_runner.hpp"
#include "support/test_data.hpp"
#include "util/diagnostics.hpp"

namespace npkit::test {
namespace {

using CollKey = std::pair<std::string, uint64_t>;               // (func, seq)
using TimedColls = std::map<uint64_t, std::multiset<CollKey>>;  // comm hash -> timed collectives

// From the recording, by the rule docs/capture.md states for "1/every" (every 0: all): a
// collective call is timed when some initialised, not finalized communicator of the process is
// pending, i.e. its next collective (0-based index n) is chosen, (n + 1) % every == 0; this covers
// the call's own communicator when the call itself is chosen. Returns, per communicator, the
// collectives that are timed and that NCCL gave kernel events; `chosen_only` keeps only the chosen
// ones.
TimedColls expected_timed(const Recording& recording, uint64_t every, bool chosen_only = false) {
  std::map<uint64_t, uint64_t> comm_of_ctx;
  std::map<uint64_t, uint64_t> next_index;  // by ctx, for every initialised communicator
  std::map<uint64_t, bool> timed_api;       // CollApi handle -> timed
  std::map<uint64_t, CollKey> coll_of;      // Coll handle -> key, for timed ones
  std::map<uint64_t, uint64_t> comm_of_coll;
  std::set<uint64_t> with_kernel;
  const auto chosen = [every](uint64_t index) { return every == 0 || (index + 1) % every == 0; };
  for (const RecordedCall& call : recording.calls) {
    if (call.kind == RecordedCall::Kind::kInit) {
      comm_of_ctx[call.ctx] = call.comm_id;
      next_index[call.ctx] = 0;
    }
    if (call.kind == RecordedCall::Kind::kFinalize) next_index.erase(call.ctx);
    if (call.kind != RecordedCall::Kind::kStart) continue;
    if (call.descr.type == abi::kCollApi) {
      bool timed = chosen(next_index.at(call.ctx));
      if (!chosen_only) {
        for (const auto& [ctx, index] : next_index) timed = timed || chosen(index);
      }
      timed_api[call.handle] = timed;
      ++next_index.at(call.ctx);
    } else if (call.descr.type == abi::kColl && timed_api[call.parent]) {
      coll_of[call.handle] = {call.descr.coll.func, call.descr.coll.seqNumber};
      comm_of_coll[call.handle] = comm_of_ctx.at(call.ctx);
    } else if (call.descr.type == abi::kKernelCh) {
      with_kernel.insert(call.parent);
    }
  }
  TimedColls out;
  for (const auto& [ctx, comm] : comm_of_ctx) out[comm];
  for (const auto& [handle, key] : coll_of) {
    if (with_kernel.count(handle) != 0) out[comm_of_coll.at(handle)].insert(key);
  }
  return out;
}

// From a dump: the collectives with at least one KernelCh start.
std::multiset<CollKey> timed_in_dump(const NpktDump& dump) {
  std::map<uint64_t, CollKey> colls;
  std::set<uint64_t> with_kernel;
  for (const format::ProfilerRecord& rec : dump.records) {
    if (rec.kind != format::kRecordStart) continue;
    if (rec.type == format::kTypeColl) {
      format::CollPayload coll;
      std::memcpy(&coll, rec.payload, sizeof(coll));
      colls[rec.event_id] = {dump.string_at(coll.func), coll.seq};
    } else if (rec.type == format::kTypeKernelCh) {
      with_kernel.insert(rec.parent_id);
    }
  }
  std::multiset<CollKey> out;
  for (const auto& [id, key] : colls) {
    if (with_kernel.count(id) != 0) out.insert(key);
  }
  return out;
}

// The recording without the calls of its communicator `comm_id` (and of their handles), numbered
// again: the same process with fewer calls and groups.
Recording without_communicator(const Recording& recording, uint64_t comm_id) {
  std::set<uint64_t> contexts;
  std::set<uint64_t> handles;
  Recording out{recording.path + " without " + std::to_string(comm_id), recording.pid, {}};
  for (const RecordedCall& call : recording.calls) {
    if (call.kind == RecordedCall::Kind::kInit && call.comm_id == comm_id)
      contexts.insert(call.ctx);
    const bool by_context = call.kind == RecordedCall::Kind::kInit ||
                            call.kind == RecordedCall::Kind::kStart ||
                            call.kind == RecordedCall::Kind::kFinalize;
    if (by_context && contexts.count(call.ctx) != 0) {
      if (call.kind == RecordedCall::Kind::kStart) handles.insert(call.handle);
      continue;
    }
    if (!by_context && handles.count(call.handle) != 0) continue;
    out.calls.push_back(call);
    out.calls.back().seq = out.calls.size() - 1;
  }
  return out;
}

// Replays `recording` under the current environment and returns the timed collectives per
// communicator found in the dumps.
TimedColls replay_timed(const Recording& recording, const PluginEnv& env,
                        uint64_t* starts_skipped) {
  const PluginLibrary& lib = require_plugin();
  const ReplayOutcome outcome = replay_recording(recording, lib, true);
  INFO(outcome.errors.size() << " replay error(s), first: "
                             << (outcome.errors.empty() ? "" : outcome.errors.front()));
  CHECK(outcome.errors.empty());
  lib.flush();
  *starts_skipped = outcome.starts_skipped;
  TimedColls out;
  std::map<uint64_t, int> rank_of_comm;
  for (const RecordedCall& call : recording.calls) {
    if (call.kind == RecordedCall::Kind::kInit) rank_of_comm[call.comm_id] = call.rank;
  }
  for (const auto& [comm, rank] : rank_of_comm) {
    const NpktDump dump = read_dump(env.file(dump_file_name(comm, rank)));
    out[comm] = timed_in_dump(dump);
  }
  return out;
}

const char* const kFiles[] = {"rec_606.jsonl.gz", "rec_607.jsonl.gz"};

// The run model of the dumps in `env`'s directory, their captures kept beside it.
struct DumpRun {
  std::vector<std::unique_ptr<RankCapture>> captures;
  Run run;
};

DumpRun run_of_dumps(const PluginEnv& env) {
  DumpRun out;
  for (const std::string& name : entries_in(env.dir.path())) {
    out.captures.push_back(build_rank_capture(read_dump(env.file(name))));
  }
  std::vector<const RankCapture*> pointers;
  for (const auto& c : out.captures) pointers.push_back(c.get());
  Diagnostics diagnostics;
  out.run = npkt_run("", join_communicators(pointers, diagnostics), diagnostics);
  return out;
}

TEST_CASE("sampling replay: 1/3 times exactly every third collective of each communicator",
          "[plugin][sample]") {
  const std::string data = require_path(data_path("nccl-profiler-calls/h200x2-nvlink"));
  TimedColls chosen_by_rank[2];
  PluginEnv env;
  ScopedEnv sample("NPKIT_SAMPLE", "1/3");
  for (int rank = 0; rank < 2; ++rank) {
    INFO(kFiles[rank]);
    const Recording recording = read_recording(data + "/" + kFiles[rank]);
    const TimedColls expected = expected_timed(recording, 3);
    uint64_t skipped = 0;
    const TimedColls timed = replay_timed(recording, env, &skipped);
    CHECK(skipped > 0);
    CHECK(timed == expected);
    // Every chosen collective is timed; the communicator with many collectives has several.
    const TimedColls chosen = expected_timed(recording, 3, true);
    size_t most = 0;
    for (const auto& [comm, colls] : chosen) {
      INFO("communicator " << comm);
      CHECK(
          std::includes(timed.at(comm).begin(), timed.at(comm).end(), colls.begin(), colls.end()));
      most = std::max(most, colls.size());
    }
    CHECK(most >= 4);
    chosen_by_rank[rank] = chosen;
  }
  // Both ranks choose the same (func, seq) of every communicator.
  CHECK(chosen_by_rank[0] == chosen_by_rank[1]);

  // The run model read from the dumps: the setting, and every member of an operation outside the
  // sample is untimed as not sampled, its completion unknown (not "enqueued").
  const DumpRun dumps = run_of_dumps(env);
  const Run& run = dumps.run;
  REQUIRE(run.comms.size() == 2);
  size_t sampled = 0;
  size_t not_sampled = 0;
  for (const RunCommunicator& comm : run.comms) {
    INFO("communicator " << comm.hash);
    CHECK(comm.sample == "1/3");
    const std::multiset<CollKey>& chosen = chosen_by_rank[0].at(comm.hash);
    for (const RunInstance& inst : comm.instances) {
      if (inst.func == "Send" || inst.func == "Recv" || inst.func == "SendRecv" ||
          inst.func == "AlltoAll") {
        continue;  // point-to-point calls are sampled only while a collective is pending
      }
      INFO(inst.label);
      const bool in_sample = chosen.count({inst.func, inst.seq}) != 0;
      for (const RunMember& member : inst.members) {
        CHECK(member.not_sampled == !in_sample);
        if (member.not_sampled) CHECK(member.progress == Progress::kCompletionUnknown);
        (in_sample ? sampled : not_sampled) += 1;
      }
    }
  }
  CHECK(sampled > 0);
  CHECK(not_sampled > sampled);
}

TEST_CASE("sampling replay: a rank with fewer calls and groups times the same collectives",
          "[plugin][sample]") {
  const std::string data = require_path(data_path("nccl-profiler-calls/h200x2-nvlink"));
  const Recording rank0 = read_recording(data + "/" + kFiles[0]);
  const Recording full1 = read_recording(data + "/" + kFiles[1]);
  // Rank 1 without its second communicator (the one with fewer collective calls): the first
  // communicator's calls are the same, the process's sequence of calls and groups is not.
  std::map<uint64_t, uint64_t> comm_of_ctx;
  std::map<uint64_t, size_t> collectives_of_comm;
  for (const RecordedCall& call : full1.calls) {
    if (call.kind == RecordedCall::Kind::kInit) comm_of_ctx[call.ctx] = call.comm_id;
    if (call.kind == RecordedCall::Kind::kStart && call.descr.type == abi::kCollApi) {
      ++collectives_of_comm[comm_of_ctx.at(call.ctx)];
    }
  }
  REQUIRE(collectives_of_comm.size() == 2);
  const auto fewer =
      std::min_element(collectives_of_comm.begin(), collectives_of_comm.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  const uint64_t other = fewer->first;
  const uint64_t kept = other == collectives_of_comm.begin()->first
                            ? std::next(collectives_of_comm.begin())->first
                            : collectives_of_comm.begin()->first;
  const Recording rank1 = without_communicator(full1, other);
  REQUIRE(rank1.calls.size() < full1.calls.size());

  TimedColls timed[2];
  for (int rank = 0; rank < 2; ++rank) {
    PluginEnv env;
    ScopedEnv sample("NPKIT_SAMPLE", "1/4");
    uint64_t skipped = 0;
    timed[rank] = replay_timed(rank == 0 ? rank0 : rank1, env, &skipped);
  }
  CHECK(timed[0] == expected_timed(rank0, 4));
  CHECK(timed[1] == expected_timed(rank1, 4));

  CHECK(timed[1].count(other) == 0);
  // The kept communicator's chosen collectives, the same on both ranks, are timed on both.
  const TimedColls chosen0 = expected_timed(rank0, 4, true);
  const TimedColls chosen1 = expected_timed(rank1, 4, true);
  CHECK(chosen0.at(kept) == chosen1.at(kept));
  CHECK(!chosen0.at(kept).empty());
  for (const TimedColls& t : timed) {
    CHECK(std::includes(t.at(kept).begin(), t.at(kept).end(), chosen0.at(kept).begin(),
                        chosen0.at(kept).end()));
  }
}

TEST_CASE("sampling replay: windows of the whole period time everything, tiny ones nothing",
          "[plugin][sample]") {
  const std::string data = require_path(data_path("nccl-profiler-calls/h200x2-nvlink"));
  const Recording recording = read_recording(data + "/" + kFiles[0]);
  const TimedColls all = expected_timed(recording, 0);
  {
    PluginEnv env;
    ScopedEnv sample("NPKIT_SAMPLE", "1m/1m");
    uint64_t skipped = 0;
    CHECK(replay_timed(recording, env, &skipped) == all);
    CHECK(skipped == 0);
  }
  {
    // Open 1 ns of every minute: a call lands in one with probability ~1e-11.
    PluginEnv env;
    ScopedEnv sample("NPKIT_SAMPLE", "1ns/1m");
    uint64_t skipped = 0;
    const TimedColls timed = replay_timed(recording, env, &skipped);
    for (const auto& [comm, colls] : timed) CHECK(colls.empty());
    CHECK(skipped > 0);
  }
}

TEST_CASE("sampling replay: an unreadable setting warns and times every collective",
          "[plugin][sample]") {
  const std::string data = require_path(data_path("nccl-profiler-calls/h200x2-nvlink"));
  const Recording recording = read_recording(data + "/" + kFiles[0]);
  PluginEnv env;
  ScopedEnv sample("NPKIT_SAMPLE", "every tenth");
  LogCapture log;
  uint64_t skipped = 0;
  CHECK(replay_timed(recording, env, &skipped) == expected_timed(recording, 0));
  CHECK(skipped == 0);
  // One warning at each of the recording's two communicator inits, saying what happens instead.
  INFO(log.dump());
  CHECK(log.count(abi::kLogWarn, "NPKIT_SAMPLE") == 2);
  CHECK(log.count(abi::kLogWarn, "'every tenth'") == 2);
  CHECK(log.count(abi::kLogWarn, "sampling off") == 2);
}

}  // namespace
TEST_CASE("sampling replay: bandwidth and diff count the sampled instances, k of n",
          "[plugin][sample]") {
  const std::string data = require_path(data_path("nccl-profiler-calls/h200x2-nvlink"));
  PluginEnv env;
  ScopedEnv sample("NPKIT_SAMPLE", "1/3");
  for (int rank = 0; rank < 2; ++rank) {
    uint64_t skipped = 0;
    replay_timed(read_recording(data + "/" + kFiles[rank]), env, &skipped);
  }
  // The run model's instances (whose not_sampled members the cases above check against the
  // recordings): per collective, how many instances and how many left out on every rank.
  const DumpRun dumps = run_of_dumps(env);
  const Run& run = dumps.run;
  const std::set<std::string> collectives = {"AllReduce", "AllGather", "ReduceScatter", "Broadcast",
                                             "Reduce"};
  std::map<std::string, std::pair<uint64_t, uint64_t>> expected;  // func -> (instances, left out)
  for (const RunCommunicator& comm : run.comms) {
    for (const RunInstance& inst : comm.instances) {
      if (collectives.count(inst.func) == 0 || inst.members.empty()) continue;
      const bool left_out = std::all_of(inst.members.begin(), inst.members.end(),
                                        [](const RunMember& m) { return m.not_sampled; });
      expected[inst.func].first += 1;
      expected[inst.func].second += left_out ? 1 : 0;
    }
  }
  REQUIRE_FALSE(expected.empty());

  const CliRun bandwidth = run_cli({"bandwidth", env.dir.path(), "--format", "json"});
  INFO(bandwidth.err);
  REQUIRE(bandwidth.exit_code == 0);
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = parser.parse(bandwidth.out);
  std::map<std::string, std::pair<uint64_t, uint64_t>> shown;
  uint64_t rows_sampled = 0;
  for (simdjson::dom::element row : doc["collectives"].get_array()) {
    const std::string func(row["collective"].get_string().value());
    if (collectives.count(func) == 0) continue;
    const uint64_t instances = row["instances"].get_uint64().value();
    const uint64_t left_out = row["not_sampled_instances"].get_uint64().value();
    shown[func].first += instances;
    shown[func].second += left_out;
    std::vector<std::string> flags;
    for (simdjson::dom::element f : row["flags"].get_array()) {
      flags.emplace_back(f.get_string().value());
    }
    INFO(func << " " << row["size_bytes"].get_uint64().value());
    if (left_out == 0) continue;
    ++rows_sampled;
    REQUIRE_FALSE(flags.empty());
    CHECK(flags.front() == (left_out == instances
                                ? std::string("none sampled")
                                : "sampled " + std::to_string(instances - left_out) + " of " +
                                      std::to_string(instances)));
    // "untimed" only for sampled instances that lost their time (these recordings' KernelCh
    // replay stale timestamps), never for the ones sampling left out.
    if (std::find(flags.begin(), flags.end(), "untimed") != flags.end()) {
      CHECK(row["timed_instances"].get_uint64().value() == 0);
      CHECK(left_out < instances);
    }
  }
  CHECK(shown == expected);
  CHECK(rows_sampled > 0);

  // The capture against itself: each side's quality counts what sampling left out, and a side
  // whose sampled instances are all timed is never "below the quality floor".
  const CliRun diff = run_cli({"diff", env.dir.path(), env.dir.path(), "--format", "json"});
  INFO(diff.err);
  const simdjson::dom::element d = parser.parse(diff.out);
  std::map<std::string, uint64_t> diff_left_out;
  for (simdjson::dom::element row : d["collectives"].get_array()) {
    const std::string func(row["collective"].get_string().value());
    const simdjson::dom::element q = row["candidate_quality"];
    const uint64_t left_out = q["not_sampled"].get_uint64().value();
    const uint64_t timed = q["timed"].get_uint64().value();
    const uint64_t instances = q["instances"].get_uint64().value();
    diff_left_out[func] += left_out;
    INFO(func << " " << row["size_bytes"].get_uint64().value());
    if (timed > 0 && timed == instances - left_out) {
      CHECK_FALSE(q["below_floor"].get_bool().value());
    }
  }
  for (const auto& [func, counts] : expected) {
    INFO(func);
    CHECK(diff_left_out[func] == counts.second);
  }
}

}  // namespace npkit::test
