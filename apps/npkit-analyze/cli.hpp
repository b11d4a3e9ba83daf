// cli.hpp — the npkit-analyze command line, callable in-process (main and the golden tests).
// Contract: run_cli parses `args` (args[0] is the program name), runs one subcommand, writes
// results to `out` and messages to `err`, and returns the exit code: 0 ok, 1 a finding the user
// asked to fail on, 2 bad usage or unreadable input. It never throws: this is the program's one
// error boundary.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace npkit::cli {

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace npkit::cli
