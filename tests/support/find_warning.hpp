// find_warning.hpp — the warning group of a category, for assertions on Diagnostics.
// Contract: nullptr when no warning of that category was recorded.
#pragma once

#include <string_view>

#include "util/diagnostics.hpp"

namespace npkit::test {

inline const WarningGroup* find_warning(const Diagnostics& d, std::string_view category) {
  for (const auto& g : d.warnings()) {
    if (g.category == category) return &g;
  }
  return nullptr;
}

}  // namespace npkit::test
