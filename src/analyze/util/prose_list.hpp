// util/prose_list.hpp — items joined for a sentence: "a", "a and b", "a, b and c" ("" for none).
#pragma once

#include <string>
#include <vector>

namespace npkit {

std::string prose_list(const std::vector<std::string>& items);

}  // namespace npkit
