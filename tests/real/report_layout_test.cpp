// `report` leads with its answer on every committed sample: the
// summary (from the head line to the end of the per-collective table) takes at most 25 lines,
// every line of the text fits 120 columns, and no duration is 10^6 or more in its unit (a person
// reads "232.3 s", not "232340751.903 us").
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/test_data.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl == std::string::npos ? nl : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::size_t columns(const std::string& line) {
  return static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// Every capture directory of the samples, the nccl-tests results and an Inspector log.
std::vector<std::string> sample_inputs() {
  std::vector<std::string> inputs;
  const fs::path root = npkit::test::require_path(npkit::test::source_path("samples"));
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_directory() && entry.path().filename() == "dump") {
      inputs.push_back(entry.path().string());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const char* other : {"samples/nccl-tests-h200/all_reduce_perf.json",
                            "samples/onegpu-h200/nccl-2.30.7/inspector/chained/inspector"}) {
    inputs.push_back(npkit::test::require_path(npkit::test::source_path(other)));
  }
  return inputs;
}

}  // namespace

TEST_CASE("report: every sample opens with a short summary, fits 120 columns, reads its durations",
          "[real][report]") {
  const std::vector<std::string> inputs = sample_inputs();
  REQUIRE(inputs.size() >= 30);  // 37 capture directories and the nccl-tests file in the samples
  const std::regex duration(R"((\d+(?:\.\d+)?) (?:ns|us|ms|s)\b)");
  for (const auto& input : inputs) {
    INFO("input: " << input);
    const auto run = npkit::test::run_cli({"report", input, "-q"});
    REQUIRE(run.exit_code == 0);
    const std::vector<std::string> lines = lines_of(run.out);
    REQUIRE(lines.size() > 3);
    // The head line (wrapped where the path is long), a blank line, "Summary".
    const auto summary = std::find(lines.begin(), lines.begin() + 4, "Summary");
    REQUIRE(summary != lines.begin() + 4);
    CHECK((summary - 1)->empty());
    // The summary ends at the blank line after the per-collective table (or after its fields).
    std::size_t end = static_cast<std::size_t>(summary - lines.begin()) + 1;
    while (end < lines.size() && !lines[end].empty()) ++end;
    if (end + 1 < lines.size() && lines[end + 1].rfind("Per collective:", 0) == 0) {
      ++end;
      while (end < lines.size() && !lines[end].empty()) ++end;
    }
    CHECK(end <= 25);
    for (const auto& line : lines) {
      INFO("line: " << line);
      CHECK(columns(line) <= 120);
      for (std::sregex_iterator m(line.begin(), line.end(), duration), e; m != e; ++m) {
        CHECK(std::stod((*m)[1].str()) < 1e6);
      }
    }
  }
}
