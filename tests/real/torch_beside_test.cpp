// A PyTorch profiler (Kineto) trace and the plugin's capture of the same job
// (samples/torch-beside-h200) lie on one wall clock: `trace --merge` lays CUPTI's NCCL kernels
// within 2.5 µs of the GPU spans of the collectives they ran, with no adjustment. The expected
// times are CUPTI's own (Kineto's kernel events), not this tool's.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace {

struct Interval {
  double start = 0;  // µs after the trace's base
  double end = 0;
};

}  // namespace

TEST_CASE("torch beside: CUPTI's NCCL kernels and our GPU spans agree on the wall clock",
          "[real]") {
  const std::string dir = npkit::test::source_path("samples/torch-beside-h200");
  for (const int rank : {0, 1}) {
    INFO("rank " << rank);
    const auto run = npkit::test::run_cli(
        {"trace", dir + "/dump", "--ranks", std::to_string(rank), "--merge",
         dir + "/kineto/kineto_rank" + std::to_string(rank) + ".json.gz", "--quiet"});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element doc = parser.parse(run.out);
    // Both bases: 1790857026 s, the three-month period both round to (README.md).
    CHECK(doc["baseTimeNanoseconds"].get_int64().value() == 1'790'857'026'000'000'000);
    std::vector<Interval> kernels;
    std::map<std::uint64_t, Interval> collectives;  // our GPU spans by seq
    for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
      if (std::string_view(e["ph"].get_string()) != "X") continue;
      const std::string_view cat = e["cat"].get_string();
      const double ts = e["ts"].get_double();
      const double end = ts + e["dur"].get_double().value();
      if (cat == "kernel" &&
          std::string_view(e["name"].get_string()).starts_with("ncclDevKernel_AllReduce")) {
        kernels.push_back({ts, end});
      } else if (cat == "gpu") {
        const std::uint64_t seq = e["args"]["seq"].get_uint64();
        auto [it, added] = collectives.emplace(seq, Interval{ts, end});
        if (!added) {
          it->second.start = std::min(it->second.start, ts);
          it->second.end = std::max(it->second.end, end);
        }
      }
    }
    REQUIRE(kernels.size() == 12);  // 2 sizes × (1 warm-up + 4 timed + 1 checked)
    REQUIRE(collectives.size() == 12);
    for (const Interval& k : kernels) {
      const auto overlap = [&](const Interval& c) {
        return std::min(k.end, c.end) - std::max(k.start, c.start);
      };
      const auto best = std::max_element(
          collectives.begin(), collectives.end(),
          [&](const auto& a, const auto& b) { return overlap(a.second) < overlap(b.second); });
      INFO("CUPTI kernel at " << k.start << " us");
      CHECK(std::abs(k.start - best->second.start) < 2.5);
      CHECK(std::abs(k.end - best->second.end) < 2.5);
    }
  }
}
