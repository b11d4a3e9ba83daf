// identify_current_gpu and sample_gpu_clock on a thread with no CUDA context: on a machine without
// the driver they must say that libcuda is missing; with the driver, that no context is current.
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <string>

#include "gpu/gpu_clock.hpp"

namespace {

bool driver_present() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) return false;
  dlclose(driver);
  return true;
}

}  // namespace

TEST_CASE("gpu identity: false with a reason, output untouched, without a context", "[gpu]") {
  npkit::capture::GpuIdentity identity;
  identity.name = "unchanged";
  std::string why_not;
  CHECK_FALSE(npkit::capture::identify_current_gpu(&identity, &why_not));
  if (driver_present()) {
    CHECK_THAT(why_not, Catch::Contains("no current CUDA context") ||
                            Catch::Contains("cuCtxGetCurrent failed"));
  } else {
    CHECK_THAT(why_not, Catch::Contains("libcuda.so.1 not loadable"));
  }
  CHECK(identity.name == "unchanged");
  CHECK(identity.cuda_device == -1);
  CHECK_FALSE(npkit::capture::identify_current_gpu(&identity, nullptr));
}

TEST_CASE("gpu clock sample: false with a reason, output untouched, without a context", "[gpu]") {
  npkit::format::ClockSample sample{};
  sample.gpu_ns = 12345;
  std::string why_not;
  CHECK_FALSE(npkit::capture::sample_gpu_clock(npkit::format::kSampleAtInit, &sample, &why_not));
  if (driver_present()) {
    CHECK_THAT(why_not, Catch::Contains("no current CUDA context") ||
                            Catch::Contains("cuCtxGetCurrent failed"));
  } else {
    CHECK_THAT(why_not, Catch::Contains("libcuda.so.1 not loadable"));
  }
  CHECK(sample.gpu_ns == 12345);
  CHECK(sample.host_before_ns == 0);
  CHECK_FALSE(npkit::capture::sample_gpu_clock(npkit::format::kSampleAtEnd, &sample, nullptr));
}
