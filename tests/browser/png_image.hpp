// png_image.hpp — TEST-ONLY PNG reading and writing for the browser test (zlib does the
// compression; the PNG container and row filters are done here).
// Contract: read_png accepts 8-bit truecolour PNGs without interlacing (colour types 2 RGB and 6
// RGBA, what Chromium's screenshots are) and returns RGB pixels (alpha dropped); anything else
// is an error string naming what was found. write_png writes 8-bit RGB, one filter per row chosen
// by the usual minimum-sum-of-absolute-differences heuristic, zlib level 9.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npkit::browser {

struct Image {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgb;  // row-major, 3 bytes per pixel

  const std::uint8_t* at(std::uint32_t x, std::uint32_t y) const {
    return rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3;
  }
};

// Returns "" on success, else what is wrong.
std::string read_png(const std::string& path, Image& image);
std::string write_png(const std::string& path, const Image& image);

// The part [x, x + w) × [y, y + h) of `image`, clipped to it.
Image crop(const Image& image, std::uint32_t x, std::uint32_t y, std::uint32_t w, std::uint32_t h);

// Every `factor` × `factor` block averaged into one pixel.
Image downscale(const Image& image, std::uint32_t factor);

}  // namespace npkit::browser
