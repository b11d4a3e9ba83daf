// reloadable_plugin.hpp — a private copy of the built plugin that a test opens and closes again,
// as NCCL does between communicator generations (dlopen at the first communicator's init, dlclose
// after the last one's finalize).
//
// Contract:
// - The constructor copies NPKIT_PLUGIN_PATH into `dir` (a path no other test opens, so the copy
//   has process-wide state of its own); nothing is opened yet.
// - open() dlopens the copy (RTLD_NOW | RTLD_LOCAL) and resolves the three symbols; the returned
//   library stays valid until close(). `error` in it says what failed.
// - close() dlcloses it (0 on success, as dlclose). The destructor closes a library left open.
#pragma once

#include <string>

#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {

class ReloadablePlugin {
 public:
  explicit ReloadablePlugin(const std::string& dir);
  ~ReloadablePlugin();
  ReloadablePlugin(const ReloadablePlugin&) = delete;
  ReloadablePlugin& operator=(const ReloadablePlugin&) = delete;

  const PluginLibrary& open();
  int close();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string copy_error_;
  PluginLibrary lib_;
};

}  // namespace npkit::test
