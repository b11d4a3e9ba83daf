#include "recorder/capture_settings.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>

namespace npkit::capture {
namespace {

struct EventGroup {
  const char* word;
  uint64_t mask;
};

constexpr EventGroup kGroups[] = {
    {"api", kEventGroupApi | kEventCollApi | kEventP2pApi | kEventKernelLaunch},
    {"coll", kEventGroup | kEventColl | kEventP2p},
    {"kernel", kEventKernelCh},
    {"proxy", kEventProxyOp | kEventProxyStep},
    {"ctrl", kEventProxyCtrl},
    {"net", kEventNetPlugin},
    {"ce", kCeEvents},
    {"phase", kEventKernelPhase},
};

std::string_view trimmed(std::string_view word) {
  while (!word.empty() && std::isspace(static_cast<unsigned char>(word.front()))) {
    word.remove_prefix(1);
  }
  while (!word.empty() && std::isspace(static_cast<unsigned char>(word.back()))) {
    word.remove_suffix(1);
  }
  return word;
}

std::string lower_trimmed(std::string_view word) {
  std::string out(trimmed(word));
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Mask of one word; false for a word that names no group.
bool group_mask(const std::string& word, uint64_t* mask) {
  if (word == "all") {
    *mask = kAllEvents;
    return true;
  }
  for (const EventGroup& group : kGroups) {
    if (word == group.word) {
      *mask = group.mask;
      return true;
    }
  }
  return false;
}

// "api, coll, ..., all": every word NPKIT_EVENTS knows.
std::string known_groups() {
  std::string out;
  for (const EventGroup& group : kGroups) out += std::string(group.word) + ", ";
  return out + "all";
}

std::string describe_groups(uint64_t mask) {
  std::string out;
  for (const EventGroup& group : kGroups) {
    if ((mask & group.mask) == 0) continue;
    if (!out.empty()) out += ',';
    out += group.word;
  }
  return out;
}

void parse_events(const char* text, CaptureSettings* settings) {
  if (text == nullptr || lower_trimmed(text).empty()) {
    settings->event_mask = kAllEvents;
    return;
  }
  uint64_t mask = 0;
  std::string_view rest(text);
  while (true) {
    const size_t comma = rest.find(',');
    const std::string word = lower_trimmed(rest.substr(0, comma));
    uint64_t word_mask = 0;
    if (group_mask(word, &word_mask)) {
      mask |= word_mask;
    } else if (!word.empty()) {
      settings->warnings.push_back("NPKIT_EVENTS: ignoring unknown event group '" + word +
                                   "' (known: " + known_groups() + ")");
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (mask == 0) {
    settings->warnings.push_back("NPKIT_EVENTS: '" + std::string(text) +
                                 "' names no known event group; capturing all");
    mask = kAllEvents;
  }
  settings->event_mask = mask;
}

void parse_buffer_size(const char* text, CaptureSettings* settings) {
  if (text == nullptr || *text == '\0') return;
  const std::string trimmed = lower_trimmed(text);
  bool valid = !trimmed.empty() && trimmed.size() <= 8;
  uint64_t value = 0;
  for (char c : trimmed) {
    if (c < '0' || c > '9') {
      valid = false;
      break;
    }
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!valid || value == 0 || value > kMaxBufferSizeMb) {
    settings->warnings.push_back(
        "NPKIT_BUFFER_SIZE_MB: '" + std::string(text) + "' is not a whole number of MiB in [1, " +
        std::to_string(kMaxBufferSizeMb) + "]; using " + std::to_string(kDefaultBufferSizeMb));
    return;
  }
  settings->buffer_size_mb = value;
}

void parse_live_file(const char* text, CaptureSettings* settings) {
  if (text == nullptr || *text == '\0') return;
  const std::string value = lower_trimmed(text);
  if (value == "0" || value == "off" || value == "no" || value == "false") {
    settings->live_file = false;
  } else if (value != "1" && value != "on" && value != "yes" && value != "true") {
    settings->warnings.push_back("NPKIT_LIVE_FILE: '" + std::string(text) +
                                 "' is not 1/on/yes/true or 0/off/no/false; using 1");
  }
}

void parse_chain_plugin(const char* text, CaptureSettings* settings) {
  if (text == nullptr) return;
  const std::string_view value = trimmed(text);
  if (value.empty() || lower_trimmed(value) == "none") return;
  const bool has_control = std::any_of(value.begin(), value.end(), [](char c) {
    return std::iscntrl(static_cast<unsigned char>(c)) != 0;
  });
  if (has_control || value.size() > kMaxChainPluginPath) {
    const std::string why =
        has_control ? "holds a control character"
                    : "is longer than " + std::to_string(kMaxChainPluginPath) + " characters";
    settings->warnings.push_back("NPKIT_CHAIN_PLUGIN: the value " + why + "; no plugin is chained");
    return;
  }
  settings->chain_plugin = std::string(value);
}

}  // namespace

CaptureSettings parse_capture_settings(const char* events, const char* buffer_size_mb,
                                       const char* dump_dir, const char* live_file,
                                       const char* chain_plugin) {
  CaptureSettings settings;
  parse_events(events, &settings);
  settings.events = describe_groups(settings.event_mask);
  parse_buffer_size(buffer_size_mb, &settings);
  settings.buffer_records = settings.buffer_size_mb * kRecordsPerMb;
  if (dump_dir != nullptr && *dump_dir != '\0') settings.dump_dir = dump_dir;
  parse_live_file(live_file, &settings);
  parse_chain_plugin(chain_plugin, &settings);
  return settings;
}

CaptureSettings read_capture_settings_from_environment() {
  CaptureSettings settings =
      parse_capture_settings(std::getenv("NPKIT_EVENTS"), std::getenv("NPKIT_BUFFER_SIZE_MB"),
                             std::getenv("NPKIT_DUMP_DIR"), std::getenv("NPKIT_LIVE_FILE"),
                             std::getenv("NPKIT_CHAIN_PLUGIN"));
  settings.sample = parse_sample_setting(std::getenv("NPKIT_SAMPLE"), &settings.warnings);
  return settings;
}

}  // namespace npkit::capture
