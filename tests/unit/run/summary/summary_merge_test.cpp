// Summary merging on real captures: node-style splits merge back to the whole run's per-rank
// data, and merging is associative and (but for the order of inputs) commutative.
#include <catch2/catch.hpp>

#include "import/npkt/npkt_directory.hpp"
#include "run/summary/run_summary.hpp"
#include "support/test_data.hpp"
#include "unit/run/summary/summary_test_support.hpp"

using npkit::CollectiveRow;
using npkit::RunSummary;
using npkit::test::source_path;
using npkit::test::summarize_path;

namespace {

RunSummary merged(std::initializer_list<const RunSummary*> parts) {
  RunSummary s;
  for (const RunSummary* p : parts) npkit::merge_into(s, *p);
  return s;
}

}  // namespace

TEST_CASE("summary merge: one summary per rank file merges to the whole run's rank samples",
          "[summary][merge][real]") {
  const std::string dir = source_path("samples/nccl-h200/agree/dump");
  const RunSummary whole = summarize_path(dir, "agree");
  auto files = npkit::find_npkt_files(dir);
  REQUIRE(files.ok());
  REQUIRE(files->paths.size() == 2);
  const RunSummary r0 = summarize_path(files->paths[0], "rank0");
  const RunSummary r1 = summarize_path(files->paths[1], "rank1");
  const RunSummary nodes = merged({&r0, &r1});

  // The driver ran 5 sizes (1 MiB .. 256 MiB, x4): 2 warm-up, 20 timed and 1 check AllReduce
  // each (samples/nccl-h200/agree/driver.txt, samples/nccl-driver/README.md).
  REQUIRE(whole.collectives.size() == 5);
  REQUIRE(nodes.collectives.size() == whole.collectives.size());
  for (std::size_t i = 0; i < whole.collectives.size(); ++i) {
    const CollectiveRow& w = whole.collectives[i];
    const CollectiveRow& n = nodes.collectives[i];
    INFO(w.key.collective << " " << w.key.size_bytes);
    CHECK(n.key == w.key);
    CHECK(w.instances == 23);
    CHECK(n.instances == 2 * w.instances);  // each rank's input saw every instance
    CHECK(n.mean_bytes() == w.mean_bytes());
    REQUIRE(n.ranks.size() == 2);
    CHECK(n.ranks == w.ranks);
  }
  CHECK(nodes.config.communicators == whole.config.communicators);
  CHECK(nodes.config.files == 2);
  CHECK(nodes.inputs == std::vector<std::string>{"rank0", "rank1"});
  // Arrival skew needs both ranks of an instance in one input.
  CHECK(whole.sync.size() == 2);
  CHECK(nodes.sync.empty());
}

TEST_CASE("summary merge: associative, and commutative but for the order of inputs",
          "[summary][merge][real]") {
  const RunSummary a = summarize_path(source_path("samples/nccl-h200/agree/dump"), "a");
  const RunSummary b = summarize_path(source_path("samples/nccl-h200/nvlink/dump"), "b");
  const RunSummary c = summarize_path(source_path("samples/nccl-h200/socket/dump"), "c");
  const RunSummary ab = merged({&a, &b});
  const RunSummary bc = merged({&b, &c});
  const RunSummary left = merged({&ab, &c});
  const RunSummary right = merged({&a, &bc});
  CHECK(left == right);
  CHECK(left.inputs == std::vector<std::string>{"a", "b", "c"});

  RunSummary ba = merged({&b, &a});
  CHECK(ba.inputs == std::vector<std::string>{"b", "a"});
  ba.inputs = ab.inputs;
  CHECK(ba == ab);

  // Rows of both runs are all there, once each, in key order.
  std::size_t rows = a.collectives.size() + b.collectives.size();
  for (const auto& r : a.collectives) {
    for (const auto& q : b.collectives) rows -= r.key == q.key ? 1 : 0;
  }
  CHECK(ab.collectives.size() == rows);
  CHECK(
      std::is_sorted(ab.collectives.begin(), ab.collectives.end(),
                     [](const CollectiveRow& x, const CollectiveRow& y) { return x.key < y.key; }));
  // The socket capture has NET proxy steps: phase rows survive the merge.
  CHECK_FALSE(c.phases.empty());
  CHECK(left.phases.size() == c.phases.size());
}
