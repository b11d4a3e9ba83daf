// diagnostics.hpp — counted warnings collected while reading and analysing a dump.
// Contract: a warning is recorded under a short category key; the first few messages of each
// category are kept verbatim (file, record, what happened) and the rest are only counted, so a
// dump with millions of bad records costs constant memory. Order of first appearance is kept.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npkit {

struct WarningGroup {
  std::string category;
  std::uint64_t count = 0;
  std::vector<std::string> examples;
};

class Diagnostics {
 public:
  static constexpr std::size_t kExamplesPerCategory = 3;

  void warn(std::string_view category, std::string message, std::uint64_t count = 1);
  const std::vector<WarningGroup>& warnings() const { return groups_; }
  std::uint64_t total() const;
  void merge(const Diagnostics& other);

 private:
  WarningGroup& group(std::string_view category);
  std::vector<WarningGroup> groups_;
};

}  // namespace npkit
