#include "recorder/file_size_signal.hpp"

#include <pthread.h>

#include <ctime>

namespace npkit::capture {
namespace {

sigset_t file_size_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGXFSZ);
  return set;
}

}  // namespace

BlockedFileSizeSignal::BlockedFileSizeSignal() noexcept {
  const sigset_t set = file_size_signal_set();
  blocked_ = pthread_sigmask(SIG_BLOCK, &set, &previous_) == 0;
}

BlockedFileSizeSignal::~BlockedFileSizeSignal() {
  if (!blocked_) return;
  if (sigismember(&previous_, SIGXFSZ) == 0) {
    sigset_t pending;
    if (sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1) {
      const sigset_t set = file_size_signal_set();
      const timespec now{0, 0};
      sigtimedwait(&set, nullptr, &now);
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace npkit::capture
