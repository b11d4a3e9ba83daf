// npkit-analyze — entry point; everything happens in run_cli (cli.hpp).
#include <iostream>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli.hpp"

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // Readers and trace encoders on several threads allocate and free buffers of a few hundred KB
  // to a few MB each, many thousands of times. glibc would map and unmap each of them, and
  // unmapping in a threaded process interrupts every core: on 2 cores that made a trace 4×
  // slower (docs/performance.md). Keep them in the heap, and the heap's top.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv, argv + argc);
  return npkit::cli::run_cli(args, std::cout, std::cerr);
}
