#include "support/without_threads.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <exception>
#include <filesystem>
#include <system_error>
#include <thread>

namespace npkit::test {
namespace {

constexpr uid_t kNobody = 65534;

// In the child: what keeps the test from running, "" when threads are refused.
std::string refuse_threads() {
  if (::geteuid() == 0 && (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)) {
    return "could not drop root to user nobody";
  }
  const rlimit one{1, 1};
  if (::setrlimit(RLIMIT_NPROC, &one) != 0) return "could not set RLIMIT_NPROC";
  try {
    std::thread probe([] {});
    probe.join();
    return "a thread still started under RLIMIT_NPROC = 1";
  } catch (const std::system_error&) {
    return "";
  }
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::string run_without_threads(const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child < 0) return "fork failed";
  if (child == 0) {
    ::close(fds[0]);
    std::string answer = refuse_threads();
    if (answer.empty()) {
      try {
        answer = body();
      } catch (const std::exception& e) {
        answer = std::string("exception: ") + e.what();
      }
    }
    write_all(fds[1], answer.empty() ? "ok" : answer);
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) {
    answer.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (!WIFEXITED(status)) return "the child died (status " + std::to_string(status) + ")";
  if (answer.empty()) return "the child said nothing";
  return answer == "ok" ? "" : answer;
}

std::string readable_copy(const std::string& from, const std::string& tmp_dir) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(tmp_dir) / "readable";
  fs::create_directories(dir);
  const fs::path to = dir / fs::path(from).filename();
  fs::copy(from, to, fs::copy_options::recursive);
  for (fs::path p = dir; p != fs::path(tmp_dir).parent_path(); p = p.parent_path()) {
    fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  }
  return to.string();
}

}  // namespace npkit::test
