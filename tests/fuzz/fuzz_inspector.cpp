// fuzz_inspector.cpp — libFuzzer target: the input is the text of an NCCL Inspector log, read with
// read_inspector_logs (import/inspector/inspector_log.hpp) from a scratch file and joined across
// ranks (import/plugin_join/plugin_cross_rank.hpp).
// Contract: never crashes, hangs or trips a sanitizer on any input. An error names the file and
// either a line with the byte offset where it starts (inside the input) or the whole file ("no
// Inspector record"); a read that succeeds holds at least one record per file, no more
// collective records than lines, and every joined member is a rank below its communicator's
// size. Seeds: corpus/inspector/seed_* (copies of tests/data/inspector logs).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "import/inspector/inspector_log.hpp"
#include "import/plugin_join/plugin_cross_rank.hpp"

namespace {

using namespace npkit;

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_inspector: contract violated: %s\n", what);
  std::abort();
}

void check_error(const std::string& message, const std::string& path, std::size_t size) {
  check(message.compare(0, path.size(), path) == 0, "error does not name the file");
  const std::string line = path + ": line ";
  if (message.compare(0, line.size(), line) != 0) {
    check(message.find("no Inspector record") != std::string::npos, "error names no line");
    return;
  }
  const auto at = message.find("(offset ");
  check(at != std::string::npos, "error names no offset");
  const std::uint64_t offset = std::strtoull(message.c_str() + at + 8, nullptr, 10);
  check(offset <= size, "error offset past the end of the input");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  char name[] = "/tmp/fuzz_inspector_XXXXXX";
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
  Diagnostics diagnostics;
  auto logs = read_inspector_logs({path}, diagnostics);
  if (!logs) {
    check_error(logs.error().message, path, size);
  } else {
    check(logs->files.size() == 1 && logs->files[0].records > 0, "a read without records");
    std::uint64_t lines = 1;
    for (std::size_t i = 0; i < size; ++i) lines += data[i] == '\n' ? 1 : 0;
    std::vector<PluginRankTrace> traces;
    for (const auto& r : logs->ranks) {
      check(r.trace.colls.size() <= lines, "more collective records than lines");
      check(r.launch_ns.size() == r.trace.colls.size(), "a launch time per collective");
      traces.push_back(r.trace);
    }
    for (const auto& comm : join_plugin_traces(traces, "fuzz", diagnostics)) {
      for (const auto& inst : comm.run.instances) {
        for (const auto& m : inst.members) {
          check(m.rank >= 0 && m.rank < comm.run.nranks, "a member outside the communicator");
        }
      }
    }
  }
  std::remove(name);
  return 0;
}
