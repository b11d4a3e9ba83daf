// util/utc_time.hpp — a Unix-epoch time in ns as calendar text.
// Contract: utc_seconds gives "YYYY-MM-DD HH:MM:SS" (UTC) of the whole second holding `ns`;
// callers append the fraction they want.
#pragma once

#include <cstdint>
#include <string>

namespace npkit {

std::string utc_seconds(std::int64_t ns);

}  // namespace npkit
