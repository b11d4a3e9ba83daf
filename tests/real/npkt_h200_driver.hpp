// npkt_h200_driver.hpp — the real H200 captures under samples/nccl-h200/<run>/ for the
// npkt_h200_*_test.cpp tests: the capture driver's own timing (driver.csv, and the warm-up /
// iteration counts from driver.txt's first line) and the analysed dumps.
// Contract: sample_dir(run) is samples/nccl-h200/<run> in the source tree (committed; a test
// calls require_path on it, so a missing capture fails the test). read_driver REQUIREs a
// readable driver.txt header ("... warmup W, iters N, check on|off") and driver.csv with the
// columns coll,size_bytes,count,type,nranks,time_us,algbw_gbps,busbw_gbps. load_sample REQUIREs
// every dump file to parse and returns the captures with their communicators joined.
// stream_of(capture, func, bytes) is the rank's operations of that function and nccl-tests size
// in host start order (its stream order), derived AlltoAll included, their Send/Recv not.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "import/npkt/communicator_join.hpp"
#include "import/npkt/npkt_directory.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "support/test_data.hpp"

namespace npkit::test {

struct DriverRow {
  std::string coll;  // allreduce, allgather, ...
  std::uint64_t size_bytes = 0;
  std::uint64_t count = 0;
  std::string type;
  std::int32_t nranks = 0;
  double time_us = 0;
  double busbw_gbps = 0;
};

struct DriverRun {
  int warmup = 0;
  int iters = 0;
  bool check = false;  // one more AllReduce after each AllReduce size's timed launches
  std::vector<DriverRow> rows;
};

inline std::string sample_dir(const std::string& run) {
  return source_path("samples/nccl-h200/" + run);
}

inline DriverRun read_driver(const std::string& dir) {
  DriverRun run;
  std::ifstream header(dir + "/driver.txt");
  std::string line;
  REQUIRE(std::getline(header, line));
  std::smatch m;
  REQUIRE(std::regex_search(line, m, std::regex(R"(warmup (\d+), iters (\d+), check (on|off))")));
  run.warmup = std::stoi(m[1]);
  run.iters = std::stoi(m[2]);
  run.check = m[3] == "on";
  std::ifstream csv(dir + "/driver.csv");
  REQUIRE(std::getline(csv, line));
  REQUIRE(line == "coll,size_bytes,count,type,nranks,time_us,algbw_gbps,busbw_gbps");
  while (std::getline(csv, line)) {
    std::istringstream f(line);
    std::vector<std::string> cells;
    for (std::string cell; std::getline(f, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() == 8);
    run.rows.push_back({cells[0], std::stoull(cells[1]), std::stoull(cells[2]), cells[3],
                        std::stoi(cells[4]), std::stod(cells[5]), std::stod(cells[7])});
  }
  REQUIRE_FALSE(run.rows.empty());
  return run;
}

struct Sample {
  std::vector<std::unique_ptr<RankCapture>> captures;
  std::vector<Communicator> comms;
};

inline Sample load_sample(const std::string& dump_dir) {
  Sample s;
  auto paths = find_npkt_files(dump_dir);
  REQUIRE(paths.ok());
  for (const auto& path : paths->paths) {
    auto dump = read_npkt_file(path);
    INFO(path << ": " << (dump ? "" : dump.error().message));
    REQUIRE(dump.ok());
    s.captures.push_back(build_rank_capture(std::move(*dump)));
  }
  std::vector<const RankCapture*> pointers;
  for (const auto& c : s.captures) pointers.push_back(c.get());
  Diagnostics diagnostics;
  s.comms = join_communicators(pointers, diagnostics);
  return s;
}

inline std::vector<const ProfilerCollective*> stream_of(const RankCapture& c, NcclFunc func,
                                                        std::uint64_t bytes) {
  std::vector<const ProfilerCollective*> ops;
  for (const auto& op : c.collectives) {
    if (!op.in_alltoall && op.func == func && op.bytes == bytes) ops.push_back(&op);
  }
  for (const auto& op : c.alltoall.alltoalls) {
    if (op.func == func && op.bytes == bytes) ops.push_back(&op);
  }
  std::stable_sort(ops.begin(), ops.end(), [](const auto* a, const auto* b) {
    return a->host_start_ns < b->host_start_ns;
  });
  return ops;
}

}  // namespace npkit::test
