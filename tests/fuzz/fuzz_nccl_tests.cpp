// fuzz_nccl_tests.cpp — libFuzzer target: the input is the text of a nccl-tests results file,
// parsed with parse_nccl_tests (import/nccl_tests/nccl_tests_file.hpp).
// Contract: never crashes, hangs or trips a sanitizer on any input. An error names the input and
// a byte offset inside it or at its end ("input: offset N: ..."); a parsed file has a known
// version, at least one rank, and every row's pass below its row count (abort() otherwise).
// Seeds: corpus/nccl_tests/seed_* (the results files of tests/data/nccl-tests and
// samples/nccl-tests-h200, and damaged copies).
#include <cstdint>
#include <string>
#include <string_view>

#include "error_offset_check.hpp"
#include "import/nccl_tests/nccl_tests_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr const char* kTarget = "fuzz_nccl_tests";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto file = npkit::parse_nccl_tests("input", text);
  if (!file) {
    npkit::fuzz::check_error_offset(file.error().message, size, kTarget);
    return 0;
  }
  npkit::fuzz::check(file->version >= 1 && file->version <= npkit::kNcclTestsNewestVersion, kTarget,
                     "a parsed file of an unknown version");
  npkit::fuzz::check(file->results.nranks >= 1, kTarget, "a parsed file without ranks");
  for (const auto& row : file->results.rows) {
    npkit::fuzz::check(row.cycle < file->results.rows.size(), kTarget, "a pass past the rows");
  }
  return 0;
}
