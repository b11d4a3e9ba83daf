// replay_main.cpp — runs a fuzz target's corpus as an ordinary program (any compiler, no
// libFuzzer): every regular file in the directories (or the files) named on the command line is
// fed once to LLVMFuzzerTestOneInput, in name order.
//   replay_fuzz_<target> [--expect N] CORPUS_DIR_OR_FILE...
// A crash or sanitizer report fails the run, and so does a replay that tested less than it was
// given: no input at all, a directory that cannot be listed to its end or holds an entry that is
// not a regular file (every entry of a corpus is an input), or, with --expect, another number of
// inputs than N (the corpus size the build counted).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

bool replay(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  // A heap copy of exactly the input's size, so AddressSanitizer sees reads past its end.
  std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
  return true;
}

// The inputs of a corpus directory, in name order; false (with a message) when the listing fails
// or an entry is not a regular file.
bool list_corpus(const fs::path& dir, std::vector<fs::path>& inputs) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || ec) {
      std::fprintf(stderr, "replay: FAILED: %s is not a regular file: not an input\n",
                   it->path().c_str());
      return false;
    }
    inputs.push_back(it->path());
  }
  if (ec) {
    std::fprintf(stderr, "replay: FAILED: cannot list %s: %s\n", dir.c_str(), ec.message().c_str());
    return false;
  }
  std::sort(inputs.begin(), inputs.end());
  return true;
}

bool parse_count(const char* text, std::size_t& out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') return false;
  out = static_cast<std::size_t>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int first = 1;
  std::optional<std::size_t> expected;
  if (argc > 2 && std::string(argv[1]) == "--expect") {
    std::size_t n = 0;
    if (!parse_count(argv[2], n)) {
      std::fprintf(stderr, "replay: --expect %s: expected a number of inputs\n", argv[2]);
      return 2;
    }
    expected = n;
    first = 3;
  }
  if (argc <= first) {
    std::fprintf(stderr, "usage: %s [--expect N] CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  std::size_t replayed = 0;
  for (int i = first; i < argc; ++i) {
    const fs::path arg = argv[i];
    std::vector<fs::path> inputs;
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      if (!list_corpus(arg, inputs)) return 1;
    } else if (fs::is_regular_file(arg, ec)) {
      inputs.push_back(arg);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 2;
    }
    for (const auto& p : inputs) {
      if (!replay(p)) return 2;
      ++replayed;
    }
  }
  if (replayed == 0) {
    std::fprintf(stderr, "replay: FAILED: no inputs found\n");
    return 1;
  }
  if (expected && replayed != *expected) {
    std::printf(
        "replay: FAILED: %zu input(s) replayed, %zu expected (the corpus the build "
        "counted; reconfigure after adding or removing inputs)\n",
        replayed, *expected);
    return 1;
  }
  std::printf("replay: %zu input(s) ran without a failure\n", replayed);
  return 0;
}
