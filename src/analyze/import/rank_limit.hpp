// import/rank_limit.hpp — the largest communicator the readers take (docs/formats.md, "Limits").
// Contract: every rank and communicator size read from a file is checked against kMaxRanks before
// anything is sized by it: a communicator has at most kMaxRanks ranks (2^20, far above the
// largest NCCL job), so a rank read from a file lies in [0, kMaxRanks). A file claiming more is an
// error naming the file and the field, never an allocation of its size.
#pragma once

#include <cstdint>

namespace npkit {

inline constexpr std::int32_t kMaxRanks = 1 << 20;

}  // namespace npkit
