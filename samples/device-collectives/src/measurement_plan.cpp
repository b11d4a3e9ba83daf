#include "measurement_plan.hpp"

namespace device_collectives {

std::vector<PlannedMeasurement> plan_measurements(const Options& options, int nranks) {
  std::vector<PlannedMeasurement> plan;
  if (options.allreduce) {
    for (uint64_t size : options.sizes) plan.push_back({"allreduce", size, size / 4, size / 16});
  }
  if (options.alltoall) {
    for (uint64_t size : options.sizes) {
      const uint64_t per_peer4 = size / (16 * static_cast<uint64_t>(nranks));
      if (per_peer4 == 0) continue;
      plan.push_back({"alltoall", per_peer4 * 16 * nranks, per_peer4 * 4, per_peer4});
    }
  }
  return plan;
}

}  // namespace device_collectives
