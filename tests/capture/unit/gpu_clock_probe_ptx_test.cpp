// The clock probe's PTX is only compiled by the driver at run time; here ptxas (from the CUDA
// toolkit, when installed) compiles it for the GPUs the project runs on, so a PTX error shows
// up without a GPU.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gpu/clock_probe_kernel.hpp"
#include "support/temp_dir.hpp"

namespace {

constexpr const char* kPtxas = "/usr/local/cuda/bin/ptxas";

}  // namespace

TEST_CASE("clock probe ptx: ptxas compiles the kernel for sm_90 and sm_100", "[gpu]") {
  if (!std::ifstream(kPtxas)) {
    WARN("skipped: " << kPtxas << " not installed");
    return;
  }
  npkit::test::TempDir dir;
  const std::string ptx = dir.write_file("probe.ptx", npkit::capture::kClockProbePtx);
  for (const char* arch : {"sm_90", "sm_100"}) {
    const std::string log = dir.file(std::string("ptxas_") + arch + ".log");
    const std::string command = std::string(kPtxas) + " -v --gpu-name " + arch + " -o " +
                                dir.file("probe.cubin") + " " + ptx + " > " + log + " 2>&1";
    const int status = std::system(command.c_str());
    std::stringstream output;
    output << std::ifstream(log).rdbuf();
    INFO(arch << ": " << output.str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK_THAT(output.str(), Catch::Contains(std::string("Compiling entry function '") +
                                             npkit::capture::kClockProbeKernelName + "'"));
  }
}
