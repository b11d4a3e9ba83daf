#include "run/track.hpp"

namespace npkit {

std::string describe_track(const TrackRef& t) {
  return "rank " + std::to_string(t.rank) +
         (t.kind == TrackKind::kGpu ? " gpu buffer " : " cpu channel ") + std::to_string(t.index);
}

}  // namespace npkit
