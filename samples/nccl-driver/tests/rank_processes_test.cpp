// Process supervision and the shared-page barrier, exercised with real forked processes (no GPU).
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "control_page.hpp"
#include "rank_processes.hpp"

using npkit::driver::ControlPage;
using npkit::driver::kExitCheckFailed;
using npkit::driver::kExitFailure;
using npkit::driver::run_processes;
using npkit::driver::Supervision;

namespace {

ControlPage* fresh_page() {
  std::string error;
  ControlPage* page = npkit::driver::map_control_page(&error);
  REQUIRE(page != nullptr);
  return page;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Supervision supervised(int timeout_s, int grace_s = npkit::driver::kDefaultGraceSeconds) {
  Supervision supervision;
  supervision.name_of = npkit::driver::rank_name;
  supervision.timeout_s = timeout_s;
  supervision.grace_s = grace_s;
  return supervision;
}

}  // namespace

TEST_CASE("Barrier rounds keep four processes in step", "[nccl-driver]") {
  ControlPage* page = fresh_page();
  constexpr int kRanks = 4;
  constexpr int kRounds = 50;
  const int status = run_processes(kRanks, supervised(60), page, [page](int rank) {
    for (int round = 1; round <= kRounds; ++round) {
      page->ranks[rank].wrong = round;
      if (!npkit::driver::barrier(page, kRanks)) return 10;
      for (int peer = 0; peer < kRanks; ++peer) {
        if (page->ranks[peer].wrong != round) return 11;  // a peer ran ahead or lagged
      }
      if (!npkit::driver::barrier(page, kRanks)) return 12;
    }
    return 0;
  });
  CHECK(status == 0);
}

TEST_CASE("The unique id published by rank 0 reaches every rank", "[nccl-driver]") {
  ControlPage* page = fresh_page();
  const int status = run_processes(3, supervised(60), page, [page](int rank) {
    npkit::driver::UniqueIdBytes id{};
    if (rank == 0) {
      for (std::size_t i = 0; i < id.size(); ++i) id[i] = static_cast<unsigned char>(i * 7 + 1);
      usleep(100 * 1000);  // the others are already waiting
      npkit::driver::publish_unique_id(page, id);
      return 0;
    }
    if (!npkit::driver::wait_for_unique_id(page, &id)) return 20;
    for (std::size_t i = 0; i < id.size(); ++i) {
      if (id[i] != static_cast<unsigned char>(i * 7 + 1)) return 21;
    }
    return 0;
  });
  CHECK(status == 0);
}

TEST_CASE("A failing rank aborts the ranks waiting for it", "[nccl-driver]") {
  ControlPage* page = fresh_page();
  const auto start = std::chrono::steady_clock::now();
  const int status = run_processes(3, supervised(60), page, [page](int rank) {
    if (rank == 1) return 1;  // dies before the barrier, without touching the abort flag
    return npkit::driver::barrier(page, 3) ? 0 : 30;
  });
  CHECK(status == kExitFailure);
  CHECK(page->abort.load() == 1);
  // The waiters leave through the abort flag, well before the grace period would kill them.
  CHECK(seconds_since(start) < npkit::driver::kDefaultGraceSeconds / 2.0);
}

TEST_CASE("A rank stuck outside the barrier is killed after the grace period", "[nccl-driver]") {
  ControlPage* page = fresh_page();
  const auto start = std::chrono::steady_clock::now();
  Supervision supervision = supervised(60, 3);
  std::vector<std::string> notes;
  supervision.note = [&notes](const std::string& line) { notes.push_back(line); };
  const int status = run_processes(2, supervision, page, [](int rank) {
    if (rank == 0) return 1;
    pause();  // like a rank blocked inside NCCL: never looks at the abort flag
    return 0;
  });
  CHECK(status == kExitFailure);
  const double elapsed = seconds_since(start);
  CHECK(elapsed >= 3 - 0.5);
  CHECK(elapsed < 3 + 10.0);
  REQUIRE(notes.size() == 3);
  CHECK(notes[0] == "rank 0 exited with status 1");
  CHECK(notes[1] ==
        "still running 3 s (--grace-s) after another process ended; killing rank 1 "
        "with SIGKILL");
  CHECK(notes[2] == "rank 1 was killed by signal 9 (Killed) (killed by the driver)");
}

TEST_CASE("A rank that exits cleanly after its injected fault starts the grace period",
          "[nccl-driver]") {
  ControlPage* page = fresh_page();
  const auto start = std::chrono::steady_clock::now();
  Supervision supervision = supervised(60, 1);
  std::vector<std::string> notes;
  supervision.note = [&notes](const std::string& line) { notes.push_back(line); };
  const int status = run_processes(2, supervision, page, [page](int rank) {
    if (rank == 1) {
      page->ranks[1].fault_fired.store(1);  // the exit fault: status 0, the others left waiting
      return 0;
    }
    pause();
    return 0;
  });
  CHECK(status == kExitFailure);
  CHECK(seconds_since(start) < 1 + 10.0);
  REQUIRE(notes.size() == 3);
  CHECK(notes[0] == "rank 1 exited with status 0 after its injected fault");
  CHECK_THAT(notes[1], Catch::Contains("killing rank 0"));
  CHECK(notes[2] == "rank 0 was killed by signal 9 (Killed) (killed by the driver)");
}

TEST_CASE("Without a failure the ranks may wait past any grace period", "[nccl-driver]") {
  ControlPage* page = fresh_page();
  const auto start = std::chrono::steady_clock::now();
  // Rank 1 sleeps 2 s, longer than the 1 s grace; nobody failed, so nobody is killed.
  const int status = run_processes(2, supervised(60, 1), page, [](int rank) {
    if (rank == 1) sleep(2);
    return 0;
  });
  CHECK(status == 0);
  CHECK(seconds_since(start) >= 1.9);
}

TEST_CASE("The time limit kills every rank", "[nccl-driver]") {
  ControlPage* page = fresh_page();
  const auto start = std::chrono::steady_clock::now();
  const int status = run_processes(2, supervised(1), page, [](int) {
    pause();
    return 0;
  });
  CHECK(status == kExitFailure);
  const double elapsed = seconds_since(start);
  CHECK(elapsed >= 0.9);
  CHECK(elapsed < 10.0);
}

TEST_CASE("Wrong results alone give the check-failed status", "[nccl-driver]") {
  ControlPage* page = fresh_page();
  CHECK(run_processes(2, supervised(60), page, [](int rank) {
          return rank == 0 ? kExitCheckFailed : 0;
        }) == kExitCheckFailed);
  CHECK(page->abort.load() == 0);
  CHECK(run_processes(2, supervised(60), fresh_page(),
                      [](int rank) { return rank == 0 ? kExitCheckFailed : 1; }) == kExitFailure);
}

TEST_CASE("A rank killed by a signal is a failure, reported with the signal", "[nccl-driver]") {
  ControlPage* page = fresh_page();
  Supervision supervision = supervised(60);
  std::vector<std::string> notes;
  supervision.note = [&notes](const std::string& line) { notes.push_back(line); };
  CHECK(run_processes(1, supervision, page, [](int) {
          kill(getpid(), SIGKILL);
          return 0;
        }) == kExitFailure);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "rank 0 was killed by signal 9 (Killed)");
}
