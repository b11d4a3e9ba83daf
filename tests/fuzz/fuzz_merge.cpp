// fuzz_merge.cpp — libFuzzer target: the input is the file of `trace --merge FILE` (another
// tool's Chrome trace, plain or gzip-compressed), written to a scratch file and read with
// read_merged_trace (commands/trace_merge.hpp), then merged as `trace` does into a small JSON
// trace of ours on the wall clock (one named process, thread and span) with merge_into.
// Contract: never crashes, hangs or trips a sanitizer on any input. A refused file is an Error
// naming it ("--merge FILE: ..."); an accepted one is a JSON object with a traceEvents array and
// a baseTimeNanoseconds number, and the merged trace is one JSON document whose traceEvents hold
// our events followed by every object of the file's traceEvents, in order, with the same
// members. Seeds: corpus/merge/seed_* (make_seed_corpus.py: the PyTorch profiler traces shipped
// under samples/ cut to their first events, gzip-compressed ones, and hand-made edge cases).
#include <simdjson.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "commands/trace_merge.hpp"
#include "output/trace/json_trace_encoder.hpp"

namespace {

using namespace npkit;

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_merge: contract violated: %s\n", what);
  std::abort();
}

constexpr std::int64_t kFirstNs = 1'765'000'000'123'456'789;  // a wall-clock time (2025)

// Our side of the merged trace: one process, one thread, one span, on the wall clock.
std::uint64_t write_ours(JsonTraceEncoder& json) {
  json.begin("{}", TraceTimes::wall_clock(kFirstNs));
  json.name_process(0, "rank 0");
  json.name_thread(0, 1, "stream");
  TraceSlice slice;
  slice.pid = 0;
  slice.tid = 1;
  slice.name = "AllReduce";
  slice.start_ns = kFirstNs;
  slice.end_ns = kFirstNs + 1000;
  json.write(slice);
  return json.events();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  char name[] = "/tmp/fuzz_merge_XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0) return 0;
  std::size_t written = 0;
  while (written < size) {
    const ssize_t n = write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  close(fd);
  const std::string path = name;
  auto merged = cli::read_merged_trace(path);
  std::remove(name);
  if (!merged) {
    const std::string& m = merged.error().message;
    check(m.find(path) != std::string::npos, "error does not name the file");
    return 0;
  }

  simdjson::dom::parser file_parser;
  simdjson::dom::element file_doc;
  check(file_parser.parse(merged->text).get(file_doc) == simdjson::SUCCESS,
        "accepted a file that is not JSON");
  simdjson::dom::array file_events;
  check(file_doc["traceEvents"].get(file_events) == simdjson::SUCCESS,
        "accepted a file without a traceEvents array");

  std::ostringstream out;
  JsonTraceEncoder json(out);
  const std::uint64_t ours = write_ours(json);
  cli::merge_into(json, *merged);
  const Status finished = json.finish("merged.json");
  check(static_cast<bool>(finished), "our trace is on the wall clock, yet the merge failed");

  const std::string result = out.str();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  check(parser.parse(result).get(doc) == simdjson::SUCCESS, "the merged trace is not JSON");
  simdjson::dom::array events;
  check(doc["traceEvents"].get(events) == simdjson::SUCCESS, "the merged trace has no events");
  std::size_t objects = 0;
  for (simdjson::dom::element e : file_events) objects += e.is_object() ? 1 : 0;
  check(events.size() >= ours + objects, "fewer events than ours and the file's");
  // The file's objects are the last events, each with as many members as it had.
  std::size_t i = 0;
  const std::size_t first_merged = events.size() - objects;
  auto file_it = file_events.begin();
  for (simdjson::dom::element e : events) {
    if (i++ < first_merged) continue;
    while (!(*file_it).is_object()) ++file_it;
    simdjson::dom::object theirs = (*file_it).get_object();
    simdjson::dom::object merged_event;
    check(e.get(merged_event) == simdjson::SUCCESS, "a merged event is not an object");
    check(merged_event.size() == theirs.size(), "a merged event lost or gained members");
    ++file_it;
  }
  return 0;
}
