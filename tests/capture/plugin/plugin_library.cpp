#include "capture/plugin/plugin_library.hpp"

#include <dlfcn.h>

#include <filesystem>

#include <catch2/catch.hpp>

namespace npkit::test {
namespace {

PluginLibrary open_plugin(const std::string& path) {
  PluginLibrary lib;
  lib.handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib.handle == nullptr) {
    lib.error = "dlopen " + path + ": " + ::dlerror();
    return lib;
  }
  auto symbol = [&](const char* name) -> void* {
    void* address = ::dlsym(lib.handle, name);
    if (address == nullptr) lib.error += std::string("dlsym ") + name + " failed. ";
    return address;
  };
  lib.v7 = static_cast<const abi::ProfilerV7*>(symbol("ncclProfiler_v7"));
  lib.v6 = static_cast<const abi::ProfilerV6*>(symbol("ncclProfiler_v6"));
  lib.v5 = static_cast<const abi::ProfilerV5*>(symbol("ncclProfiler_v5"));
  lib.v4 = static_cast<const abi::ProfilerV4*>(symbol("ncclProfiler_v4"));
  lib.flush = reinterpret_cast<abi::FlushFunction>(symbol("npkitProfilerFlush"));
  return lib;
}

}  // namespace

const PluginLibrary& plugin_library() {
  static const PluginLibrary lib = open_plugin(NPKIT_PLUGIN_PATH);
  return lib;
}

PluginLibrary open_plugin_copy(const std::string& dir) {
  const std::filesystem::path copy =
      std::filesystem::path(dir) / std::filesystem::path(NPKIT_PLUGIN_PATH).filename();
  std::error_code ec;
  std::filesystem::copy_file(NPKIT_PLUGIN_PATH, copy, ec);
  if (ec) {
    PluginLibrary lib;
    lib.error = "copy to " + copy.string() + ": " + ec.message();
    return lib;
  }
  return open_plugin(copy.string());
}

const PluginLibrary& require_plugin() {
  const PluginLibrary& lib = plugin_library();
  INFO(lib.error);
  REQUIRE(lib.error.empty());
  REQUIRE(lib.v7 != nullptr);
  REQUIRE(lib.v6 != nullptr);
  REQUIRE(lib.v5 != nullptr);
  REQUIRE(lib.v4 != nullptr);
  REQUIRE(lib.flush != nullptr);
  return lib;
}

}  // namespace npkit::test
