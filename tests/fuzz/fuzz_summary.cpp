// fuzz_summary.cpp — libFuzzer target: the input is the text of an npkit-summary file, parsed
// with parse_summary (import/summary/summary_json_reader.hpp).
// Contract: never crashes, hangs or trips a sanitizer on any input. An error names the input and
// a byte offset inside it or at its end ("input: offset N: ..."); a parsed summary writes back
// to JSON that parses to an equal summary, and merging it with itself keeps it readable
// (checked below, abort() otherwise). Seeds: corpus/summary/seed_* (written by
// tests/unit/import/summary/summary_seed_corpus_test.cpp).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "import/summary/summary_json_reader.hpp"
#include "output/summary_json_writer.hpp"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_summary: contract violated: %s\n", what);
  std::abort();
}

void check_error(const std::string& message, std::size_t size) {
  const std::string prefix = "input: offset ";
  check(message.compare(0, prefix.size(), prefix) == 0, "error without 'input: offset '");
  std::size_t digits = 0;
  std::uint64_t offset = 0;
  for (std::size_t i = prefix.size(); i < message.size() && message[i] >= '0' && message[i] <= '9';
       ++i, ++digits) {
    check(digits < 20, "offset with more than 20 digits");
    offset = offset * 10 + static_cast<std::uint64_t>(message[i] - '0');
  }
  check(digits > 0, "error offset is not a number");
  check(message.compare(prefix.size() + digits, 2, ": ") == 0, "no ': ' after the offset");
  check(message.size() > prefix.size() + digits + 2, "error says nothing after the offset");
  check(offset <= size, "error offset past the end of the input");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto summary = npkit::parse_summary("input", text);
  if (!summary) {
    check_error(summary.error().message, size);
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
