// thread_barrier.hpp — a reusable barrier for the rank threads, with an abort for errors.
//
// Contract: arrive_and_wait() blocks until `parties` threads arrived in the current generation
// and returns true; after abort() every waiting and later call returns false at once, so one rank's
// failure ends all ranks instead of leaving them waiting.
#pragma once

#include <condition_variable>
#include <mutex>

namespace device_collectives {

class ThreadBarrier {
 public:
  explicit ThreadBarrier(int parties) : parties_(parties) {}

  bool arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (aborted_) return false;
    const unsigned long generation = generation_;
    if (++arrived_ == parties_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return true;
    }
    changed_.wait(lock, [&] { return aborted_ || generation_ != generation; });
    return !aborted_;
  }

  void abort() {
    std::lock_guard<std::mutex> lock(mutex_);
    aborted_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  const int parties_;
  int arrived_ = 0;
  unsigned long generation_ = 0;
  bool aborted_ = false;
};

}  // namespace device_collectives
