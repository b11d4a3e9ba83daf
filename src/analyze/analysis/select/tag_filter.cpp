#include "analysis/select/tag_filter.hpp"

#include <limits>
#include <utility>
#include <vector>

namespace npkit {

std::uint64_t keep_tagged(Run& run, std::uint64_t tag) {
  constexpr std::size_t kGone = std::numeric_limits<std::size_t>::max();
  std::uint64_t left = 0;
  for (auto& comm : run.comms) {
    std::vector<std::size_t> new_index(comm.instances.size(), kGone);
    std::vector<RunInstance> kept;
    for (std::size_t i = 0; i < comm.instances.size(); ++i) {
      if (comm.instances[i].tag != tag) continue;
      new_index[i] = kept.size();
      kept.push_back(std::move(comm.instances[i]));
    }
    comm.instances = std::move(kept);
    std::vector<InFlightDetail> in_flight;
    for (auto& d : comm.in_flight) {
      if (d.instance >= new_index.size() || new_index[d.instance] == kGone) continue;
      d.instance = new_index[d.instance];
      in_flight.push_back(std::move(d));
    }
    comm.in_flight = std::move(in_flight);
    left += comm.instances.size();
  }
  return left;
}

}  // namespace npkit
