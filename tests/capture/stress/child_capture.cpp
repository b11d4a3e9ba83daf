#include "capture/stress/child_capture.hpp"

#include "capture/plugin/captured_log.hpp"
#include "capture/plugin/comm_driver.hpp"

namespace npkit::test {

void* open_communicator(const PluginLibrary& lib, std::uint64_t hash, const std::string& name,
                        ChildReport& report) {
  void* context = nullptr;
  int mask = 0;
  if (lib.v5->init(&context, hash, &mask, name.c_str(), 1, 1, 0, capture_log) != abi::kSuccess ||
      context == nullptr) {
    report.fail("init gave no context");
    return nullptr;
  }
  return context;
}

bool record_pairs(const PluginLibrary& lib, void* context, int pairs, ChildReport& report) {
  for (int i = 0; i < pairs; ++i) {
    abi::EventDescrV5 d = kernel_ch_descr(nullptr, static_cast<uint8_t>(i % 32), 1000 + i);
    void* handle = nullptr;
    if (lib.v5->startEvent(context, &handle, &d) != abi::kSuccess || handle == nullptr ||
        lib.v5->stopEvent(handle) != abi::kSuccess) {
      report.fail("event " + std::to_string(i) + " failed");
      return false;
    }
  }
  return true;
}

}  // namespace npkit::test
