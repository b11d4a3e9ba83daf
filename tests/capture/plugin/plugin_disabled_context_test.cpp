// An init that cannot work (dump directory not creatable) leaves NCCL a NULL context and success;
// every later call with that context or its NULL handles is harmless and nothing is written
// (NCCL profiler reference 1.4; docs/capture.md "Never blocks, never takes the job down").
#include <catch2/catch.hpp>

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"
#include "capture/plugin/dump_files.hpp"
#include "capture/plugin/plugin_library.hpp"
#include "capture/plugin/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

TEST_CASE("plugin: dump directory under a regular file disables the communicator, harmlessly",
          "[plugin]") {
  const PluginLibrary& lib = require_plugin();
  TempDir dir;
  dir.write_file("regular_file", "not a directory");
  ScopedEnv dump_dir("NPKIT_DUMP_DIR", dir.file("regular_file/dumps"));
  LogCapture log;

  void* context = nullptr;  // NCCL's comm->profilerContext starts NULL
  int mask = 0;
  CHECK(lib.v5->init(&context, 0x7e57000000000301ull, &mask, "disabled", 1, 2, 0, capture_log) ==
        abi::kSuccess);
  CHECK(context == nullptr);
  INFO(log.dump());
  CHECK(log.count(abi::kLogWarn) >= 1);

  // NCCL keeps calling with the NULL context (reference 1.4).
  abi::EventDescrV5 group_api = group_api_descr(1, false);
  void* handle = reinterpret_cast<void*>(0x1);
  CHECK(lib.v5->startEvent(context, &handle, &group_api) == abi::kSuccess);
  CHECK(handle == nullptr);
  abi::EventDescrV5 kernel = kernel_ch_descr(nullptr, 0, 42);
  void* kernel_handle = reinterpret_cast<void*>(0x1);
  CHECK(lib.v5->startEvent(context, &kernel_handle, &kernel) == abi::kSuccess);
  CHECK(kernel_handle == nullptr);
  // NetPlugin stop/update reach the plugin even for NULL handles (reference 2.3).
  abi::StateArgs args = net_data_args(nullptr);
  CHECK(lib.v5->recordEventState(nullptr, static_cast<abi::EventState>(21), &args) ==
        abi::kSuccess);
  CHECK(lib.v5->stopEvent(nullptr) == abi::kSuccess);
  CHECK(lib.v5->finalize(context) == abi::kSuccess);
  lib.flush();

  CHECK(entries_in(dir.path()) == std::vector<std::string>{"regular_file"});
}

}  // namespace
}  // namespace npkit::test
