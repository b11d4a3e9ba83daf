// analysis/select/tag_filter.hpp — narrows a run to the collective instances of one user tag
// (NCCL 2.31's ncclCollConfig_t userProfilerTag: run/run.hpp RunInstance::tag), for
// `bandwidth --tag`.
// Contract: keep_tagged removes from every communicator of `run` the instances whose tag is not
// `tag` (0 keeps the untagged ones), keeping the others in order; in_flight entries follow their
// instance (re-indexed) or go with it. Returns how many instances are left. Nothing else changes.
#pragma once

#include <cstdint>

#include "run/run.hpp"

namespace npkit {

std::uint64_t keep_tagged(Run& run, std::uint64_t tag);

}  // namespace npkit
