// fuzz_summary.cpp — libFuzzer target: the input is the text of an npkit-summary file, parsed
// with parse_summary (import/summary/summary_json_reader.hpp).
// Contract: never crashes, hangs or trips a sanitizer on any input. An error names the input and
// a byte offset inside it or at its end ("input: offset N: ..."); a parsed summary writes back
// to JSON that parses to an equal summary, and merging it with itself keeps it readable
// (checked below, abort() otherwise). Seeds: corpus/summary/seed_* (written by
// tests/unit/import/summary/summary_seed_corpus_test.cpp).
#include <cstdint>
#include <string>
#include <string_view>

#include "error_offset_check.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/summary_json_writer.hpp"

namespace {

void check(bool ok, const char* what) {
  npkit::fuzz::check(ok, "fuzz_summary", what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto summary = npkit::parse_summary("input", text);
  if (!summary) {
    npkit::fuzz::check_error_offset(summary.error().message, size, "fuzz_summary");
    return 0;
  }
  std::string written;
  npkit::write_summary_json(*summary, written);
  auto again = npkit::parse_summary("written", written);
  check(again.ok(), "a parsed summary does not read back after writing");
  check(*again == *summary, "a parsed summary reads back different after writing");
  npkit::RunSummary doubled = *summary;
  npkit::merge_into(doubled, *summary);
  std::string doubled_text;
  npkit::write_summary_json(doubled, doubled_text);
  check(npkit::parse_summary("doubled", doubled_text).ok(),
        "a summary merged with itself is unreadable");
  return 0;
}
