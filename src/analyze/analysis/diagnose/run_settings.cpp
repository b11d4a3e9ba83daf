#include "analysis/diagnose/run_settings.hpp"

#include <algorithm>

#include "util/lower_case.hpp"

namespace npkit {

std::size_t RunSettings::distinct(std::string_view name) const {
  const auto it = env_.find(std::string(name));
  return it == env_.end() ? 0 : it->second.size();
}

std::string RunSettings::value(std::string_view name) const {
  const auto it = env_.find(std::string(name));
  if (it == env_.end()) return "";
  std::string joined;
  for (const auto& v : it->second) {
    if (!joined.empty()) joined += '|';
    joined += v;
  }
  return joined;
}

bool RunSettings::equals(std::string_view name, std::string_view expected) const {
  const auto it = env_.find(std::string(name));
  if (it == env_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](const std::string& v) { return lower_case(v) == lower_case(expected); });
}

bool RunSettings::contains(std::string_view name, std::string_view part) const {
  const auto it = env_.find(std::string(name));
  if (it == env_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const std::string& v) {
    return lower_case(v).find(lower_case(part)) != std::string::npos;
  });
}

std::string RunSettings::in_force(std::string_view name) const {
  const std::string v = value(name);
  return v.empty() ? "" : std::string(name) + "=" + v;
}

std::vector<std::pair<std::string, std::string>> RunSettings::values(
    std::initializer_list<std::string_view> names) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto name : names) out.emplace_back(std::string(name), value(name));
  return out;
}

}  // namespace npkit
