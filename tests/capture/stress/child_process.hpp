// child_process.hpp — runs part of a test in a forked child process, for what must not happen in
// the test process itself: a file-size limit, a crash, a kill.
//
// Contract:
// - run_in_child() forks; the child runs `body(report)` and then ends with _exit (no atexit
//   handler, no library destructor, no Catch2 call): status 0, or 1 when the body reported a
//   failure or threw. Fatal signals have their default action there, so a crash ends the child.
//   `report` lines reach the parent at once through a pipe, so whatever was reported before a
//   crash or a kill is kept.
// - The parent waits for the child and returns how it ended and every reported line.
// - The body must not use Catch2 (CHECK/REQUIRE): it reports through ChildReport instead.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace npkit::test {

class ChildReport {
 public:
  explicit ChildReport(int fd) : fd_(fd) {}
  // A failed expectation: the child will exit with status 1.
  void fail(const std::string& what);
  // Progress, for the failure message of the parent's checks.
  void note(const std::string& what);
  bool failed() const { return failed_; }

 private:
  void write_line(const std::string& line);
  int fd_;
  bool failed_ = false;
};

struct ChildOutcome {
  bool exited = false;  // ended with _exit / exit
  int exit_code = -1;
  int signal = 0;  // the signal that ended it, when !exited
  std::vector<std::string> lines;

  std::vector<std::string> failures() const;  // lines reported by ChildReport::fail
  std::string text() const;                   // every line, for INFO()
};

ChildOutcome run_in_child(const std::function<void(ChildReport&)>& body);

}  // namespace npkit::test
