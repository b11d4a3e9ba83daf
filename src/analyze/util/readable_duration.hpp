// util/readable_duration.hpp — a duration for a sentence: "12.345 s", "3.200 ms", "45.000 us".
// Contract: three decimals in the largest of s, ms, us that the value reaches (us below 1 ms,
// negative values included).
#pragma once

#include <cstdint>
#include <string>

namespace npkit {

std::string readable_duration(std::int64_t ns);

}  // namespace npkit
