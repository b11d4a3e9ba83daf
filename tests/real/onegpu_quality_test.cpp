// What the one-GPU matrix's times rest on (samples/onegpu-h200/nccl-*/matrix: every rank a
// process on one H200, over NET/Socket), re-derived from the captures' raw spans by the plain
// reader (support/npkt_plain.hpp), which shares no code with the analyzer:
// - timed members per collective and size equal the plain recount (a change that untimes every
//   AlltoAll, or times what the plain reader cannot, fails here);
// - a RING or TREE member whose span is below 1 % of the slowest member's at its instance is
//   flagged implausibly short in `instances` (the ranks share one clock here, so the rank that
//   arrived last is exempt when every rank ended within its span of its end), and `bandwidth`
//   counts such instances per row;
// - `diff` of the NCCL 2.28.9 and 2.30.7 4-rank tree runs finds no regression: their rows are
//   mostly host-disagree, not comparable, and NCCL_DEBUG_SUBSYS is no cause candidate.
#include <simdjson.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "real/onegpu_logs.hpp"
#include "support/cli_runner.hpp"
#include "support/npkt_plain.hpp"

namespace npkit::test {
namespace {

const char* const kRuns[] = {"matrix/n2-default", "matrix/n4-default", "matrix/n8-default",
                             "matrix/n2-tree",    "matrix/n4-tree",    "matrix/n8-tree"};

// (func, bytes) -> timed members, and (func, seq or AlltoAll index, rank) -> implausibly short.
struct Listed {
  std::map<std::pair<std::string, std::uint64_t>, std::uint64_t> timed;
  std::map<std::tuple<std::string, std::uint64_t, std::int64_t>, bool> short_member;
};

Listed listed(const std::string& dump) {
  const CliRun run = run_cli({"instances", dump, "--quiet"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  Listed out;
  simdjson::dom::parser parser;
  std::istringstream lines(run.out);
  std::map<std::string, std::uint64_t> alltoall_index;
  for (std::string line; std::getline(lines, line);) {
    const simdjson::dom::element j = parser.parse(line);
    const std::string func(j["func"].get_string().value());
    if (func == "SendRecv") continue;
    const std::uint64_t bytes = j["bytes"].get_uint64().value();
    const std::uint64_t key =
        func == "AlltoAll" ? alltoall_index[func]++ : j["seq"].get_uint64().value();
    for (auto m : j["members"].get_array()) {
      const std::int64_t rank = m["rank"].get_int64().value();
      if (m["timed"].get_bool().value()) ++out.timed[{func, bytes}];
      out.short_member[{func, key, rank}] = m["implausibly_short"].get_bool().value();
    }
  }
  return out;
}

// The plain recount: timed members per (func, bytes), and the members implausibly short by the
// rule (RING/TREE, two timed members or more, below 1 % of the slowest, not the last arrival).
Listed recount(const std::string& dump) {
  Listed out;
  // The capture outlives the loop: join's instances point into it.
  const auto capture = plain::read_capture(dump);
  for (const auto& in : plain::join(capture)) {
    const plain::Op& first = *in.by_rank.begin()->second;
    std::int64_t slowest = 0;
    std::int64_t last_start = 0;
    std::int64_t last_stop = 0;
    int timed = 0;
    for (const auto& [rank, op] : in.by_rank) {
      if (!op->timed) continue;
      ++out.timed[{in.func, first.bytes}];
      slowest = std::max(slowest, op->span_ns());
      last_start = timed == 0 ? op->gpu_start_ns : std::max(last_start, op->gpu_start_ns);
      last_stop = timed == 0 ? op->gpu_stop_ns : std::max(last_stop, op->gpu_stop_ns);
      ++timed;
    }
    const bool ring_or_tree = first.algo == "RING" || first.algo == "TREE";
    for (const auto& [rank, op] : in.by_rank) {
      // One hostname here: the last arrival, every rank done within its span of its end, is exempt.
      const bool late =
          op->gpu_start_ns == last_start && last_stop - op->gpu_stop_ns <= op->span_ns();
      out.short_member[{in.func, in.key, rank}] =
          ring_or_tree && timed >= 2 && op->timed && !late && 100 * op->span_ns() < slowest;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("onegpu quality: timed members and implausibly short ones match a raw recount",
          "[real][onegpu][quality]") {
  std::uint64_t short_seen = 0;
  for (const std::string version : {"2.28.9", "2.30.7"}) {
    for (const std::string run : kRuns) {
      INFO("NCCL " << version << ": " << run);
      const std::string dump = onegpu_run_dir(version, run) + "/dump";
      const Listed got = listed(dump);
      const Listed want = recount(dump);
      for (const auto& [key, n] : want.timed) {
        INFO(key.first << " " << key.second << " B");
        CHECK(got.timed.count(key) == 1);
        if (got.timed.count(key) == 1) CHECK(got.timed.at(key) == n);
      }
      CHECK(got.timed.size() == want.timed.size());
      for (const auto& [key, is_short] : want.short_member) {
        INFO(std::get<0>(key) << " " << std::get<1>(key) << " rank " << std::get<2>(key));
        REQUIRE(got.short_member.count(key) == 1);
        CHECK(got.short_member.at(key) == is_short);
        short_seen += is_short ? 1 : 0;
      }
    }
  }
  CHECK(short_seen > 0);
}

TEST_CASE("onegpu quality: NCCL 2.30.7's 4-rank tree at 64 KiB flags rank 2's 21 us as short",
          "[real][onegpu][quality]") {
  const std::string dump = onegpu_run_dir("2.30.7", "matrix/n4-tree") + "/dump";
  const CliRun bw = run_cli({"bandwidth", dump, "--format", "json", "--quiet"});
  REQUIRE(bw.exit_code == 0);
  simdjson::dom::parser parser;
  bool found = false;
  for (auto c : parser.parse(bw.out)["collectives"].get_array()) {
    if (c["size_bytes"].get_uint64().value() != 65536) continue;
    found = true;
    std::map<std::int64_t, double> median;
    for (auto r : c["per_rank"].get_array()) {
      median[r["rank"].get_int64().value()] = r["median_ns"].get_double().value();
    }
    // The figures: 9,027 / 9,035 / 21 / 18,039 us.
    CHECK(median.at(2) < 0.01 * median.at(3));
    std::vector<std::string> flags;
    for (auto f : c["flags"].get_array()) flags.emplace_back(f.get_string().value());
    INFO(flags.size());
    CHECK(std::any_of(flags.begin(), flags.end(), [](const std::string& f) {
      return f.size() > 6 && f.compare(f.size() - 6, 6, " short") == 0;
    }));
  }
  CHECK(found);
}

TEST_CASE("onegpu quality: NCCL 2.28.9 against 2.30.7 on the 4-rank tree has no regression",
          "[real][onegpu][quality][diff]") {
  const CliRun d = run_cli({"diff", onegpu_run_dir("2.28.9", "matrix/n4-tree") + "/dump",
                            onegpu_run_dir("2.30.7", "matrix/n4-tree") + "/dump", "--format",
                            "json", "--quiet"});
  INFO(d.out);
  simdjson::dom::parser parser;
  const simdjson::dom::element j = parser.parse(d.out);
  std::uint64_t not_comparable = 0;
  for (auto c : j["collectives"].get_array()) {
    const std::string verdict(c["verdict"].get_string().value());
    CHECK(verdict != "regression");
    if (verdict == "not comparable") ++not_comparable;
  }
  CHECK(not_comparable > 0);
  for (auto cause : j["cause_candidates"].get_array()) {
    CHECK(std::string(cause.get_string().value()).rfind("NCCL_DEBUG", 0) != 0);
  }
}

}  // namespace npkit::test
