// cli_runner.hpp — runs npkit-analyze in-process, as the golden and real-data tests do.
// Contract: returns the exit code and everything written to standard output and error.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace npkit::test {

struct CliRun {
  int exit_code = 0;
  std::string out;
  std::string err;
};

inline CliRun run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "npkit-analyze");
  std::ostringstream out;
  std::ostringstream err;
  CliRun run;
  run.exit_code = npkit::cli::run_cli(args, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

}  // namespace npkit::test
