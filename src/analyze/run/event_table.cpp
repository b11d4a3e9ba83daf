#include "run/event_table.hpp"

#include <cstdio>

namespace npkit {
namespace {

constexpr std::string_view kPrefix = "NPKIT_EVENT_";
constexpr std::string_view kEntrySuffix = "_ENTRY";
constexpr std::string_view kExitSuffix = "_EXIT";

std::string unknown_name(std::uint8_t id) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "UNKNOWN_0x%02X", static_cast<unsigned>(id));
  return buf;
}

}  // namespace

std::string event_base_name(std::string_view full) {
  if (full.substr(0, kPrefix.size()) == kPrefix) full.remove_prefix(kPrefix.size());
  if (full.ends_with(kEntrySuffix)) {
    full.remove_suffix(kEntrySuffix.size());
  } else if (full.ends_with(kExitSuffix)) {
    full.remove_suffix(kExitSuffix.size());
  }
  return std::string(full);
}

EventTable::EventTable(std::string label) : label_(std::move(label)) {
  // Every id starts as its own "UNKNOWN_0xNN" instant; the names are distinct, so base i is id i
  // (no interning search: 256 searches over equal-length names were most of a table's cost).
  bases_.reserve(ids_.size());
  for (std::size_t id = 0; id < ids_.size(); ++id) {
    EventName& e = ids_[id];
    e.full = unknown_name(static_cast<std::uint8_t>(id));
    e.base = static_cast<std::uint16_t>(id);
    e.kind = EventKind::kInstant;
    e.sync = SyncRole::kNone;
    e.defined = false;
    bases_.push_back(e.full);
  }
}

std::uint16_t EventTable::intern_base(std::string_view base) {
  for (std::size_t i = 0; i < bases_.size(); ++i) {
    if (bases_[i] == base) return static_cast<std::uint16_t>(i);
  }
  bases_.emplace_back(base);
  return static_cast<std::uint16_t>(bases_.size() - 1);
}

void EventTable::define(std::uint8_t id, std::string_view full_name) {
  EventName& e = ids_[id];
  e.full = std::string(full_name);
  std::string base = event_base_name(full_name);
  e.base = intern_base(base);
  if (full_name.ends_with(kEntrySuffix)) {
    e.kind = EventKind::kEntry;
  } else if (full_name.ends_with(kExitSuffix)) {
    e.kind = EventKind::kExit;
  } else {
    e.kind = EventKind::kInstant;
  }
  e.sync = SyncRole::kNone;
  if (base == "TIME_SYNC_GPU") e.sync = SyncRole::kGpuTimeSync;
  if (base == "TIME_SYNC_CPU") e.sync = SyncRole::kCpuTimeSync;
  e.defined = true;
}

void EventTable::define_pair(std::uint8_t entry_id, std::string_view base) {
  std::string b(kPrefix);
  b += base;
  define(entry_id, b + std::string(kEntrySuffix));
  define(static_cast<std::uint8_t>(entry_id + 1), b + std::string(kExitSuffix));
}

std::size_t EventTable::defined_count() const {
  std::size_t n = 0;
  for (const auto& e : ids_) n += e.defined ? 1 : 0;
  return n;
}

}  // namespace npkit
