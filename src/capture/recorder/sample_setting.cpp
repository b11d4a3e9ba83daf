#include "recorder/sample_setting.hpp"

#include <cctype>
#include <string_view>

namespace npkit::capture {
namespace {

std::string lower_trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A whole number of at most 12 digits; false for anything else.
bool whole_number(std::string_view digits, uint64_t* value) {
  if (digits.empty() || digits.size() > 12) return false;
  uint64_t out = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<uint64_t>(c - '0');
  }
  *value = out;
  return true;
}

// "<number><unit>" in nanoseconds; false without a known unit or above kMaxPeriodNs.
bool duration_ns(std::string_view text, int64_t* ns) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  uint64_t number = 0;
  if (!whole_number(text.substr(0, digits), &number)) return false;
  const std::string_view unit = text.substr(digits);
  uint64_t scale = 0;
  if (unit == "ns") scale = 1;
  if (unit == "us") scale = 1000;
  if (unit == "ms") scale = 1000000;
  if (unit == "s") scale = 1000000000;
  if (unit == "m") scale = 60ull * 1000000000;
  if (scale == 0 || number > static_cast<uint64_t>(kMaxPeriodNs) / scale) return false;
  *ns = static_cast<int64_t>(number * scale);
  return true;
}

bool parse_every(std::string_view left, std::string_view right, SampleSetting* out) {
  uint64_t one = 0;
  uint64_t every = 0;
  if (!whole_number(left, &one) || one != 1) return false;
  if (!whole_number(right, &every) || every == 0 || every > kMaxEvery) return false;
  out->mode = SampleSetting::Mode::kEvery;
  out->every = every;
  return true;
}

bool parse_window(std::string_view left, std::string_view right, SampleSetting* out) {
  int64_t window = 0;
  int64_t period = 0;
  if (!duration_ns(left, &window) || !duration_ns(right, &period)) return false;
  if (window <= 0 || period <= 0 || window > period) return false;
  out->mode = SampleSetting::Mode::kWindow;
  out->window_ns = window;
  out->period_ns = period;
  return true;
}

}  // namespace

SampleSetting parse_sample_setting(const char* text, std::vector<std::string>* warnings) {
  SampleSetting setting;
  setting.text = "off";
  if (text == nullptr) return setting;
  const std::string value = lower_trimmed(text);
  if (value.empty() || value == "off" || value == "none") return setting;
  const size_t slash = value.find('/');
  SampleSetting parsed;
  const bool ok = slash != std::string::npos &&
                  (parse_every(std::string_view(value).substr(0, slash),
                               std::string_view(value).substr(slash + 1), &parsed) ||
                   parse_window(std::string_view(value).substr(0, slash),
                                std::string_view(value).substr(slash + 1), &parsed));
  if (!ok) {
    warnings->push_back("NPKIT_SAMPLE: '" + std::string(text) +
                        "' is neither 1/N (N a whole number in [1, " + std::to_string(kMaxEvery) +
                        "]) nor T/P (durations with ns, us, ms, s or m, 0 < T <= P <= 1 day, "
                        "e.g. 10ms/10s); sampling off: every operation gets every event group "
                        "of NPKIT_EVENTS");
    return setting;
  }
  parsed.text = value;
  return parsed;
}

}  // namespace npkit::capture
