// hostile_run.hpp — runs npkit-analyze in-process on an input made for a hostile-input case and
// returns what a user sees, with the scratch directory's path replaced by "$DIR" so expected
// messages can be written out in full.
// Contract: run_hostile(tmp, args) runs the command line `args` (each "$DIR" in an argument is
// replaced by tmp.path() first) and returns the exit code, standard output and standard error,
// where every occurrence of tmp.path() is spelled "$DIR".
#pragma once

#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {

inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

inline CliRun run_hostile(const TempDir& tmp, std::vector<std::string> args) {
  for (std::string& arg : args) arg = replace_all(arg, "$DIR", tmp.path());
  CliRun run = run_cli(args);
  run.out = replace_all(run.out, tmp.path(), "$DIR");
  run.err = replace_all(run.err, tmp.path(), "$DIR");
  return run;
}

}  // namespace npkit::test
