// profiler_test_captures.hpp — RankCaptures made from npkt spec text (support/npkt_spec.hpp),
// written by the test writer and read back by the real reader, for the profiler analysis tests.
// Contract: one capture per `comm` line of the spec, in spec order; a file the reader rejects
// fails the test (REQUIRE); cross_rank_of gives a joined communicator's cross-rank input. The spec
// helpers below expand `{B+n}` to 1700000000000000000 + n so times read as offsets.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "analysis/join/run_cross_rank.hpp"
#include "analysis/proxy/proxy_rank_phases.hpp"
#include "import/npkt/communicator_join.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/npkt_run.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "support/npkt_spec.hpp"

namespace npkit::test {

inline constexpr std::uint64_t kBase = 1700000000000000000ull;

inline std::string expand_times(const std::string& spec) {
  std::string out;
  const std::regex time(R"(\{B\+(\d+)\})");
  auto begin = std::sregex_iterator(spec.begin(), spec.end(), time);
  std::size_t at = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out.append(spec, at, static_cast<std::size_t>(it->position()) - at);
    out += std::to_string(kBase + std::stoull((*it)[1].str()));
    at = static_cast<std::size_t>(it->position() + it->length());
  }
  out.append(spec, at, std::string::npos);
  return out;
}

inline std::vector<std::unique_ptr<RankCapture>> captures_from_spec(const std::string& spec) {
  std::vector<std::unique_ptr<RankCapture>> out;
  for (const auto& file : parse_npkt_spec(expand_times(spec))) {
    const std::string bytes = file.builder.bytes();
    auto dump =
        parse_npkt(file.name, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    INFO(file.name << ": " << (dump ? "" : dump.error().message));
    REQUIRE(dump.ok());
    out.push_back(build_rank_capture(std::move(*dump)));
  }
  return out;
}

inline std::vector<const RankCapture*> pointers(
    const std::vector<std::unique_ptr<RankCapture>>& captures) {
  std::vector<const RankCapture*> out;
  for (const auto& c : captures) out.push_back(c.get());
  return out;
}

// The cross-rank input of one joined communicator, as `report` builds it.
inline CrossRankInput cross_rank_of(const Communicator& comm) {
  Diagnostics diagnostics;
  const Run run = npkt_run("", {comm}, diagnostics);
  return cross_rank_input(run.comms[0], proxy_rank_phases(run.comms[0]));
}

}  // namespace npkit::test
