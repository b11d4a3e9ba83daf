// fuzz_npkt_dump.cpp — libFuzzer target: the input is the whole image of an npkit dump v1 file
// (.npkt), parsed with parse_npkt; an input that starts with gzip's magic (1f 8b) is a compressed
// capture (.npkt.gz), decompressed with decompress_npkt as read_npkt_file does, then parsed.
// Contract: never crashes, hangs or trips a sanitizer on any input. A parsed dump satisfies
// parse_npkt's contract and an error names the input and an offset inside it or at its end
// (checked below, abort() otherwise); a decompression error names the input, and the decompressed
// bytes stay within the bound on output (gz::gunzip_bound). Seeds: corpus/npkt_dump/seed_* (made
// by the test writer, tests/unit/import/npkt/npkt_seed_corpus_test.cpp), gzip_seed_* (some of
// them compressed, and damaged, by the same test), sample_* (shipped minor-3/4 H200 captures) and
// minor4_* (one of them with call-tag, KernelPhase and copy-engine records; make_seed_corpus.py).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/npkt_file_bytes.hpp"
#include "util/gunzip.hpp"

namespace {

volatile std::uint64_t observed = 0;  // keeps the reads below from being optimised away

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_npkt_dump: contract violated: %s\n", what);
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

// Parses a capture's image and checks parse_npkt's contract.
void check_image(const std::uint8_t* data, std::size_t size);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!npkit::gz::looks_like_gzip(data, size)) {
    check_image(data, size);
    return 0;
  }
  std::vector<std::uint8_t> image;
  auto unzipped = npkit::decompress_npkt("input", data, size, image);
  if (!unzipped) {
    check(unzipped.error().message.compare(0, 7, "input: ") == 0, "gzip error without 'input: '");
    return 0;
  }
  check(image.size() <= npkit::gz::gunzip_bound(size), "decompressed past the bound");
  check_image(image.data(), image.size());
  return 0;
}

namespace {

void check_image(const std::uint8_t* data, std::size_t size) {
  auto dump = npkit::parse_npkt("input", data, size);
  if (!dump) {
    check_error(dump.error().message, size);
    return;
  }
  const npkit::NpktDump& d = *dump;
  check(npkit::looks_like_npkt(data, size), "parsed without the magic");
  check(d.path == "input", "path is not the name given");
  check(!d.strings.empty() && d.strings[0].empty(), "strings[0] is not the empty 'none'");
  check(d.strings.size() <= 65536, "string id above 65535");
  check(d.records.size() * sizeof(npkit::format::ProfilerRecord) <= size,
        "more records than the input holds");
  check(d.threads.size() * sizeof(npkit::format::ThreadEntry) <= size,
        "more threads than the input holds");
  check(d.clock_samples.size() * sizeof(npkit::format::ClockSample) <= size,
        "more clock samples than the input holds");
  std::uint64_t text = 0;
  for (const auto& [k, v] : d.metadata) text += k.size() + v.size();
  for (const auto& s : d.strings) text += s.size();
  for (const auto& n : d.event_type_names) text += n.second.size();
  for (const auto& n : d.state_names) text += n.second.size();
  check(text <= size, "more text than the input holds");
  std::uint64_t sum = text;
  for (const auto& r : d.records) {
    // Every record kind and event type of the minors up to format::kMinorVersion (4): start,
    // stop, state, detail (minor 3); types up to KernelPhase (minor 4). Newer ones are skipped.
    check(r.kind >= npkit::format::kRecordStart && r.kind <= npkit::format::kRecordDetail,
          "record of kind 0 or above detail (4) kept");
    check(r.type <= npkit::format::kLastEventType, "record of a type above KernelPhase (15) kept");
    sum += r.host_ns ^ r.event_id ^ d.string_at(r.word & 0xFFFF).size();
  }
  sum += d.meta("hostname").size() + d.warnings.size();
  observed = sum;
}

}  // namespace
