#include "capture/stress/child_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <exception>

namespace npkit::test {
namespace {

constexpr const char* kFailPrefix = "FAIL: ";

}  // namespace

void ChildReport::write_line(const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

void ChildReport::fail(const std::string& what) {
  failed_ = true;
  write_line(kFailPrefix + what);
}

void ChildReport::note(const std::string& what) {
  write_line(what);
}

std::vector<std::string> ChildOutcome::failures() const {
  std::vector<std::string> out;
  for (const std::string& line : lines) {
    if (line.rfind(kFailPrefix, 0) == 0) out.push_back(line);
  }
  return out;
}

std::string ChildOutcome::text() const {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

ChildOutcome run_in_child(const std::function<void(ChildReport&)>& body) {
  ChildOutcome outcome;
  int fds[2];
  if (::pipe(fds) != 0) {
    outcome.lines.push_back("FAIL: pipe() failed");
    return outcome;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    outcome.lines.push_back("FAIL: fork() failed");
    return outcome;
  }
  if (pid == 0) {
    // Catch2's fatal-signal handlers report through the test binary's reporter, which allocates:
    // in a child that faulted inside malloc they would deadlock instead of ending it.
    for (const int fatal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) ::signal(fatal, SIG_DFL);
    ::close(fds[0]);
    ChildReport report(fds[1]);
    try {
      body(report);
    } catch (const std::exception& e) {
      report.fail(std::string("exception: ") + e.what());
    } catch (...) {
      report.fail("unknown exception");
    }
    ::_exit(report.failed() ? 1 : 0);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.exited = WIFEXITED(status);
  if (outcome.exited) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    outcome.lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return outcome;
}

}  // namespace npkit::test
