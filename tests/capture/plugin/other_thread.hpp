// other_thread.hpp — runs a piece of a test on a separate, named OS thread (as NCCL's proxy or
// host-callback threads call the plugin) while the test thread waits for it.
// Contract: `name` (at most 15 characters) is set with pthread_setname_np before `body` runs; the
// call returns when the thread has finished, rethrowing on the test thread whatever `body` threw
// (a failed REQUIRE included), so calls on the two threads never overlap.
#pragma once

#include <pthread.h>

#include <exception>
#include <string>
#include <thread>
#include <utility>

namespace npkit::test {

template <typename Body>
void run_on_other_thread(const std::string& name, Body&& body) {
  std::exception_ptr failure;
  std::thread thread([&] {
    ::pthread_setname_np(::pthread_self(), name.c_str());
    try {
      body();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace npkit::test
