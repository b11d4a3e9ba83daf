// util/ordered_jobs.hpp — numbered jobs run on several threads, their results handed on in order.
// Contract: run_in_order(n, threads, window, produce, consume) calls produce(i) (a Result<T>) for
// every i in [0, n) on `threads` worker threads, and consume(i, T&) (a Status) on the calling
// thread in increasing i, each as soon as result i is ready. No job starts `window` or more
// places ahead of the next result to consume, so at most `window` results are held at once
// (window is raised to `threads`). With threads ≤ 1 every job runs on the calling thread, each
// consumed before the next starts; so it does when the host refuses to start any worker thread
// (fewer started than asked for: those do the jobs). The first failure in order (of produce(i) or
// consume(i)) stops the jobs not yet started and is returned; results after it are dropped.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

#include "util/result.hpp"

namespace npkit {

template <typename T, typename Produce, typename Consume>
Status run_in_order_here(std::size_t n, Produce& produce, Consume& consume) {
  for (std::size_t i = 0; i < n; ++i) {
    NPKIT_ASSIGN(T result, produce(i));
    NPKIT_TRY(consume(i, result));
  }
  return Ok{};
}

template <typename T, typename Produce, typename Consume>
Status run_in_order(std::size_t n, unsigned threads, std::size_t window, Produce produce,
                    Consume consume) {
  if (threads <= 1 || n <= 1) return run_in_order_here<T>(n, produce, consume);
  window = std::max<std::size_t>(window, threads);
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::optional<Result<T>>> slots(window);  // result i in slot i % window
  std::size_t next_job = 0;
  std::size_t next_result = 0;  // the next result to consume
  bool stopping = false;

  const auto work = [&] {
    std::unique_lock lock(mutex);
    while (true) {
      changed.wait(lock,
                   [&] { return stopping || next_job >= n || next_job < next_result + window; });
      if (stopping || next_job >= n) return;
      const std::size_t i = next_job++;
      lock.unlock();
      Result<T> result = produce(i);
      lock.lock();
      slots[i % window].emplace(std::move(result));
      changed.notify_all();
    }
  };
  std::vector<std::thread> workers;
  try {
    for (unsigned t = 0; t < std::min<std::size_t>(threads, n); ++t) workers.emplace_back(work);
  } catch (const std::system_error&) {
    // No more threads to be had: those started do the jobs.
  }
  if (workers.empty()) return run_in_order_here<T>(n, produce, consume);

  Status status = Ok{};
  for (std::size_t i = 0; i < n && status; ++i) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return slots[i % window].has_value(); });
    Result<T> result = std::move(*slots[i % window]);
    slots[i % window].reset();
    lock.unlock();
    if (!result) {
      status = result.error();
    } else {
      status = consume(i, *result);
    }
    lock.lock();
    next_result = i + 1;
    if (!status) stopping = true;
    changed.notify_all();
  }
  for (auto& w : workers) w.join();
  return status;
}

}  // namespace npkit
