// memory_limit.hpp — runs a hostile case in a child process under an address-space limit, so a
// memory bomb shows as refused within the limit (or as "out of memory reading X") instead of as a
// test host that swaps for minutes.
// Contract: run_hostile_limited(tmp, args, headroom) forks; the child limits its address space
// (RLIMIT_AS) to what the process maps at the fork plus `headroom` bytes, runs run_hostile(tmp,
// args) and sends the CliRun back through a pipe; the parent returns it (exit code 99 and the
// reason in `err` when the child died instead). Under AddressSanitizer or ThreadSanitizer no limit
// is set — their shadow memory reserves terabytes of address space, which RLIMIT_AS would refuse —
// so there a case checks only the message and the exit code: kAddressSpaceLimited says which.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "hostile/hostile_run.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NPKIT_TEST_SHADOW_MEMORY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NPKIT_TEST_SHADOW_MEMORY 1
#endif
#endif

namespace npkit::test {

#ifdef NPKIT_TEST_SHADOW_MEMORY
inline constexpr bool kAddressSpaceLimited = false;
#else
inline constexpr bool kAddressSpaceLimited = true;
#endif

// The bytes this process maps now (/proc/self/statm's first field, in pages).
inline std::uint64_t mapped_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (f != nullptr) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

inline void write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

inline CliRun run_hostile_limited(const TempDir& tmp, std::vector<std::string> args,
                                  std::uint64_t headroom = std::uint64_t{100} << 20) {
  int fds[2];
  if (::pipe(fds) != 0) return {99, "", "pipe failed"};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return {99, "", "fork failed"};
  if (pid == 0) {
    ::close(fds[0]);
    if (kAddressSpaceLimited) {
      const rlimit limit{mapped_bytes() + headroom, mapped_bytes() + headroom};
      if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(98);
    }
    const CliRun run = run_hostile(tmp, std::move(args));
    // exit code, then the sizes of out and err, then both.
    write_all(fds[1], std::to_string(run.exit_code) + " " + std::to_string(run.out.size()) + " " +
                          std::to_string(run.err.size()) + "\n" + run.out + run.err);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string got;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) got.append(buffer, n);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CliRun run;
  std::size_t out_size = 0;
  std::size_t err_size = 0;
  const std::size_t newline = got.find('\n');
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || newline == std::string::npos ||
      std::sscanf(got.c_str(), "%d %zu %zu", &run.exit_code, &out_size, &err_size) != 3 ||
      got.size() != newline + 1 + out_size + err_size) {
    return {99, "", "the child died (status " + std::to_string(status) + ")"};
  }
  run.out = got.substr(newline + 1, out_size);
  run.err = got.substr(newline + 1 + out_size, err_size);
  return run;
}

}  // namespace npkit::test
