#include "recorder/buffer_extender.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "recorder/record_buffer.hpp"

namespace npkit::capture {
namespace {

constexpr std::chrono::milliseconds kPeriod{1};

// Never freed: the thread may still run while the process exits.
struct Extender {
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable looping;
  std::vector<RecordBuffer*> watched;
  bool running = false;  // the thread was started
  bool in_loop = false;  // and has entered its loop
};

Extender* g_extender = nullptr;

// The extender's state; fork() takes its lock around itself, and a child starts from a fresh
// state (its parent's thread, and whatever it waited on, do not exist there).
Extender& extender() {
  static const bool made = [] {
    g_extender = new Extender();
    pthread_atfork([] { g_extender->mutex.lock(); }, [] { g_extender->mutex.unlock(); },
                   [] { g_extender = new Extender(); });
    return true;
  }();
  (void)made;
  return *g_extender;
}

void run(Extender* state) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  std::unique_lock<std::mutex> lock(state->mutex);
  state->in_loop = true;
  state->looping.notify_all();
  for (;;) {
    if (state->watched.empty()) {
      state->wake.wait(lock);
    } else {
      state->wake.wait_for(lock, kPeriod);
    }
    for (RecordBuffer* buffer : state->watched) buffer->extend_ahead_of_writers();
  }
}

}  // namespace

void watch_buffer(RecordBuffer* buffer) {
  Extender& state = extender();
  std::unique_lock<std::mutex> lock(state.mutex);
  if (!state.running) {
    try {
      std::thread(run, &state).detach();
      state.running = true;
    } catch (...) {  // no thread: writers extend the buffers themselves
      return;
    }
  }
  // Until the thread is in its loop it may be inside the allocator (a sanitizer's thread start
  // allocates); a fork() then would hand the child a lock that no thread releases.
  state.looping.wait(lock, [&] { return state.in_loop; });
  state.watched.push_back(buffer);
  state.wake.notify_one();
}

void unwatch_buffer(RecordBuffer* buffer) {
  Extender& state = extender();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.watched.erase(std::remove(state.watched.begin(), state.watched.end(), buffer),
                      state.watched.end());
}

}  // namespace npkit::capture
