// The clock64 rate measurement of the device recorder: its arithmetic on hand-made counter values,
// its PTX compiled by ptxas (when the CUDA toolkit is installed), and its answer without a context.
#include <dlfcn.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "device_recorder/cycle_rate.hpp"
#include "support/temp_dir.hpp"

using npkit::capture::CycleRateBlock;
using npkit::capture::cycles_per_second_from;

TEST_CASE("cycle rate: cycles over %globaltimer nanoseconds", "[capture]") {
  // 9,900,000 cycles in 5 ms: 1.98 GHz.
  CHECK(cycles_per_second_from(CycleRateBlock{1'000'000, 50, 9'900'050, 6'000'000}) ==
        1'980'000'000);
  // 1,000,001 cycles in 1,000,000 ns: 1,000,001,000 per second.
  CHECK(cycles_per_second_from(CycleRateBlock{0, 0, 1'000'001, 1'000'000}) == 1'000'001'000);
  CHECK(cycles_per_second_from(CycleRateBlock{5, 0, 100, 5}) == 0);    // timer did not advance
  CHECK(cycles_per_second_from(CycleRateBlock{0, 10, 10, 100}) == 0);  // counter did not advance
}

TEST_CASE("cycle rate ptx: ptxas compiles the kernel for sm_90 and sm_100", "[capture]") {
  const char* ptxas = "/usr/local/cuda/bin/ptxas";
  if (!std::ifstream(ptxas)) {
    WARN("skipped: " << ptxas << " not installed");
    return;
  }
  npkit::test::TempDir dir;
  const std::string ptx = dir.write_file("rate.ptx", npkit::capture::kCycleRatePtx);
  for (const char* arch : {"sm_90", "sm_100"}) {
    const std::string log = dir.file(std::string("ptxas_") + arch + ".log");
    const std::string command = std::string(ptxas) + " -v --gpu-name " + arch + " -o " +
                                dir.file("rate.cubin") + " " + ptx + " > " + log + " 2>&1";
    const int status = std::system(command.c_str());
    std::stringstream output;
    output << std::ifstream(log).rdbuf();
    INFO(arch << ": " << output.str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK_THAT(output.str(), Catch::Contains(std::string("Compiling entry function '") +
                                             npkit::capture::kCycleRateKernelName + "'"));
  }
}

TEST_CASE("cycle rate: without a CUDA context it says why and sets nothing", "[capture]") {
  uint64_t rate = 12345;
  std::string why_not;
  CHECK_FALSE(npkit::capture::measure_cycle_rate(1'000'000, &rate, &why_not));
  CHECK(rate == 12345);
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver != nullptr) {
    dlclose(driver);
    CHECK_THAT(why_not, Catch::Contains("no current CUDA context") ||
                            Catch::Contains("cuCtxGetCurrent failed"));
  } else {
    CHECK_THAT(why_not, Catch::Contains("libcuda.so.1 not loadable"));
  }
}
