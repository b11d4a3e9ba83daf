// options.hpp — the command line of npkit-device-collectives.
//
// Contract: parse_options() fills *out from argv or returns false with *error naming the bad
// argument (an unknown option, a missing or malformed value, a size that is not a positive
// multiple of 16 bytes). "--help" sets out->help and returns true. Sizes: a comma list of byte
// counts with optional K, M or G (powers of 1024), each item either one size or "A..B" for A,
// 2A, 4A, ... up to B; duplicates are kept once, in ascending order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace device_collectives {

struct Options {
  std::vector<uint64_t> sizes{64ull << 10, 1ull << 20, 16ull << 20, 256ull << 20};
  bool allreduce = true;
  bool alltoall = true;
  int iters = 20;
  int warmup = 2;
  int gpus = 0;  // 0: every visible GPU
  int blocks = 32;
  int threads = 512;
  double timeout_s = 20;
  std::string dump_dir;  // "": no dump
  std::string csv;       // "": no CSV
  bool help = false;
};

bool parse_sizes(const std::string& text, std::vector<uint64_t>* sizes, std::string* error);
bool parse_options(int argc, const char* const* argv, Options* out, std::string* error);
std::string usage_text(const char* program);

}  // namespace device_collectives
