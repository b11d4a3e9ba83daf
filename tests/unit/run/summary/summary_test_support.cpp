#include "unit/run/summary/summary_test_support.hpp"

#include <catch2/catch.hpp>

#include "commands/gate_commands.hpp"

namespace npkit::test {

RunSummary summarize_path(const std::string& path, const std::string& label) {
  ImportOptions options;
  options.path = path;
  auto input = open_run_input(options);
  REQUIRE(input.ok());
  auto s = summarize_input(**input);
  REQUIRE(s.ok());
  s->inputs = {label};
  return std::move(*s);
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
