// npkit-analyze — entry point; everything happens in run_cli (cli.hpp).
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv, argv + argc);
  return npkit::cli::run_cli(args, std::cout, std::cerr);
}
