// util/lower_case.hpp — ASCII lower case, for names compared without regard to case
// ("AllReduce" = "allreduce"); bytes outside A-Z are kept as they are.
#pragma once

#include <string>
#include <string_view>

namespace npkit {

std::string lower_case(std::string_view s);

}  // namespace npkit
