#include "util/parallel_parts.hpp"

#include <system_error>
#include <thread>
#include <vector>

namespace npkit {

void run_parts(std::size_t n, const std::function<void(std::size_t)>& part) {
  std::vector<std::thread> threads;
  std::size_t started = 1;
  for (; started < n; ++started) {
    try {
      threads.emplace_back(part, started);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: this thread does the rest
    }
  }
  if (n > 0) part(0);
  for (std::size_t i = started; i < n; ++i) part(i);
  for (auto& t : threads) t.join();
}

}  // namespace npkit
