// recorder/file_size_signal.hpp — SIGXFSZ held off the calling thread while the capture writes a
// file, so that a write past RLIMIT_FSIZE fails with EFBIG instead of ending the process
// (SIGXFSZ's default action, taken on the training job).
//
// Contract:
// - A BlockedFileSizeSignal blocks SIGXFSZ on the calling thread (pthread_sigmask) for its
//   lifetime. Its destructor consumes a SIGXFSZ left pending meanwhile (the kernel raises it at
//   the thread whose write went past the limit), then restores the thread's previous mask. A
//   thread that already blocked SIGXFSZ keeps its pending signal: it was not the capture's.
// - Use one around every write, extension (posix_fallocate) and close of a capture file; the
//   writes themselves see EFBIG.
#pragma once

#include <signal.h>

namespace npkit::capture {

class BlockedFileSizeSignal {
 public:
  BlockedFileSizeSignal() noexcept;
  ~BlockedFileSizeSignal();
  BlockedFileSizeSignal(const BlockedFileSizeSignal&) = delete;
  BlockedFileSizeSignal& operator=(const BlockedFileSizeSignal&) = delete;

 private:
  sigset_t previous_;
  bool blocked_ = false;
};

}  // namespace npkit::capture
