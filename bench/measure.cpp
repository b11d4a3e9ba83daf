// measure.cpp — runs a command N times and reports its wall time and peak resident memory.
// Contract: each run is fork + execvp of the command with stdout sent to `--stdout FILE`
// (default /dev/null; stderr is kept), timed with steady_clock around fork..wait4, and its peak
// RSS is the child's ru_maxrss from wait4 (Linux: KiB, the high-water mark of the exec'd
// program; the launcher itself is a few MiB and only shows if the command is smaller).
// Output is `key=value` lines, one per run and a summary (wall best/median/worst, CPU = user +
// sys best/median, RSS min/median/max), so scripts can parse it. A run that exits non-zero ends the
// series; the exit status is then that run's status (or 128 + signal), else 0. POSIX only.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Sample {
  double wall_s = 0;
  double user_s = 0;
  double sys_s = 0;
  long maxrss_kib = 0;
  int status = 0;  // exit code, or 128 + signal
};

double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6;
}

bool run_once(char** argv, const std::string& stdout_path, Sample& out) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(stderr, "npkit_measure: fork: %s\n", std::strerror(errno));
    return false;
  }
  if (pid == 0) {
    const int fd = ::open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) {
      std::fprintf(stderr, "npkit_measure: cannot open %s: %s\n", stdout_path.c_str(),
                   std::strerror(errno));
      ::_exit(126);
    }
    ::execvp(argv[0], argv);
    std::fprintf(stderr, "npkit_measure: cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  int status = 0;
  rusage ru{};
  while (::wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "npkit_measure: wait4: %s\n", std::strerror(errno));
      return false;
    }
  }
  const auto end = std::chrono::steady_clock::now();
  out.wall_s = std::chrono::duration<double>(end - start).count();
  out.user_s = seconds(ru.ru_utime);
  out.sys_s = seconds(ru.ru_stime);
  out.maxrss_kib = ru.ru_maxrss;
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return true;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void usage(std::FILE* to) {
  std::fprintf(to,
               "usage: npkit_measure [--repeat N] [--stdout FILE] -- COMMAND [ARGS...]\n"
               "Runs COMMAND N times (default 3); prints per run and in summary: wall seconds,\n"
               "user/sys CPU seconds, peak RSS (KiB, from wait4's ru_maxrss) and exit status.\n");
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  std::string stdout_path = "/dev/null";
  int i = 1;
  for (; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    }
    if ((a == "--repeat" || a == "--stdout") && i + 1 < argc) {
      const std::string_view v = argv[++i];
      if (a == "--stdout") {
        stdout_path = v;
        continue;
      }
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), repeat);
      if (ec != std::errc() || end != v.data() + v.size() || repeat < 1) {
        std::fprintf(stderr, "npkit_measure: --repeat: expected a positive integer\n");
        return 2;
      }
      continue;
    }
    usage(stderr);
    return 2;
  }
  if (i >= argc) {
    usage(stderr);
    return 2;
  }
  char** command = argv + i;

  std::vector<Sample> samples;
  int first_failure = 0;
  for (int r = 1; r <= repeat; ++r) {
    Sample s;
    if (!run_once(command, stdout_path, s)) return 2;
    std::printf("run=%d wall_s=%.6f user_s=%.3f sys_s=%.3f maxrss_kib=%ld status=%d\n", r, s.wall_s,
                s.user_s, s.sys_s, s.maxrss_kib, s.status);
    std::fflush(stdout);
    samples.push_back(s);
    if (s.status != 0) {  // a failing command is not measured further
      first_failure = s.status;
      break;
    }
  }
  std::vector<double> wall, cpu, rss;
  for (const auto& s : samples) {
    wall.push_back(s.wall_s);
    cpu.push_back(s.user_s + s.sys_s);
    rss.push_back(static_cast<double>(s.maxrss_kib));
  }
  std::printf(
      "summary runs=%d best_wall_s=%.6f median_wall_s=%.6f worst_wall_s=%.6f best_cpu_s=%.3f "
      "median_cpu_s=%.3f min_maxrss_kib=%.0f median_maxrss_kib=%.0f max_maxrss_kib=%.0f "
      "status=%d\n",
      static_cast<int>(samples.size()), *std::min_element(wall.begin(), wall.end()), median(wall),
      *std::max_element(wall.begin(), wall.end()), *std::min_element(cpu.begin(), cpu.end()),
      median(cpu), *std::min_element(rss.begin(), rss.end()), median(rss),
      *std::max_element(rss.begin(), rss.end()), first_failure);
  return first_failure;
}
