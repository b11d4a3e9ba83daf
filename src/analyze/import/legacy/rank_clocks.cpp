// Reads each rank's clock files; a rank missing a file borrows the value the other ranks agree
// on (with a warning); differing values across ranks are reported but kept per rank.
#include <map>

#include "import/legacy/legacy_dump.hpp"
#include "util/file_io.hpp"

namespace npkit {
namespace {

std::optional<Rational> read_rational(const std::optional<std::string>& path,
                                      const std::string& what, Diagnostics& diagnostics) {
  if (!path) return std::nullopt;
  auto text = io::read_text_file(*path, 256);
  if (!text) {
    diagnostics.warn("bad clock file", text.error().message);
    return std::nullopt;
  }
  auto value = parse_decimal_rational(*text, *path + " (" + what + ")");
  if (!value) {
    diagnostics.warn("bad clock file", value.error().message);
    return std::nullopt;
  }
  return *value;
}

// The value every rank that has one agrees on, if any.
std::optional<Rational> consensus(const std::vector<std::optional<Rational>>& values) {
  std::optional<Rational> agreed;
  for (const auto& v : values) {
    if (!v) continue;
    if (agreed && !(*agreed == *v)) return std::nullopt;
    agreed = v;
  }
  return agreed;
}

}  // namespace

std::vector<RankClocks> read_rank_clocks(const DumpLayout& layout, Diagnostics& diagnostics) {
  const std::size_t n = layout.ranks.size();
  std::vector<std::optional<Rational>> num(n), den(n), khz(n);
  for (std::size_t i = 0; i < n; ++i) {
    const RankFiles& r = layout.ranks[i];
    num[i] = read_rational(r.cpu_period_num_path, "CPU clock period numerator", diagnostics);
    den[i] = read_rational(r.cpu_period_den_path, "CPU clock period denominator", diagnostics);
    khz[i] = read_rational(r.gpu_clock_rate_path, "GPU clock rate in kHz", diagnostics);
    if (num[i] && num[i]->den != 1) num[i].reset();
    if (den[i] && den[i]->den != 1) den[i].reset();
    if (r.has_calibration_files) {
      diagnostics.warn("calibration files",
                       "rank " + std::to_string(r.rank) +
                           " has RCCL 2023 clock_calibration_* files; they are "
                           "not used (CPU times are read as recorded)");
    }
  }
  const auto num_all = consensus(num);
  const auto den_all = consensus(den);
  const auto khz_all = consensus(khz);
  std::vector<RankClocks> clocks(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string rank = "rank " + std::to_string(layout.ranks[i].rank);
    RankClocks& c = clocks[i];
    const auto use_num = num[i] ? num[i] : num_all;
    const auto use_den = den[i] ? den[i] : den_all;
    if (use_num && use_den) {
      c.cpu_tick_seconds = reduced(use_num->num, use_den->num);
      c.cpu_source = "cpu_clock_period files: " + std::to_string(use_num->num) + "/" +
                     std::to_string(use_den->num) + " s per tick";
      if (!num[i] || !den[i]) {
        c.cpu_source += " (borrowed from the other ranks)";
        diagnostics.warn("missing clock file", rank +
                                                   ": cpu_clock_period file missing or bad; "
                                                   "using the other ranks' value");
      }
    } else {
      diagnostics.warn("missing clock file",
                       rank +
                           ": no usable cpu_clock_period files; assuming "
                           "nanosecond ticks (1/1000000000 s, the Linux value)");
    }
    if (khz[i]) {
      c.gpu_khz = khz[i];
      c.gpu_source = "gpu_clock_rate file: " + format_rational(*khz[i]) + " kHz";
    } else if (khz_all) {
      c.gpu_khz = khz_all;
      c.gpu_source =
          "gpu_clock_rate borrowed from the other ranks: " + format_rational(*khz_all) + " kHz";
      diagnostics.warn("missing clock file", rank +
                                                 ": gpu_clock_rate file missing or bad; using the "
                                                 "other ranks' value");
    } else {
      c.gpu_source = "unknown (GPU ticks are reported as if they were nanoseconds)";
      diagnostics.warn("missing clock file", rank +
                                                 ": no usable gpu_clock_rate; GPU durations are "
                                                 "raw ticks, not nanoseconds");
    }
  }
  std::map<std::pair<std::uint64_t, std::uint64_t>, int> distinct;
  for (const auto& k : khz) {
    if (k) distinct[{k->num, k->den}]++;
  }
  if (distinct.size() > 1) {
    diagnostics.warn("differing clock files",
                     layout.dir + ": ranks report " + std::to_string(distinct.size()) +
                         " different GPU clock rates; each rank uses its own");
  }
  return clocks;
}

}  // namespace npkit
