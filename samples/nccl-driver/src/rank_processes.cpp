#include "rank_processes.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace npkit::driver {
namespace {

volatile sig_atomic_t g_stop_signal = 0;

void remember_signal(int signal_number) {
  g_stop_signal = signal_number;
}

// SIGINT and SIGTERM are remembered while the children run; the previous handlers come back after.
class StopSignalScope {
 public:
  StopSignalScope() {
    g_stop_signal = 0;
    struct sigaction action {};
    action.sa_handler = remember_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous_int_);
    sigaction(SIGTERM, &action, &previous_term_);
  }
  ~StopSignalScope() {
    sigaction(SIGINT, &previous_int_, nullptr);
    sigaction(SIGTERM, &previous_term_, nullptr);
  }
  StopSignalScope(const StopSignalScope&) = delete;
  StopSignalScope& operator=(const StopSignalScope&) = delete;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  }
  return "ended with wait status " + std::to_string(status);
}

struct Child {
  pid_t pid = -1;
  bool running = false;
  int status = 0;
};

void kill_running(std::vector<Child>& children, int signal_number) {
  for (const Child& child : children) {
    if (child.running) kill(child.pid, signal_number);
  }
}

// Reaps every child that has ended; returns how many are still running.
int reap(std::vector<Child>& children) {
  int running = 0;
  for (Child& child : children) {
    if (!child.running) continue;
    int status = 0;
    const pid_t done = waitpid(child.pid, &status, WNOHANG);
    if (done == child.pid || (done < 0 && errno == ECHILD)) {
      child.running = false;
      child.status = done == child.pid ? status : 0;
    } else {
      ++running;
    }
  }
  return running;
}

void pause_polling() {
  const timespec interval{0, 20 * 1000 * 1000};  // 20 ms
  nanosleep(&interval, nullptr);
}

bool succeeded(const Child& child) {
  return WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0;
}

bool only_check_failed(const Child& child) {
  return WIFEXITED(child.status) && WEXITSTATUS(child.status) == kExitCheckFailed;
}

}  // namespace

std::string rank_name(int index) {
  return "rank " + std::to_string(index);
}

int run_processes(int count, const Supervision& supervision, ControlPage* page,
                  const std::function<int(int index)>& body) {
  const auto report = [&](const std::string& message) {
    std::fprintf(stderr, "npkit-nccl-driver: %s\n", message.c_str());
    if (supervision.note) supervision.note(message);
  };
  const auto name_of = [&](std::size_t index) {
    return supervision.name_of(static_cast<int>(index));
  };
  const StopSignalScope stop_signals;
  const pid_t parent = getpid();
  std::vector<Child> children(static_cast<std::size_t>(count));
  for (int index = 0; index < count; ++index) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
      report("fork for " + supervision.name_of(index) + " failed: " + std::strerror(errno));
      page->abort.store(1, std::memory_order_release);
      kill_running(children, SIGKILL);
      while (reap(children) > 0) pause_polling();
      return kExitFailure;
    }
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(kExitFailure);
      signal(SIGINT, SIG_DFL);
      signal(SIGTERM, SIG_DFL);
      const int code = body(index);
      // A normal exit, as a training process ends: library destructors run, so a profiler plugin
      // can write the communicators that were never destroyed (--no-destroy).
      std::exit(code);
    }
    children[static_cast<std::size_t>(index)] = Child{pid, true, 0};
  }

  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(supervision.timeout_s);
  Clock::time_point grace_end = Clock::time_point::max();
  bool grace_started = false;
  bool killed = false;
  std::vector<bool> reported(children.size(), false);
  std::vector<bool> killed_by_parent(children.size(), false);
  int result = 0;
  while (true) {
    const int running = reap(children);
    for (std::size_t index = 0; index < children.size(); ++index) {
      const Child& child = children[index];
      if (child.running || reported[index]) continue;
      reported[index] = true;
      const bool fault = index < static_cast<std::size_t>(kMaxRanks) &&
                         page->ranks[index].fault_fired.load(std::memory_order_acquire) != 0;
      if (!fault && succeeded(child)) continue;
      if (!fault && only_check_failed(child)) {
        if (result == 0) result = kExitCheckFailed;
        continue;
      }
      report(name_of(index) + " " + describe_status(child.status) +
             (fault ? " after its injected fault" : "") +
             (killed_by_parent[index] ? " (killed by the driver)" : ""));
      if (!succeeded(child)) result = kExitFailure;
      if (!grace_started) {
        grace_started = true;
        page->abort.store(1, std::memory_order_release);
        grace_end = Clock::now() + std::chrono::seconds(supervision.grace_s);
      }
    }
    if (running == 0) break;
    if (killed) {
      pause_polling();
      continue;
    }
    const Clock::time_point now = Clock::now();
    std::string why;
    if (g_stop_signal != 0) {
      why = std::string("received ") + strsignal(g_stop_signal);
    } else if (now >= deadline) {
      why = "time limit of " + std::to_string(supervision.timeout_s) + " s (--timeout-s) reached";
    } else if (now >= grace_end) {
      why = "still running " + std::to_string(supervision.grace_s) +
            " s (--grace-s) after another process ended";
    }
    if (!why.empty()) {
      std::string names;
      for (std::size_t index = 0; index < children.size(); ++index) {
        if (!children[index].running) continue;
        names += (names.empty() ? "" : ", ") + name_of(index);
        killed_by_parent[index] = true;
      }
      report(why + "; killing " + names + " with SIGKILL");
      page->abort.store(1, std::memory_order_release);
      kill_running(children, SIGKILL);
      killed = true;
      result = kExitFailure;
      continue;
    }
    pause_polling();
  }
  return result;
}

}  // namespace npkit::driver
