#include "capture/plugin/scoped_env.hpp"

#include <cstdlib>

namespace npkit::test {
namespace {

void set_or_unset(const std::string& name, const std::optional<std::string>& value) {
  if (value) {
    ::setenv(name.c_str(), value->c_str(), 1);
  } else {
    ::unsetenv(name.c_str());
  }
}

}  // namespace

ScopedEnv::ScopedEnv(std::string name, std::optional<std::string> value) : name_(std::move(name)) {
  if (const char* old = std::getenv(name_.c_str())) previous_ = old;
  set_or_unset(name_, value);
}

ScopedEnv::~ScopedEnv() {
  set_or_unset(name_, previous_);
}

}  // namespace npkit::test
