#include "capture/stress/reloadable_plugin.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

namespace npkit::test {

ReloadablePlugin::ReloadablePlugin(const std::string& dir) {
  namespace fs = std::filesystem;
  path_ = (fs::path(dir) / fs::path(NPKIT_PLUGIN_PATH).filename()).string();
  std::error_code ec;
  fs::copy_file(NPKIT_PLUGIN_PATH, path_, ec);
  if (ec) copy_error_ = "copy to " + path_ + ": " + ec.message();
}

ReloadablePlugin::~ReloadablePlugin() {
  close();
}

const PluginLibrary& ReloadablePlugin::open() {
  close();
  lib_ = PluginLibrary{};
  if (!copy_error_.empty()) {
    lib_.error = copy_error_;
    return lib_;
  }
  lib_.handle = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib_.handle == nullptr) {
    lib_.error = "dlopen " + path_ + ": " + ::dlerror();
    return lib_;
  }
  auto symbol = [&](const char* name) -> void* {
    void* address = ::dlsym(lib_.handle, name);
    if (address == nullptr) lib_.error += std::string("dlsym ") + name + " failed. ";
    return address;
  };
  lib_.v5 = static_cast<const abi::ProfilerV5*>(symbol("ncclProfiler_v5"));
  lib_.v4 = static_cast<const abi::ProfilerV4*>(symbol("ncclProfiler_v4"));
  lib_.flush = reinterpret_cast<abi::FlushFunction>(symbol("npkitProfilerFlush"));
  return lib_;
}

int ReloadablePlugin::close() {
  if (lib_.handle == nullptr) return 0;
  const int result = ::dlclose(lib_.handle);
  lib_ = PluginLibrary{};
  return result;
}

}  // namespace npkit::test
