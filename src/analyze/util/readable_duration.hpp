// util/readable_duration.hpp — a duration as a person reads it: "12.35 s", "3.200 ms", "45.00 us",
// "512 ns".
// Contract: four significant digits in the largest of s, ms and us that the value reaches after
// rounding (999.96 us reads "1.000 ms"; values of 1000 s and more keep one decimal), whole
// nanoseconds below 1 us;
// negative values take the unit of their magnitude; 0 reads "0 us".
#pragma once

#include <cstdint>
#include <string>

namespace npkit {

std::string readable_duration(double ns);
std::string readable_duration(std::int64_t ns);

}  // namespace npkit
