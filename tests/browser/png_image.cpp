#include "png_image.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace npkit::browser {
namespace {

constexpr std::array<std::uint8_t, 8> kSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         p[3];
}

void put32(std::string& out, std::uint32_t v) {
  out += static_cast<char>(v >> 24);
  out += static_cast<char>(v >> 16);
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v);
}

int paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a);
  const int pb = std::abs(p - b);
  const int pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// Reverses (decode) or applies (encode) one row filter; `prev` is the previous raw row (zeros
// for the first), `bpp` bytes per pixel.
std::uint8_t predictor(int filter, const std::uint8_t* row, const std::uint8_t* prev, std::size_t i,
                       std::size_t bpp) {
  const int a = i >= bpp ? row[i - bpp] : 0;
  const int b = prev[i];
  const int c = i >= bpp ? prev[i - bpp] : 0;
  switch (filter) {
    case 1:
      return static_cast<std::uint8_t>(a);
    case 2:
      return static_cast<std::uint8_t>(b);
    case 3:
      return static_cast<std::uint8_t>((a + b) / 2);
    case 4:
      return static_cast<std::uint8_t>(paeth(a, b, c));
    default:
      return 0;
  }
}

}  // namespace

std::string read_png(const std::string& path, Image& image) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot open " + path;
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  if (bytes.size() < 8 || !std::equal(kSignature.begin(), kSignature.end(), bytes.begin())) {
    return path + ": not a PNG file";
  }
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::size_t channels = 0;
  std::vector<std::uint8_t> idat;
  for (std::size_t pos = 8; pos + 12 <= bytes.size();) {
    const std::uint32_t len = be32(&bytes[pos]);
    if (pos + 12 + len > bytes.size()) return path + ": truncated chunk";
    const std::string type(reinterpret_cast<const char*>(&bytes[pos + 4]), 4);
    const std::uint8_t* data = &bytes[pos + 8];
    if (type == "IHDR") {
      width = be32(data);
      height = be32(data + 4);
      const int depth = data[8];
      const int colour = data[9];
      const int interlace = data[12];
      if (depth != 8 || (colour != 2 && colour != 6) || interlace != 0) {
        return path + ": unsupported PNG (depth " + std::to_string(depth) + ", colour type " +
               std::to_string(colour) + ", interlace " + std::to_string(interlace) + ")";
      }
      channels = colour == 2 ? 3 : 4;
    } else if (type == "IDAT") {
      idat.insert(idat.end(), data, data + len);
    } else if (type == "IEND") {
      break;
    }
    pos += 12 + len;
  }
  if (channels == 0 || width == 0 || height == 0) return path + ": no image header";
  const std::size_t stride = width * channels;
  std::vector<std::uint8_t> raw((stride + 1) * height);
  uLongf raw_size = static_cast<uLongf>(raw.size());
  if (uncompress(raw.data(), &raw_size, idat.data(), static_cast<uLong>(idat.size())) != Z_OK ||
      raw_size != raw.size()) {
    return path + ": image data does not inflate to " + std::to_string(raw.size()) + " bytes";
  }
  std::vector<std::uint8_t> prev(stride, 0);
  std::vector<std::uint8_t> row(stride);
  image.width = width;
  image.height = height;
  image.rgb.assign(static_cast<std::size_t>(width) * height * 3, 0);
  for (std::uint32_t y = 0; y < height; ++y) {
    const std::uint8_t* src = &raw[y * (stride + 1)];
    const int filter = src[0];
    if (filter > 4) return path + ": bad row filter " + std::to_string(filter);
    for (std::size_t i = 0; i < stride; ++i) {
      row[i] = static_cast<std::uint8_t>(src[1 + i] +
                                         predictor(filter, row.data(), prev.data(), i, channels));
    }
    for (std::uint32_t x = 0; x < width; ++x) {
      std::copy_n(&row[x * channels], 3, &image.rgb[(static_cast<std::size_t>(y) * width + x) * 3]);
    }
    prev.swap(row);
  }
  return "";
}

std::string write_png(const std::string& path, const Image& image) {
  const std::size_t stride = static_cast<std::size_t>(image.width) * 3;
  std::vector<std::uint8_t> filtered;
  filtered.reserve((stride + 1) * image.height);
  std::vector<std::uint8_t> zero(stride, 0);
  std::vector<std::uint8_t> candidate(stride);
  std::vector<std::uint8_t> best(stride);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::uint8_t* row = image.rgb.data() + y * stride;
    const std::uint8_t* prev = y == 0 ? zero.data() : row - stride;
    long best_cost = -1;
    int best_filter = 0;
    for (int f = 0; f <= 4; ++f) {
      long cost = 0;
      for (std::size_t i = 0; i < stride; ++i) {
        candidate[i] = static_cast<std::uint8_t>(row[i] - predictor(f, row, prev, i, 3));
        cost += std::abs(static_cast<std::int8_t>(candidate[i]));
      }
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best_filter = f;
        best.swap(candidate);
      }
    }
    filtered.push_back(static_cast<std::uint8_t>(best_filter));
    filtered.insert(filtered.end(), best.begin(), best.end());
  }
  uLongf packed_size = compressBound(static_cast<uLong>(filtered.size()));
  std::vector<std::uint8_t> packed(packed_size);
  if (compress2(packed.data(), &packed_size, filtered.data(), static_cast<uLong>(filtered.size()),
                9) != Z_OK) {
    return "cannot compress the image";
  }
  std::string out(reinterpret_cast<const char*>(kSignature.data()), kSignature.size());
  auto chunk = [&out](const char* type, const std::string& data) {
    put32(out, static_cast<std::uint32_t>(data.size()));
    const std::string body = std::string(type, 4) + data;
    out += body;
    put32(out, static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(body.data()),
                                                static_cast<uInt>(body.size()))));
  };
  std::string ihdr;
  put32(ihdr, image.width);
  put32(ihdr, image.height);
  ihdr += std::string{'\x08', '\x02', '\0', '\0', '\0'};
  chunk("IHDR", ihdr);
  chunk("IDAT", std::string(reinterpret_cast<const char*>(packed.data()), packed_size));
  chunk("IEND", "");
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << out;
  return f ? "" : "cannot write " + path;
}

Image crop(const Image& image, std::uint32_t x, std::uint32_t y, std::uint32_t w, std::uint32_t h) {
  Image out;
  x = std::min(x, image.width);
  y = std::min(y, image.height);
  out.width = std::min(w, image.width - x);
  out.height = std::min(h, image.height - y);
  out.rgb.resize(static_cast<std::size_t>(out.width) * out.height * 3);
  for (std::uint32_t r = 0; r < out.height; ++r) {
    std::copy_n(image.at(x, y + r), static_cast<std::size_t>(out.width) * 3,
                &out.rgb[static_cast<std::size_t>(r) * out.width * 3]);
  }
  return out;
}

Image downscale(const Image& image, std::uint32_t factor) {
  if (factor <= 1) return image;
  Image out;
  out.width = image.width / factor;
  out.height = image.height / factor;
  out.rgb.resize(static_cast<std::size_t>(out.width) * out.height * 3);
  for (std::uint32_t y = 0; y < out.height; ++y) {
    for (std::uint32_t x = 0; x < out.width; ++x) {
      for (int c = 0; c < 3; ++c) {
        unsigned sum = 0;
        for (std::uint32_t dy = 0; dy < factor; ++dy) {
          for (std::uint32_t dx = 0; dx < factor; ++dx) {
            sum += image.at(x * factor + dx, y * factor + dy)[c];
          }
        }
        out.rgb[(static_cast<std::size_t>(y) * out.width + x) * 3 + c] =
            static_cast<std::uint8_t>(sum / (factor * factor));
      }
    }
  }
  return out;
}

}  // namespace npkit::browser
