// nccl_plugin/v4_channels.hpp — whether the NCCL that drives profiler API v4 fills a P2p
// descriptor's nChannels.
//
// Contract: v4_p2p_channels_filled(version) is false for a version text ("2.28.9") of NCCL 2.28 or
// later, whose v4 adapter copies every p2p member but nChannels (its descriptor is an
// uninitialised stack object), and true otherwise: NCCL 2.27 drives v4 natively and fills it, and
// a caller whose version is unknown ("", a logger outside libnccl) is taken at its word. Pure.
#pragma once

#include <cstdlib>
#include <string>

namespace npkit::capture {

inline bool v4_p2p_channels_filled(const std::string& version) {
  if (version.empty()) return true;
  char* end = nullptr;
  const long major = std::strtol(version.c_str(), &end, 10);
  if (end == version.c_str() || *end != '.') return true;
  const long minor = std::strtol(end + 1, nullptr, 10);
  return major < 2 || (major == 2 && minor < 28);
}

}  // namespace npkit::capture
