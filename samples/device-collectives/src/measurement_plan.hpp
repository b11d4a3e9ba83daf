// measurement_plan.hpp — which (collective, size) measurements a run makes, and the element
// counts of each, in nccl-tests' size conventions (report.hpp).
//
// Contract: plan_measurements() lists, for all-reduce then all-to-all (each if selected), every
// size of options.sizes ascending. All-reduce of size S: S / 16 float4 (S is a multiple of 16).
// All-to-all: per-peer float4 = floor(S / (16 n)), and S is reported as that times 16 n; a size too
// small to give every peer one float4 is left out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"

namespace device_collectives {

struct PlannedMeasurement {
  std::string coll;     // "allreduce" or "alltoall"
  uint64_t size_bytes;  // S as reported
  uint64_t count;       // floats: whole buffer (all-reduce) or per peer (all-to-all)
  uint64_t elements4;   // float4: whole buffer (all-reduce) or per peer (all-to-all)
};

std::vector<PlannedMeasurement> plan_measurements(const Options& options, int nranks);

}  // namespace device_collectives
