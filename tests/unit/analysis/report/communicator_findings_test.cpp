// A communicator's findings fit the run: ranks on one GPU get shared_gpu and no timing advice,
// and network_wait and gpu_wait never stand side by side. Hand-made findings, whose rules and
// shares are read off the test.
#include "analysis/report/communicator_findings.hpp"

#include <catch2/catch.hpp>

namespace {

npkit::Finding finding(std::string rule, std::vector<std::pair<std::string, double>> numbers = {}) {
  npkit::Finding f;
  f.rule = std::move(rule);
  f.summary = f.rule;
  f.numbers = std::move(numbers);
  return f;
}

npkit::RunCommunicator comm_on(const std::vector<std::string>& gpus) {
  npkit::RunCommunicator c;
  c.hash = 7;
  c.nranks = static_cast<std::int32_t>(gpus.size());
  for (std::size_t r = 0; r < gpus.size(); ++r) {
    npkit::RunRank rank;
    rank.rank = static_cast<std::int32_t>(r);
    rank.gpu = gpus[r];
    c.ranks.push_back(rank);
  }
  return c;
}

std::vector<std::string> rules(const std::vector<npkit::Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.push_back(f.rule);
  return out;
}

}  // namespace

TEST_CASE("communicator findings: ranks on one GPU get shared_gpu, no straggler or GPU advice",
          "[report][findings]") {
  npkit::CrossRankAnalysis cross;
  cross.input.scope = "comm 0000000000000007";
  cross.findings = {finding("straggler"), finding("load_imbalance"),
                    finding("gpu_wait", {{"gpu_share", 0.6}}), finding("net_within_host")};
  const auto shared = npkit::communicator_findings(comm_on({"GPU-a", "GPU-a", "GPU-a", "GPU-a"}),
                                                   cross, {}, npkit::Thresholds{}, {});
  CHECK(rules(shared) == std::vector<std::string>{"shared_gpu", "net_within_host"});
  CHECK(shared[0].summary.find("ranks 0, 1, 2 and 3 on GPU-a share a GPU") == 0);
  // One GPU each, or none named: nothing is withheld.
  const auto apart = npkit::communicator_findings(comm_on({"GPU-a", "GPU-b", "GPU-c", "GPU-d"}),
                                                  cross, {}, npkit::Thresholds{}, {});
  CHECK(rules(apart) ==
        std::vector<std::string>{"straggler", "load_imbalance", "gpu_wait", "net_within_host"});
  const auto unknown =
      npkit::communicator_findings(comm_on({"", "", "", ""}), cross, {}, npkit::Thresholds{}, {});
  CHECK(unknown.size() == 4);
}

TEST_CASE("communicator findings: network_wait and gpu_wait never both, the larger share stays",
          "[report][findings]") {
  npkit::CrossRankAnalysis cross;
  cross.findings = {finding("network_wait", {{"network_share", 0.3}}),
                    finding("gpu_wait", {{"gpu_share", 0.55}, {"network_share", 0.3}})};
  auto out =
      npkit::communicator_findings(comm_on({"GPU-a", "GPU-b"}), cross, {}, npkit::Thresholds{}, {});
  REQUIRE(rules(out) == std::vector<std::string>{"gpu_wait"});
  CHECK(out[0].summary.find("network_wait also crossed its threshold, at 30% against 55%") !=
        std::string::npos);
  cross.findings[0].numbers = {{"network_share", 0.7}};
  out =
      npkit::communicator_findings(comm_on({"GPU-a", "GPU-b"}), cross, {}, npkit::Thresholds{}, {});
  CHECK(rules(out) == std::vector<std::string>{"network_wait"});
}
