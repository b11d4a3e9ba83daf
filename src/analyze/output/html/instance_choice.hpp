// output/html/instance_choice.hpp — which joined collective instance the report's timeline shows.
// Contract:
// - An instance's window is the earliest start to the latest end over its ranks (each on its own
//   rank's clock, as the cross-rank input holds them); an instance without ranks has none.
// - choose_instance: `requested` (an index into `instances`) when given — an Error naming the
//   valid range when it is out of range or has no ranks — else the instance of median window
//   length (the lower median; the lowest index among equal lengths). An Error when no instance
//   has ranks.
// - describe_choice: the sentence the timeline's note starts with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run/cross_rank_input.hpp"
#include "util/result.hpp"

namespace npkit::html {

struct InstanceWindow {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

std::optional<InstanceWindow> window_of(const JoinedInstance& instance);

Result<std::size_t> choose_instance(const std::vector<JoinedInstance>& instances,
                                    std::optional<std::uint64_t> requested);

std::string describe_choice(const JoinedInstance& instance, std::size_t index, std::size_t count,
                            bool chosen_by_user);

}  // namespace npkit::html
