// analysis/diagnose/run_settings.hpp — the NCCL_* settings a run was made with, as the findings'
// advice reads them, so that advice never recommends a setting already in force.
// Contract: built from the run's environment (RunConfig::env: what the capture recorded, an
// ENV.txt beside the dump, --env). A variable is "in force" when it has a value there; values
// that differ across files or nodes read as "a|b". `values` gives each named variable with its
// value ("" when not set): a finding lists the settings its advice read.
#pragma once

#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npkit {

class RunSettings {
 public:
  RunSettings() = default;
  explicit RunSettings(std::map<std::string, std::set<std::string>> env) : env_(std::move(env)) {}

  // The variable's value ("a|b" for several), "" when not set.
  std::string value(std::string_view name) const;
  // Whether any of the variable's values equals `expected` (ASCII case-insensitive).
  bool equals(std::string_view name, std::string_view expected) const;
  // Whether any of the variable's values contains `part` (ASCII case-insensitive).
  bool contains(std::string_view name, std::string_view part) const;
  // How many different values the variable has across the ranks (0: not set).
  std::size_t distinct(std::string_view name) const;
  // "NAME=value" when the variable is set, else "".
  std::string in_force(std::string_view name) const;
  // Each variable with its value, in the order given.
  std::vector<std::pair<std::string, std::string>> values(
      std::initializer_list<std::string_view> names) const;

 private:
  std::map<std::string, std::set<std::string>> env_;
};

}  // namespace npkit
