// import/nccl_tests/nccl_tests_file.hpp — reads the results file nccl-tests writes with
// `-J FILE.json` (nccl-tests ≥ 2.18; results format versions 1 to 3, docs/formats.md).
// Contract:
// - parse_nccl_tests never throws or crashes on hostile bytes: anything that is not such a file
//   is an Error "NAME: offset N: KEY: what was expected" (import/json/json_value_reader.hpp),
//   KEY the path of the offending member ("results[3].out_of_place.time"). A version above 3 is
//   refused with the version named; a missing required member, a wrong type, a duplicate key, a
//   root that is not an integer, a negative or fractional #wrong are errors.
// - Required: version, nccl_version, config (nthreads, ngpus, minimum_bytes, maximum_bytes,
//   warmup_iters, iterations, aggregated_iterations, validation, graph, devices) and results
//   (each: size, count, type, redop, root, out_of_place — null where not run —, in_place,
//   actual_iterations; a placement: time or cpu_time, alg_bw, bus_bw, nwrong — null where not
//   checked). Other members are optional; unknown members are skipped.
// - A number may be the string "nan" (how nccl-tests writes NaN): a placement with a NaN time or
//   bandwidth is dropped, with a line in `notes` naming it. A type name nccl-tests does not print
//   is kept as written (and noted). The collective comes from the program (args[0]).
// - looks_like_nccl_tests(prefix): the file's first bytes open a JSON object whose first member
//   is "version" (an integer) and second "start_time", as nccl-tests writes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "run/driver_results.hpp"
#include "util/result.hpp"

namespace npkit {

inline constexpr int kNcclTestsNewestVersion = 3;

struct NcclTestsDevice {
  std::int32_t rank = 0;
  std::int32_t group = 0;
  std::int64_t pid = 0;
  std::string hostname;
  std::int32_t device = 0;
  std::string device_hex;
  std::string device_info;
};

struct NcclTestsFile {
  std::int64_t version = 0;
  std::string start_time;  // local time of the driver's machine, as written
  std::string end_time;    // "" when absent
  std::vector<std::string> args;
  std::vector<std::string> env;  // KEY=VALUE
  std::int64_t nccl_version = 0;
  // config
  std::int64_t nthreads = 0;
  std::int64_t ngpus = 0;
  std::uint64_t minimum_bytes = 0;
  std::uint64_t maximum_bytes = 0;
  std::optional<std::uint64_t> step_factor;
  std::optional<std::uint64_t> step_bytes;
  std::int64_t warmup_iters = 0;
  std::int64_t iterations = 0;
  std::int64_t aggregated_iterations = 0;
  std::int64_t validation = 0;
  std::int64_t graph = 0;
  bool per_iter_timing = false;
  std::vector<NcclTestsDevice> devices;
  DriverResults results;
  std::optional<std::int64_t> out_of_bounds;
  std::optional<double> average_busbw_gbps;
  std::string average_busbw_check;  // "unchecked", "true", "false"; "" when absent
  std::vector<std::string> errors;  // non-empty messages only
  std::vector<std::string> notes;   // what was dropped or kept unrecognised, a line each
};

Result<NcclTestsFile> parse_nccl_tests(const std::string& name, std::string_view text);
Result<NcclTestsFile> read_nccl_tests_file(const std::string& path);
bool looks_like_nccl_tests(std::string_view prefix);

// "2.28.9" for NCCL_VERSION_CODE 22809 (1000·major + 100·minor + patch before 2.9).
std::string nccl_version_text(std::int64_t code);

}  // namespace npkit
