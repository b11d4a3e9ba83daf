// SIGXFSZ held off a thread that writes past RLIMIT_FSIZE: the write fails with EFBIG, the
// process lives, and the thread's signal mask is as it was. Run in a forked child (the limit and
// the signal must not reach the test process).
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <string>

#include "capture/stress/child_process.hpp"
#include "recorder/file_size_signal.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

bool xfsz_blocked() {
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  return sigismember(&mask, SIGXFSZ) == 1;
}

TEST_CASE("file size signal: a write past RLIMIT_FSIZE fails with EFBIG instead of killing",
          "[capture]") {
  TempDir dir;
  const std::string path = dir.file("big");
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    rlimit limit{};
    ::getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = 4096;
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) report.fail("setrlimit failed");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    const char bytes[8192] = {};
    int error = 0;
    {
      const capture::BlockedFileSizeSignal guard;
      if (!xfsz_blocked()) report.fail("SIGXFSZ not blocked inside the guard");
      if (::pwrite(fd, bytes, sizeof(bytes), 0) != 4096) report.fail("first write not short");
      if (::pwrite(fd, bytes, sizeof(bytes), 4096) >= 0) report.fail("second write succeeded");
      error = errno;
    }
    if (error != EFBIG) report.fail("errno " + std::to_string(error) + ", expected EFBIG");
    if (xfsz_blocked()) report.fail("SIGXFSZ still blocked after the guard");
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGXFSZ) == 1) report.fail("SIGXFSZ left pending");
    ::close(fd);
    report.note("alive");
  });
  INFO(child.text());
  CHECK(child.signal == 0);
  CHECK(child.exit_code == 0);
  CHECK(child.failures().empty());
  CHECK_THAT(child.text(), Catch::Contains("alive"));
}

}  // namespace
}  // namespace npkit::test
