// `hang` on real hangs (samples/onegpu-h200/nccl-*/hangs, as in onegpu_hang_test.cpp) read from
// partial inputs: only some ranks' files, a link to nothing in place of one, and copies of the
// captures as NPKIT_EVENTS=coll would have left them (kernel and proxy records removed,
// real/coll_only_capture.hpp). The expected verdicts come from the driver's own logs (calls/:
// which rank made which call, the fault and its call); the loop makes only AllReduce calls, so
// call N is AllReduce seq N.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "real/coll_only_capture.hpp"
#include "real/onegpu_logs.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace npkit::test {
namespace {

struct Hang {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::element comm;
  std::string verdict;
  int exit_code = 0;

  explicit Hang(const std::string& path) {
    const CliRun run = run_cli({"hang", path, "--format", "json", "--quiet"});
    INFO(run.out << run.err);
    exit_code = run.exit_code;
    root = parser.parse(run.out);
    comm = root["communicators"].at(0);
    verdict = std::string(comm["verdict"].get_string().value());
  }
  std::vector<std::int64_t> ranks(const char* key) {
    std::vector<std::int64_t> out;
    for (auto r : comm[key].get_array()) out.push_back(r.get_int64().value());
    return out;
  }
  // The i-th rank row (rows hold the ranks with data, by rank).
  simdjson::dom::element row(std::size_t i) { return comm["ranks"].at(i); }
  std::string text(simdjson::dom::element e) { return std::string(e.get_string().value()); }
  // The examples of a warning category, joined ("" when it has none).
  std::string warnings(const std::string& category) {
    std::string out;
    for (auto w : root["warnings"].get_array()) {
      if (text(w["category"]) != category) continue;
      for (auto e : w["examples"].get_array()) out += text(e) + "\n";
    }
    return out;
  }
};

// The capture file of `rank` in a run's dump folder.
fs::path rank_file(const std::string& dir, int rank) {
  const std::string tag = "_rank" + std::to_string(rank) + ".";
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find(tag) != std::string::npos) return e.path();
  }
  FAIL("no file of rank " << rank << " in " << dir);
  return {};
}

// A folder holding the files of `ranks` only, copied from the run's dump folder.
void copy_ranks(const std::string& dump, const std::vector<int>& ranks, const TempDir& into) {
  for (int r : ranks) {
    const fs::path from = rank_file(dump, r);
    fs::copy_file(from, fs::path(into.path()) / from.filename());
  }
}

const char* const kVersions[] = {"2.28.9", "2.30.7"};

}  // namespace

TEST_CASE("onegpu hangs: a rank whose file is missing is named, never cleared", "[real][hang]") {
  for (const std::string version : kVersions) {
    DYNAMIC_SECTION("NCCL " << version) {
      // Rank 1 exited before call `stuck`; rank 0 made that call and waited in it.
      const std::string dir = onegpu_run_dir(version, "hangs/exit");
      const auto fault = event(events_of(dir, 1), "fault_exit");
      REQUIRE(fault.has_value());
      const std::int64_t stuck = call_of(*fault);
      REQUIRE(calls_of(dir, 1).back().call == stuck - 1);
      REQUIRE(calls_of(dir, 0).back().call == stuck);
      const std::string seq = "AllReduce seq " + std::to_string(stuck);
      {
        // Only the rank that exited. Its dump, written as the process exited, may lack the
        // stops of its last kernel (its proxy thread had not delivered them): alone, it may look
        // inside its last call. Either way rank 0 is not seen, so nothing may be cleared.
        TempDir only1;
        copy_ranks(dir + "/dump", {1}, only1);
        Hang h(only1.path());
        CHECK(h.exit_code == 3);
        CHECK(h.comm["cannot_tell"].get_bool().value());
        CHECK(h.ranks("ranks_without_data") == std::vector<std::int64_t>{0});
        CHECK_THAT(h.verdict, Catch::StartsWith("rank 0 has no data: where it stopped cannot be "
                                                "told; "));
        CHECK_THAT(h.verdict, !Catch::Contains("nothing is stuck"));
        CHECK_THAT(h.verdict, !Catch::Contains("every rank"));
        // Whatever it names is an operation rank 1 called: seq stuck - 1 at the latest.
        const std::string named =
            h.text(h.comm[h.comm["stalled"].get_bool().value() ? "label" : "last_completed"]);
        CHECK(named.rfind("AllReduce seq ", 0) == 0);
        CHECK(std::stoll(named.substr(std::string("AllReduce seq ").size())) <= stuck - 1);
        CHECK(h.text(h.row(0)["state"]) != "never called");
      }
      {
        // Only the rank that waited: it waits on rank 1, which it cannot see.
        TempDir only0;
        copy_ranks(dir + "/dump", {0}, only0);
        Hang h(only0.path());
        CHECK(h.exit_code == 3);
        CHECK(h.ranks("ranks_without_data") == std::vector<std::int64_t>{1});
        CHECK(h.text(h.comm["label"]) == seq);
        CHECK(h.row(0)["waits_on"].get_int64().value() == 1);
        CHECK_THAT(h.verdict, Catch::StartsWith("rank 1 has no data: where it stopped cannot be "
                                                "told; rank 0 waits on it; "));
        CHECK_THAT(h.verdict, !Catch::Contains("every rank"));
      }
    }
  }
}

TEST_CASE("onegpu hangs: only the file of a rank killed inside its call", "[real][hang]") {
  for (const std::string version : kVersions) {
    DYNAMIC_SECTION("NCCL " << version) {
      const std::string dir = onegpu_run_dir(version, "hangs/kill");
      const auto fault = event(events_of(dir, 1), "fault_kill");
      REQUIRE(fault.has_value());
      const std::int64_t stuck = call_of(*fault);
      REQUIRE(calls_of(dir, 1).back().call == stuck);  // it made the call, then died
      // Alone, rank 1's live file shows it inside an operation it called (its last kernels'
      // stops were never delivered); it must not be spoken of as "every rank".
      TempDir only1;
      copy_ranks(dir + "/dump", {1}, only1);
      Hang h(only1.path());
      CHECK(h.exit_code == 3);
      CHECK(h.ranks("ranks_without_data") == std::vector<std::int64_t>{0});
      REQUIRE(h.comm["stalled"].get_bool().value());
      CHECK(h.comm["seq"].get_int64().value() <= stuck);
      CHECK_THAT(h.verdict, Catch::Contains("; rank 1, the only rank with data, entered " +
                                            h.text(h.comm["label"]) + " and did not complete it"));
      CHECK_THAT(h.verdict, !Catch::Contains("every rank"));
    }
  }
}

TEST_CASE("onegpu hangs: a link to nothing or a link loop in place of a rank's file",
          "[real][hang]") {
  const std::string dir = onegpu_run_dir("2.28.9", "hangs/exit");
  const std::string name = rank_file(dir + "/dump", 1).filename().string();
  for (const bool loop : {false, true}) {
    DYNAMIC_SECTION((loop ? "a link loop" : "a dangling link")) {
      TempDir tmp;
      copy_ranks(dir + "/dump", {0}, tmp);
      const fs::path link = fs::path(tmp.path()) / name;
      fs::create_symlink(loop ? link : fs::path(tmp.path()) / "gone" / name, link);
      Hang h(tmp.path());
      CHECK(h.exit_code == 3);
      CHECK(h.ranks("ranks_without_data") == std::vector<std::int64_t>{1});
      CHECK_THAT(h.verdict, !Catch::Contains("nothing is stuck"));
      const std::string warned = h.warnings("unreadable rank file");
      CHECK_THAT(warned, Catch::Contains(name));
      CHECK_THAT(warned, Catch::Contains(loop ? "a link loop" : "a link to nothing (dangling)"));
      // The report says how many of the ranks it read.
      const CliRun report = run_cli({"report", tmp.path(), "--quiet"});
      CHECK_THAT(report.out, Catch::Contains("1 of 2 ranks"));
    }
  }
}

TEST_CASE("onegpu hangs without kernel events (NPKIT_EVENTS=coll)", "[real][hang]") {
  for (const std::string version : kVersions) {
    for (const std::string run : {"exit", "watchdog", "still-hung", "kill", "mismatch"}) {
      DYNAMIC_SECTION("NCCL " << version << ": " << run) {
        const std::string dir = onegpu_run_dir(version, "hangs/" + run);
        const std::string dump = dir + (run == "still-hung" ? "/live-while-hung" : "/dump");
        TempDir coll;
        for (int r : {0, 1}) {
          const fs::path from = rank_file(dump, r);
          std::string name = from.filename().string();
          if (name.size() > 3 && name.substr(name.size() - 3) == ".gz") {
            name.resize(name.size() - 3);
          }
          write_capture_with(from.string(), coll.file(name), kCollTypes, kCollMask, "coll");
        }
        Hang h(coll.path());
        CHECK_FALSE(h.comm["completion_known"].get_bool().value());
        // What each rank last called, from its calls log.
        const std::int64_t last0 = calls_of(dir, 0).back().call;
        const std::int64_t last1 = calls_of(dir, 1).back().call;
        if (run == "kill") {
          // Both ranks enqueued the same last call: nobody is behind, completion unknown.
          REQUIRE(last0 == last1);
          CHECK(h.exit_code == 3);
          CHECK(h.comm["completion_unknown"].get_bool().value());
          CHECK(h.text(h.comm["last_completed"]) == "AllReduce seq " + std::to_string(last0));
          CHECK_THAT(h.verdict, Catch::StartsWith("no rank is behind the others: every rank "
                                                  "enqueued AllReduce seq " +
                                                  std::to_string(last0) + " last"));
          CHECK_THAT(h.verdict, Catch::Contains("completion unknown without kernel events"));
          continue;
        }
        // Rank 1 stopped calling (or called AllGather once, so that its AllReduce seqs lag by
        // one): the first AllReduce it never called is one past its last AllReduce.
        std::int64_t allreduces1 = 0;
        for (const auto& c : calls_of(dir, 1)) allreduces1 += c.coll == "allreduce" ? 1 : 0;
        CHECK(h.exit_code == 1);
        CHECK(h.text(h.comm["label"]) == "AllReduce seq " + std::to_string(allreduces1));
        CHECK(h.ranks("ranks_missing") == std::vector<std::int64_t>{1});
        CHECK(h.ranks("ranks_in_flight") == std::vector<std::int64_t>{0});
        CHECK(h.text(h.row(0)["state"]) == "completion unknown");
        CHECK(h.text(h.row(0)["detail"]) == "enqueued; completion unknown without kernel events");
        CHECK_THAT(h.verdict,
                   Catch::StartsWith("rank 1 never called AllReduce seq " +
                                     std::to_string(allreduces1) + "; rank 0 enqueued it "));
        if (run == "mismatch") {
          const std::int64_t at = call_of(*event(events_of(dir, 1), "fault_mismatch"));
          CHECK_THAT(h.verdict, Catch::EndsWith("AllGather seq 0 on rank 1 and AllReduce seq " +
                                                std::to_string(at) + " on rank 0 (a mismatch)"));
        }
      }
    }
  }
}

TEST_CASE("onegpu hangs: a capture without Coll events says what it lacks", "[real][hang]") {
  // NPKIT_EVENTS=api: API events only (GroupApi, CollApi, P2pApi, KernelLaunch).
  const std::string dir = onegpu_run_dir("2.28.9", "hangs/exit");
  TempDir api;
  const std::uint64_t api_types = (1u << 8) | (1u << 9) | (1u << 10) | (1u << 11);
  for (int r : {0, 1}) {
    const fs::path from = rank_file(dir + "/dump", r);
    write_capture_with(from.string(), api.file("npkit_rank" + std::to_string(r) + ".npkt"),
                       api_types, api_types, "api");
  }
  const CliRun run = run_cli({"hang", api.path(), "--quiet"});
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Catch::Contains("NPKIT_EVENTS=api, which lacks coll"));
  CHECK_THAT(run.err, !Catch::Contains("this input has none"));
}

}  // namespace npkit::test
