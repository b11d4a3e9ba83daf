// plugin_env.hpp — the environment one plugin test runs under: a fresh dump directory and the
// plugin's settings (read by the plugin at every init).
// Contract: NPKIT_DUMP_DIR points at a new temporary directory (removed afterwards); NPKIT_EVENTS
// and NPKIT_BUFFER_SIZE_MB are set to the given values or unset (plugin defaults); everything is
// restored when the object goes away.
#pragma once

#include <optional>
#include <string>

#include "capture/plugin/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {

struct PluginEnv {
  explicit PluginEnv(std::optional<std::string> events = std::nullopt,
                     std::optional<std::string> buffer_size_mb = std::nullopt)
      : dump_dir_env("NPKIT_DUMP_DIR", dir.path()),
        events_env("NPKIT_EVENTS", std::move(events)),
        buffer_env("NPKIT_BUFFER_SIZE_MB", std::move(buffer_size_mb)) {}

  std::string file(const std::string& name) const { return dir.file(name); }

  TempDir dir;
  ScopedEnv dump_dir_env;
  ScopedEnv events_env;
  ScopedEnv buffer_env;
};

}  // namespace npkit::test
