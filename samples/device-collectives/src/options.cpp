#include "options.hpp"

#include <cstdlib>
#include <set>

namespace device_collectives {
namespace {

bool parse_bytes(const std::string& text, uint64_t* out) {
  if (text.empty()) return false;
  size_t digits = 0;
  uint64_t value = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    if (value > (~0ull - 9) / 10) return false;
    value = value * 10 + static_cast<uint64_t>(text[digits] - '0');
    ++digits;
  }
  if (digits == 0) return false;
  const std::string suffix = text.substr(digits);
  int shift = 0;
  if (suffix == "K" || suffix == "k") {
    shift = 10;
  } else if (suffix == "M" || suffix == "m") {
    shift = 20;
  } else if (suffix == "G" || suffix == "g") {
    shift = 30;
  } else if (!suffix.empty()) {
    return false;
  }
  if (value > (~0ull >> shift)) return false;
  *out = value << shift;
  return true;
}

bool parse_int(const std::string& text, int low, int high, int* out) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < low || value > high) return false;
  *out = static_cast<int>(value);
  return true;
}

// "allreduce", "alltoall" or both, comma-separated.
bool parse_colls(const std::string& text, Options* out) {
  out->allreduce = false;
  out->alltoall = false;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string word = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (word == "allreduce") {
      out->allreduce = true;
    } else if (word == "alltoall") {
      out->alltoall = true;
    } else {
      return false;
    }
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

}  // namespace

bool parse_sizes(const std::string& text, std::vector<uint64_t>* sizes, std::string* error) {
  std::set<uint64_t> found;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    const size_t dots = item.find("..");
    uint64_t low = 0;
    uint64_t high = 0;
    const bool parsed =
        dots == std::string::npos
            ? parse_bytes(item, &low) && parse_bytes(item, &high)
            : parse_bytes(item.substr(0, dots), &low) && parse_bytes(item.substr(dots + 2), &high);
    if (!parsed || low == 0 || high < low) {
      *error = "--sizes: '" + item + "' is not a size or a range A..B of sizes (e.g. 64K,1M..256M)";
      return false;
    }
    for (uint64_t size = low; size <= high; size *= 2) {
      if (size % 16 != 0) {
        *error = "--sizes: " + std::to_string(size) + " bytes is not a multiple of 16";
        return false;
      }
      found.insert(size);
      if (size > high / 2) break;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  sizes->assign(found.begin(), found.end());
  return true;
}

bool parse_options(int argc, const char* const* argv, Options* out, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "--help" || option == "-h") {
      out->help = true;
      return true;
    }
    if (i + 1 >= argc) {
      *error = option + ": unknown option or missing value";
      return false;
    }
    const std::string value = argv[++i];
    bool ok = true;
    if (option == "--sizes") {
      if (!parse_sizes(value, &out->sizes, error)) return false;
    } else if (option == "--colls") {
      ok = parse_colls(value, out);
    } else if (option == "--iters") {
      ok = parse_int(value, 1, 1'000'000, &out->iters);
    } else if (option == "--warmup") {
      ok = parse_int(value, 0, 1'000'000, &out->warmup);
    } else if (option == "--gpus") {
      ok = parse_int(value, 2, 64, &out->gpus);
    } else if (option == "--blocks") {
      ok = parse_int(value, 1, 1024, &out->blocks);
    } else if (option == "--threads") {
      ok = parse_int(value, 32, 1024, &out->threads) && out->threads % 32 == 0;
    } else if (option == "--timeout-s") {
      char* end = nullptr;
      out->timeout_s = std::strtod(value.c_str(), &end);
      ok = *end == '\0' && out->timeout_s > 0 && out->timeout_s <= 3600;
    } else if (option == "--dump-dir") {
      out->dump_dir = value;
    } else if (option == "--csv") {
      out->csv = value;
    } else {
      *error = option + ": unknown option";
      return false;
    }
    if (!ok) {
      *error = option + ": bad value '" + value + "'";
      return false;
    }
  }
  return true;
}

std::string usage_text(const char* program) {
  return std::string("usage: ") + program +
         " [--sizes LIST] [--colls allreduce,alltoall] [--iters N] [--warmup N] [--gpus N]\n"
         "          [--blocks N] [--threads N] [--timeout-s S] [--dump-dir DIR] [--csv FILE]\n"
         "  --sizes      bytes per rank: a comma list of sizes and A..B ranges (doubling), K/M/G\n"
         "               suffixes, multiples of 16 (default 64K,1M,16M,256M)\n"
         "  --colls      collectives to run (default allreduce,alltoall)\n"
         "  --iters      timed launches per size (default 20); --warmup untimed ones (default 2)\n"
         "  --gpus       ranks, one per GPU, at least 2 (default: every visible GPU)\n"
         "  --blocks     blocks per kernel (default 32); --threads per block (default 512)\n"
         "  --timeout-s  a kernel waiting longer than this for a peer gives up (default 20)\n"
         "  --dump-dir   write each rank's event dump (.npkt) there (instrumented build only)\n"
         "  --csv        write the results table as CSV\n";
}

}  // namespace device_collectives
