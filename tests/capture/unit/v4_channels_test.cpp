// Which NCCL fills a v4 P2p descriptor's nChannels: NCCL 2.27 drives API v4 natively and sets it;
// NCCL 2.28 and later reach a v4 plugin through src/plugin/profiler/profiler_v4.cc, whose
// descriptor copies every p2p member but nChannels (read in NCCL 2.28.9 and 2.30.7).
#include <catch2/catch.hpp>

#include "nccl_plugin/v4_channels.hpp"

using npkit::capture::v4_p2p_channels_filled;

TEST_CASE("v4 channels: NCCL 2.27 fills p2p.nChannels, 2.28 and later do not", "[capture]") {
  CHECK(v4_p2p_channels_filled("2.27.3"));
  CHECK(v4_p2p_channels_filled("2.27.7"));
  CHECK_FALSE(v4_p2p_channels_filled("2.28.3"));
  CHECK_FALSE(v4_p2p_channels_filled("2.28.9"));
  CHECK_FALSE(v4_p2p_channels_filled("2.29.7"));
  CHECK_FALSE(v4_p2p_channels_filled("2.30.7"));
  CHECK_FALSE(v4_p2p_channels_filled("3.0.0"));
}

TEST_CASE("v4 channels: an unknown NCCL version keeps what the descriptor says", "[capture]") {
  CHECK(v4_p2p_channels_filled(""));
  CHECK(v4_p2p_channels_filled("unknown"));
  CHECK(v4_p2p_channels_filled("2"));
}
