// scoped_env.hpp — sets (or unsets) one environment variable for the lifetime of an object.
// Contract: the constructor applies the value (std::nullopt = unset); the destructor restores the
// value the variable had before (or unsets it). Not thread-safe, like setenv itself: use it on the
// test's main thread while no plugin call runs.
#pragma once

#include <optional>
#include <string>

namespace npkit::test {

class ScopedEnv {
 public:
  ScopedEnv(std::string name, std::optional<std::string> value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> previous_;
};

}  // namespace npkit::test
