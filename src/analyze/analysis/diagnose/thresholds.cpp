#include "analysis/diagnose/thresholds.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace npkit {
namespace {

struct Entry {
  const char* name;
  double Thresholds::*field;
  double min;
  double max;
};

constexpr double kNoMax = 1e18;

const std::vector<Entry>& entries() {
  static const std::vector<Entry> e = {
      {"imbalance", &Thresholds::imbalance, 1.0, kNoMax},
      {"imbalance_min_share", &Thresholds::imbalance_min_share, 0.0, 1.0},
      {"straggler_share", &Thresholds::straggler_share, 0.0, 1.0},
      {"straggler_min_margin_ns", &Thresholds::straggler_min_margin_ns, 0.0, kNoMax},
      {"min_instances", &Thresholds::min_instances, 1.0, kNoMax},
      {"net_wait", &Thresholds::net_wait, 0.0, 1.0},
      {"gpu_wait", &Thresholds::gpu_wait, 0.0, 1.0},
      {"small_bytes", &Thresholds::small_bytes, 1.0, kNoMax},
      {"small_time_share", &Thresholds::small_time_share, 0.0, 1.0},
      {"small_busbw", &Thresholds::small_busbw, 0.0, 1.0},
      {"channels_min_bytes", &Thresholds::channels_min_bytes, 1.0, kNoMax},
      {"min_channels", &Thresholds::min_channels, 1.0, 256.0},
      {"channels_busbw", &Thresholds::channels_busbw, 0.0, 1.0},
  };
  return e;
}

std::string name_list() {
  std::string s;
  for (const auto& e : entries()) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

Status set_one(Thresholds& t, std::string_view setting) {
  const auto eq = setting.find('=');
  if (eq == std::string_view::npos) {
    return Error{
        fmt::format("--threshold '{}': expected NAME=VALUE (names: {})", setting, name_list())};
  }
  const std::string_view name = trim(setting.substr(0, eq));
  const std::string_view text = trim(setting.substr(eq + 1));
  for (const auto& e : entries()) {
    if (name != e.name) continue;
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
      return Error{fmt::format("--threshold {}: '{}' is not a number", name, text)};
    }
    if (v < e.min || v > e.max) {
      return Error{fmt::format("--threshold {}: {} is outside [{}, {}]", name, text, e.min, e.max)};
    }
    t.*(e.field) = v;
    return Ok{};
  }
  return Error{fmt::format("--threshold: unknown name '{}' (names: {})", name, name_list())};
}

}  // namespace

Status set_threshold(Thresholds& thresholds, std::string_view setting) {
  while (true) {
    const auto comma = setting.find(',');
    NPKIT_TRY(set_one(thresholds, setting.substr(0, comma)));
    if (comma == std::string_view::npos) return Ok{};
    setting.remove_prefix(comma + 1);
  }
}

Result<Thresholds> parse_thresholds(const std::vector<std::string>& settings, Thresholds base) {
  for (const auto& s : settings) NPKIT_TRY(set_threshold(base, s));
  return base;
}

const std::vector<std::string>& threshold_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& e : entries()) n.push_back(e.name);
    return n;
  }();
  return names;
}

double threshold_value(const Thresholds& thresholds, std::string_view name) {
  for (const auto& e : entries()) {
    if (name == e.name) return thresholds.*(e.field);
  }
  return 0;
}

}  // namespace npkit
