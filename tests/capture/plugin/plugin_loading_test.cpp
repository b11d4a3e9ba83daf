// The built plugin opened as NCCL opens it (dlopen RTLD_NOW | RTLD_LOCAL, dlsym of data symbols).
#include <dlfcn.h>

#include <cstring>

#include <catch2/catch.hpp>

#include "capture/plugin/nccl_abi_for_tests.hpp"
#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {
namespace {

TEST_CASE("plugin: dlopen and dlsym of ncclProfiler_v5, ncclProfiler_v4, npkitProfilerFlush",
          "[plugin]") {
  void* handle = ::dlopen(NPKIT_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  INFO(NPKIT_PLUGIN_PATH << ": " << (handle == nullptr ? ::dlerror() : "opened"));
  REQUIRE(handle != nullptr);

  const auto* v5 = static_cast<const abi::ProfilerV5*>(::dlsym(handle, "ncclProfiler_v5"));
  const auto* v4 = static_cast<const abi::ProfilerV4*>(::dlsym(handle, "ncclProfiler_v4"));
  void* flush = ::dlsym(handle, "npkitProfilerFlush");
  REQUIRE(v5 != nullptr);
  REQUIRE(v4 != nullptr);
  CHECK(flush != nullptr);

  for (const char* name : {v5->name, v4->name}) {
    REQUIRE(name != nullptr);
    CHECK(std::strlen(name) > 0);
  }
  CHECK(v5->init != nullptr);
  CHECK(v5->startEvent != nullptr);
  CHECK(v5->stopEvent != nullptr);
  CHECK(v5->recordEventState != nullptr);
  CHECK(v5->finalize != nullptr);
  CHECK(v4->init != nullptr);
  CHECK(v4->startEvent != nullptr);
  CHECK(v4->stopEvent != nullptr);
  CHECK(v4->recordEventState != nullptr);
  CHECK(v4->finalize != nullptr);

  // A second dlopen of the same path yields the same objects (NCCL re-opens the library for each
  // communicator generation).
  const PluginLibrary& shared = require_plugin();
  CHECK(shared.v5 == v5);
  CHECK(shared.v4 == v4);
  CHECK(::dlclose(handle) == 0);
}

}  // namespace
}  // namespace npkit::test
