// gpu/nccl_version.hpp — NCCL's version code as text.
//
// Contract: nccl_version_text turns what ncclGetVersion reports into "major.minor.patch", undoing
// NCCL's NCCL_VERSION(X, Y, Z) macro: X*10000 + Y*100 + Z from 2.9 on, X*1000 + Y*100 + Z before
// (codes below 10000); "" for a code that is not positive. nccl_version_containing (gpu_clock.hpp)
// is built on it.
#pragma once

#include <string>

namespace npkit::capture {

std::string nccl_version_text(int code);

}  // namespace npkit::capture
