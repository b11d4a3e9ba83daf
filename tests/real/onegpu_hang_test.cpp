// `hang` on real hangs of NCCL 2.28.9 and 2.30.7 (samples/onegpu-h200/nccl-*/hangs: ranks on one
// H200 over NET/Socket, the loop workload with a fault injected into rank 1), against what the
// driver itself logged: which rank did what at which call (calls/events_rank<R>.txt: the fault
// and its call; calls/calls_rank<R>.csv: every call made; the watchdog's fire and abort). The
// loop makes only AllReduce calls, so call N is AllReduce seq N. Every runs that ended normally
// must have nothing stuck.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "real/onegpu_logs.hpp"
#include "support/cli_runner.hpp"

namespace npkit::test {
namespace {

struct Hang {
  simdjson::dom::parser parser;
  simdjson::dom::element comm;
  std::string verdict;
  int exit_code = 0;

  explicit Hang(const std::string& path) {
    const CliRun run = run_cli({"hang", path, "--format", "json", "--quiet"});
    INFO(run.out << run.err);
    exit_code = run.exit_code;
    comm = parser.parse(run.out)["communicators"].at(0);
    verdict = std::string(comm["verdict"].get_string().value());
  }
  std::vector<std::int64_t> ranks(const char* key) {
    std::vector<std::int64_t> out;
    for (auto r : comm[key].get_array()) out.push_back(r.get_int64().value());
    return out;
  }
  simdjson::dom::element rank(int r) { return comm["ranks"].at(static_cast<std::size_t>(r)); }
};

std::string ordinal(std::int64_t n) {
  const std::int64_t tens = n % 100;
  if (tens >= 11 && tens <= 13) return std::to_string(n) + "th";
  switch (n % 10) {
    case 1:
      return std::to_string(n) + "st";
    case 2:
      return std::to_string(n) + "nd";
    case 3:
      return std::to_string(n) + "rd";
    default:
      return std::to_string(n) + "th";
  }
}

}  // namespace

TEST_CASE("onegpu hangs: a rank that never calls, skipped or exited", "[real][hang]") {
  for (const std::string version : {"2.28.9", "2.30.7"}) {
    for (const std::string run : {"exit", "watchdog", "still-hung"}) {
      DYNAMIC_SECTION("NCCL " << version << ": " << run) {
        const std::string dir = onegpu_run_dir(version, "hangs/" + run);
        const auto events = events_of(dir, 1);
        const auto fault = event(events, run == "exit" ? "fault_exit" : "fault_skip");
        REQUIRE(fault.has_value());
        const std::int64_t stuck = call_of(*fault);
        CHECK(calls_of(dir, 1).back().call == stuck - 1);  // rank 1 never made that call
        CHECK(calls_of(dir, 0).back().call == stuck);      // rank 0 did
        Hang h(dir + (run == "still-hung" ? "/live-while-hung" : "/dump"));
        CHECK(h.exit_code == 1);
        CHECK(h.comm["label"].get_string().value() == "AllReduce seq " + std::to_string(stuck));
        CHECK(h.ranks("ranks_missing") == std::vector<std::int64_t>{1});
        CHECK(h.ranks("ranks_in_flight") == std::vector<std::int64_t>{0});
        CHECK(h.rank(0)["waits_on"].get_int64().value() == 1);
        CHECK_THAT(h.verdict, Catch::StartsWith("rank 1 never called AllReduce seq " +
                                                std::to_string(stuck) + "; rank 0 has waited"));
        // Live files (the job was killed, or still ran when copied) end at their last record.
        const bool rank0_live = run != "watchdog";
        CHECK(h.rank(0)["before_end_at_least"].get_bool().value() == rank0_live);
        if (run == "watchdog") {
          // Rank 0's watchdog aborted the communicator; NCCL's abort finalized it, and the
          // plugin wrote the dump: its capture ended between the watchdog's fire and the abort's
          // return, and rank 0 waited from its call to then.
          const auto own = events_of(dir, 0);
          const auto fired = event(own, "watchdog_fired");
          const auto returned = event(own, "comm_abort_returned");
          REQUIRE(fired.has_value());
          REQUIRE(returned.has_value());
          const CallRow call = calls_of(dir, 0).back();
          const std::int64_t waited = h.rank(0)["before_end_ns"].get_int64().value();
          CHECK(waited >= fired->ns - call.host_return_ns);
          CHECK(waited <= returned->ns - call.host_call_ns);
          CHECK_THAT(h.verdict, Catch::Contains(" before its capture ended"));
        } else {
          CHECK_THAT(h.verdict, Catch::Contains(" for at least "));
        }
      }
    }
  }
}

TEST_CASE("onegpu hangs: a rank killed right after its call returned", "[real][hang]") {
  for (const std::string version : {"2.28.9", "2.30.7"}) {
    DYNAMIC_SECTION("NCCL " << version) {
      const std::string dir = onegpu_run_dir(version, "hangs/kill");
      const auto fault = event(events_of(dir, 1), "fault_kill");
      REQUIRE(fault.has_value());
      const std::int64_t stuck = call_of(*fault);
      CHECK(calls_of(dir, 1).back().call == stuck);  // it made the call, then died
      Hang h(dir + "/dump");
      CHECK(h.exit_code == 1);
      CHECK(h.comm["label"].get_string().value() == "AllReduce seq " + std::to_string(stuck));
      CHECK(h.ranks("ranks_missing").empty());
      CHECK(h.ranks("ranks_in_flight") == std::vector<std::int64_t>{0, 1});
      // Rank 0 waits for data from rank 1, whose kernel never started: rank 1 comes first.
      CHECK(h.rank(0)["waits_on"].get_int64().value() == 1);
      CHECK(h.rank(1)["state"].get_string().value() == "enqueued");
      CHECK_THAT(h.verdict,
                 Catch::Contains("rank 1's kernel never started); look first at rank 1"));
    }
  }
}

TEST_CASE("onegpu hangs: a mismatch is named where the ranks' calls differ", "[real][hang]") {
  for (const std::string version : {"2.28.9", "2.30.7"}) {
    DYNAMIC_SECTION("NCCL " << version) {
      const std::string dir = onegpu_run_dir(version, "hangs/mismatch");
      const auto fault = event(events_of(dir, 1), "fault_mismatch");
      REQUIRE(fault.has_value());
      const std::int64_t at = call_of(*fault);
      // The calls logs: rank 1 called AllGather at that call, rank 0 AllReduce.
      CHECK(calls_of(dir, 1)[static_cast<std::size_t>(at)].coll == "allgather");
      CHECK(calls_of(dir, 0)[static_cast<std::size_t>(at)].coll == "allreduce");
      Hang h(dir + "/dump");
      CHECK(h.comm["divergence"].get_string().value() ==
            "the ranks' collectives differ from the " + ordinal(at + 1) +
                ": AllGather seq 0 on rank 1 and AllReduce seq " + std::to_string(at) +
                " on rank 0 (a mismatch)");
      CHECK_THAT(h.verdict, Catch::EndsWith("(a mismatch)"));
    }
  }
}

TEST_CASE("onegpu hangs: PyTorch's watchdog ending a job whose rank skipped a call",
          "[real][hang]") {
  const std::string dir = onegpu_run_dir("2.28.9", "hangs/torch-watchdog");
  const auto skip = event(events_of(dir, 1), "hang_skip");
  REQUIRE(skip.has_value());
  const std::int64_t stuck = call_of(*skip);
  Hang h(dir + "/dump");
  CHECK(h.exit_code == 1);
  CHECK(h.comm["label"].get_string().value() == "AllReduce seq " + std::to_string(stuck));
  CHECK(h.ranks("ranks_missing") == std::vector<std::int64_t>{1});
  CHECK(h.ranks("ranks_in_flight") == std::vector<std::int64_t>{0});
}

TEST_CASE("onegpu runs that ended normally have nothing stuck", "[real][hang]") {
  for (const std::string version : {"2.28.9", "2.30.7"}) {
    for (const std::string run : {"matrix/n2-default", "matrix/n4-default", "matrix/n8-default",
                                  "matrix/n2-tree", "matrix/n4-tree", "matrix/n8-tree"}) {
      DYNAMIC_SECTION("NCCL " << version << ": " << run) {
        Hang h(onegpu_run_dir(version, run) + "/dump");
        CHECK(h.exit_code == 0);
        CHECK_THAT(h.verdict,
                   Catch::StartsWith("nothing is stuck: every rank completed its last operation"));
        CHECK(h.comm["divergence"].error() == simdjson::NO_SUCH_FIELD);
      }
    }
  }
}

}  // namespace npkit::test
