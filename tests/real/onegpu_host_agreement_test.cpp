// The times of one host disagree (analysis/align/host_agreement.hpp) on the one-GPU matrix
// (samples/onegpu-h200/nccl-*/matrix/n<N>-tree: every rank a process on one H200, one host):
// time-sliced kernels give ranks GPU spans that complete before another rank of the host
// arrived. Re-derived from the captures' raw spans by the plain reader (support/npkt_plain.hpp):
// per instance, the ranks' timed spans on the host clock, grouped by hostname; the instance
// disagrees when a host's earliest stop precedes its latest start. `bandwidth` must carry that
// count per row (host_disagree_instances and the "<N> host-disagree" flag) and `report` its
// total (alignment.same_host_violations), and the 4-rank tree AllReduce of 1024 floats (count
// 1 Ki, 4096 B: the case `report` warned of while `bandwidth` showed it unflagged) must be flagged.
#include <simdjson.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "real/onegpu_logs.hpp"
#include "support/cli_runner.hpp"
#include "support/npkt_plain.hpp"

namespace npkit::test {
namespace {

// A bandwidth row of one communicator: func, S, algo, proto.
using RowKey = std::tuple<std::string, std::uint64_t, std::string, std::string>;

// Instances whose times of one host disagree, per row, from the raw spans.
std::map<RowKey, std::uint64_t> plain_disagreements(const std::vector<plain::Rank>& ranks) {
  std::map<std::int32_t, std::string> host;
  for (const auto& r : ranks) host[r.rank] = r.hostname;
  std::map<RowKey, std::uint64_t> out;
  for (const auto& in : plain::join(ranks)) {
    const plain::Op& first = *in.by_rank.begin()->second;
    std::uint64_t& count = out[{in.func, first.bytes, first.algo, first.proto}];
    // Per hostname: the earliest stop and the latest start of its timed ranks.
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> per_host;
    for (const auto& [rank, op] : in.by_rank) {
      if (!op->timed) continue;
      const auto it = per_host.try_emplace(host[rank], op->gpu_stop_ns, op->gpu_start_ns).first;
      it->second.first = std::min(it->second.first, op->gpu_stop_ns);
      it->second.second = std::max(it->second.second, op->gpu_start_ns);
    }
    if (std::any_of(per_host.begin(), per_host.end(),
                    [](const auto& h) { return h.second.first < h.second.second; })) {
      ++count;
    }
  }
  return out;
}

simdjson::dom::element parse(simdjson::dom::parser& parser, const std::string& text) {
  return parser.parse(text);
}

}  // namespace

TEST_CASE("onegpu tree runs: the host-disagree flag and count match a raw recount",
          "[real][onegpu][bandwidth]") {
  std::uint64_t flagged_1k_4ranks = 0;
  for (const std::string version : {"2.28.9", "2.30.7"}) {
    for (const std::string run : {"matrix/n2-tree", "matrix/n4-tree", "matrix/n8-tree"}) {
      {
        INFO("NCCL " << version << ": " << run);
        const std::string dump = onegpu_run_dir(version, run) + "/dump";
        const auto expected = plain_disagreements(plain::read_capture(dump));
        std::uint64_t total = 0;
        for (const auto& [key, n] : expected) total += n;

        const CliRun bw = run_cli({"bandwidth", dump, "--format", "json", "--quiet"});
        INFO(bw.err);
        REQUIRE(bw.exit_code == 0);
        simdjson::dom::parser parser;
        std::size_t rows = 0;
        for (simdjson::dom::element c : parse(parser, bw.out)["collectives"].get_array()) {
          const RowKey key{std::string(c["collective"].get_string().value()),
                           c["size_bytes"].get_uint64().value(),
                           std::string(c["algo"].get_string().value()),
                           std::string(c["proto"].get_string().value())};
          INFO(std::get<0>(key) << " " << std::get<1>(key) << " B " << std::get<2>(key) << "/"
                                << std::get<3>(key));
          REQUIRE(expected.count(key) == 1);
          ++rows;
          const std::uint64_t n = expected.at(key);
          CHECK(c["host_disagree_instances"].get_uint64().value() == n);
          std::vector<std::string> flags;
          for (simdjson::dom::element f : c["flags"].get_array()) {
            flags.emplace_back(f.get_string().value());
          }
          const std::string flag = std::to_string(n) + " host-disagree";
          CHECK((std::find(flags.begin(), flags.end(), flag) != flags.end()) == (n > 0));
          if (run == "matrix/n4-tree" && std::get<1>(key) == 4096 && n > 0) ++flagged_1k_4ranks;
        }
        CHECK(rows == expected.size());

        const CliRun report = run_cli({"report", dump, "--format", "json", "--quiet"});
        REQUIRE(report.exit_code == 0);
        simdjson::dom::parser report_parser;
        simdjson::dom::element comm = parse(report_parser, report.out)["communicators"].at(0);
        CHECK(comm["alignment"]["same_host_violations"].get_uint64().value() == total);
      }
    }
  }
  // 4 ranks, 1 Ki floats, tree: flagged on at least one version.
  CHECK(flagged_1k_4ranks > 0);
}

}  // namespace npkit::test
