#include "util/diagnostics.hpp"

namespace npkit {

WarningGroup& Diagnostics::group(std::string_view category) {
  for (auto& g : groups_) {
    if (g.category == category) return g;
  }
  groups_.push_back(WarningGroup{std::string(category), 0, {}});
  return groups_.back();
}

void Diagnostics::warn(std::string_view category, std::string message, std::uint64_t count) {
  WarningGroup& g = group(category);
  g.count += count;
  if (g.examples.size() < kExamplesPerCategory) g.examples.push_back(std::move(message));
}

std::uint64_t Diagnostics::total() const {
  std::uint64_t n = 0;
  for (const auto& g : groups_) n += g.count;
  return n;
}

void Diagnostics::merge(const Diagnostics& other) {
  for (const auto& o : other.groups_) {
    WarningGroup& g = group(o.category);
    g.count += o.count;
    for (const auto& e : o.examples) {
      if (g.examples.size() < kExamplesPerCategory) g.examples.push_back(e);
    }
  }
}

}  // namespace npkit
