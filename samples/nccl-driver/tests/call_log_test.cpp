// The calls and events logs: row formats, and rows that are in the file as soon as written.
#include <catch2/catch.hpp>

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "call_log.hpp"

using npkit::driver::CallPhase;
using npkit::driver::CallRow;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string temporary_dir() {
  char pattern[] = "/tmp/npkit-call-log-XXXXXX";
  REQUIRE(mkdtemp(pattern) != nullptr);
  return pattern;
}

}  // namespace

TEST_CASE("Call rows carry the agreed columns; gpu_us stays empty until known", "[nccl-driver]") {
  CHECK(npkit::driver::call_log_header() ==
        "rank,call,coll,size_bytes,count,phase,host_call_ns,host_return_ns,gpu_us\n");
  CallRow row;
  row.rank = 1;
  row.call = 12;
  row.coll = "allreduce";
  row.size_bytes = 1048576;
  row.count = 262144;
  row.phase = CallPhase::kLoop;
  row.host_call_ns = 1733350000123456789;
  row.host_return_ns = 1733350000123466789;
  CHECK(npkit::driver::call_log_row(row) ==
        "1,12,allreduce,1048576,262144,loop,1733350000123456789,1733350000123466789,\n");
  row.gpu_us = 4512.25;
  row.phase = CallPhase::kCheck;
  CHECK(npkit::driver::call_log_row(row) ==
        "1,12,allreduce,1048576,262144,check,1733350000123456789,1733350000123466789,4512.250\n");
  CHECK(npkit::driver::phase_name(CallPhase::kWarmup) == "warmup");
  CHECK(npkit::driver::phase_name(CallPhase::kTimed) == "timed");
  CHECK(npkit::driver::phase_name(CallPhase::kCost) == "cost");
}

TEST_CASE("Event lines start with the realtime clock and who wrote them", "[nccl-driver]") {
  CHECK(npkit::driver::event_line(42, "rank3", "fault_kill call=10") ==
        "42 rank3 fault_kill call=10\n");
  const std::int64_t now = npkit::driver::realtime_now_ns();
  CHECK(now > 1600000000LL * 1000000000LL);  // after 2020
}

TEST_CASE("Log files hold every line written, without any flush or close", "[nccl-driver]") {
  const std::string dir = temporary_dir() + "/a/b";
  std::string error;
  REQUIRE(npkit::driver::make_directories(dir, &error));
  REQUIRE(npkit::driver::make_directories(dir, &error));  // already there: fine
  const std::string path = npkit::driver::calls_log_path(dir, 2);
  CHECK(path == dir + "/calls_rank2.csv");
  CHECK(npkit::driver::events_log_path(dir, 0) == dir + "/events_rank0.txt");
  CHECK(npkit::driver::parent_events_path(dir) == dir + "/events_parent.txt");
  // A child writes two lines and dies by SIGKILL: both are in the file.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    npkit::driver::LogFile file;
    std::string child_error;
    if (!file.open(path, &child_error)) _exit(1);
    file.write("first\n");
    file.write("second\n");
    kill(getpid(), SIGKILL);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(read_file(path) == "first\nsecond\n");
  npkit::driver::LogFile closed;
  CHECK_FALSE(closed.is_open());
  CHECK(closed.write("nowhere\n"));  // not open: nothing to do
  CHECK_FALSE(closed.open(dir + "/missing/x.csv", &error));
  CHECK_THAT(error, Catch::Contains("cannot write"));
  CHECK_FALSE(npkit::driver::make_directories(path + "/sub", &error));
}
