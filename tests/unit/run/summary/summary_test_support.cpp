#include "unit/run/summary/summary_test_support.hpp"

#include <catch2/catch.hpp>

#include <memory>

#include "analysis/summary/summarize_npkt.hpp"
#include "import/npkt/communicator_join.hpp"
#include "import/npkt/npkt_directory.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/profiler_capture.hpp"

namespace npkit::test {

RunSummary summarize_npkt_files(const std::vector<std::string>& paths, const std::string& label) {
  std::vector<std::unique_ptr<RankCapture>> owned;
  std::vector<const RankCapture*> files;
  for (const auto& path : paths) {
    auto dump = ingest::read_npkt_file(path);
    REQUIRE(dump.ok());
    owned.push_back(build_rank_capture(std::move(*dump)));
    files.push_back(owned.back().get());
  }
  Diagnostics diagnostics;
  const auto comms = join_communicators(files, diagnostics);
  return summarize_npkt(label, files, comms);
}

RunSummary summarize_npkt_dir(const std::string& dir, const std::string& label) {
  auto paths = ingest::find_npkt_files(dir);
  REQUIRE(paths.ok());
  return summarize_npkt_files(*paths, label);
}

CollectiveRow synthetic_row(const std::string& collective, std::uint64_t size,
                            const std::string& algo, const std::string& proto,
                            const std::vector<std::vector<std::int64_t>>& durations) {
  CollectiveRow row;
  row.key = CollectiveKey{
      collective, static_cast<std::int32_t>(durations.size()), size, SizeKind::kExact, algo, proto};
  for (std::size_t r = 0; r < durations.size(); ++r) {
    RankDurations d;
    d.rank = static_cast<std::int32_t>(r);
    for (const auto v : durations[r]) d.time_ns.add(v);
    row.instances = std::max<std::uint64_t>(row.instances, durations[r].size());
    row.ranks.push_back(std::move(d));
  }
  row.bytes_sum = size * row.instances;
  return row;
}

}  // namespace npkit::test
