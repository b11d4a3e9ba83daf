// without_threads.hpp — runs a piece of a test in a child process on which the host refuses to
// start threads, as a host at its process limit does.
// Contract: run_without_threads(body) forks; the child drops root to user nobody (root is exempt
// from the limit), sets RLIMIT_NPROC to 1, makes sure that starting a std::thread now fails, and
// runs body. It returns body's answer ("" = passed, else what failed), or why the child could not
// run it (the limit could not be set, a thread still started, an exception, a signal). The child
// can read only what nobody may: inputs go in a directory made readable first (readable_copy).
#pragma once

#include <functional>
#include <string>

namespace npkit::test {

std::string run_without_threads(const std::function<std::string()>& body);

// Copies `from` (a file or directory tree) into a new directory under `tmp_dir` that everyone may
// read, and returns the copy's path.
std::string readable_copy(const std::string& from, const std::string& tmp_dir);

}  // namespace npkit::test
