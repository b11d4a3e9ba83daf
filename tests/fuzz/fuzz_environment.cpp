// fuzz_environment.cpp — libFuzzer target: the input is an ENV.txt (`env > ENV.txt`), written to
// a scratch file and read with read_environment_file (import/environment/environment_file.hpp),
// then applied with apply_environment to a run configuration that already records two variables.
// Contract: never crashes, hangs or trips a sanitizer on any input. An error names the file; a
// read that succeeds keeps exactly the variables a second, independent reading below finds (the
// NCCL_* and NPKIT_* names of KEY=VALUE lines, the last line of a key winning, a line's '\r'
// end dropped), and only when the input holds no NUL byte. Applying it adds each variable the
// configuration lacked, keeps the recorded value of the others and returns one conflict line
// per differing value, naming the file. Seeds: corpus/environment/seed_* (the ENV.txt files
// shipped under samples/ and tests/data, and hand-made edge cases).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "import/environment/environment_file.hpp"
#include "run/run_config.hpp"

namespace {

using namespace npkit;

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_environment: contract violated: %s\n", what);
  std::abort();
}

bool name_char(char c, bool first) {
  if (c >= '0' && c <= '9') return !first;
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

// The second reading: the variables an ENV.txt of `text` sets, by the documented rules.
std::map<std::string, std::string> expected_variables(std::string_view text) {
  std::map<std::string, std::string> vars;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = start;
    while (end < text.size() && text[end] != '\n') ++end;
    std::string line(text.substr(start, end - start));
    start = end + 1;
    if (!line.empty() && line[line.size() - 1] == '\r') line.pop_back();
    std::size_t eq = 0;
    while (eq < line.size() && line[eq] != '=') ++eq;
    if (eq == line.size() || eq == 0) continue;
    bool ok = true;
    for (std::size_t i = 0; i < eq; ++i) ok = ok && name_char(line[i], i == 0);
    const std::string name = line.substr(0, eq);
    const bool recorded = name.rfind("NCCL_", 0) == 0 || name.rfind("NPKIT_", 0) == 0;
    if (ok && recorded) vars[name] = line.substr(eq + 1);
  }
  return vars;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  char name[] = "/tmp/fuzz_environment_XXXXXX";
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
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  auto file = read_environment_file(path);
  std::remove(name);
  if (!file) {
    check(file.error().message.compare(0, path.size(), path) == 0, "error does not name the file");
    return 0;
  }
  check(text.find('\0') == std::string_view::npos, "a file with a NUL byte was read");
  check(file->path == path, "the file's path is not the one read");
  check(file->variables == expected_variables(text), "variables differ from the second reading");

  RunConfig config;
  config.env["NCCL_ALGO"].insert("Ring");
  config.env["NPKIT_EVENTS"].insert("all");
  const RunConfig before = config;
  const auto conflicts = apply_environment(*file, config);
  std::size_t differing = 0;
  for (const auto& [key, value] : file->variables) {
    const auto was = before.env.find(key);
    if (was == before.env.end()) {
      check(config.env.at(key) == std::set<std::string>{value}, "a new variable not added");
    } else {
      check(config.env.at(key) == was->second, "a recorded value was replaced");
      differing += was->second.contains(value) ? 0 : 1;
    }
  }
  check(config.env.size() ==
            before.env.size() + file->variables.size() -
                (file->variables.count("NCCL_ALGO") + file->variables.count("NPKIT_EVENTS")),
        "variables other than the file's were added");
  check(conflicts.size() == differing, "not one conflict per differing value");
  for (const auto& c : conflicts) {
    check(c.compare(0, path.size(), path) == 0, "a conflict that does not name the file");
  }
  check(config.env_files.count(path) == 1, "the file is not among the environment files");
  return 0;
}
