// EventNameTable: the host's names for user event ids (npkit/host.hpp).
#include <algorithm>
#include <cstdio>
#include <utility>

#include "npkit/events.hpp"
#include "npkit/host.hpp"

namespace npkit {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string hex_id(uint16_t id) {
  char text[8];
  std::snprintf(text, sizeof(text), "0x%04X", id);
  return text;
}

// "" when `name` fits `kind`, else why not.
std::string kind_mismatch(format::EventKind kind, const std::string& name) {
  const bool entry = ends_with(name, "_ENTRY");
  const bool exit = ends_with(name, "_EXIT");
  switch (kind) {
    case format::kEventEntry:
      return entry ? "" : "an ENTRY event's name must end in _ENTRY";
    case format::kEventExit:
      return exit ? "" : "an EXIT event's name must end in _EXIT";
    case format::kEventInstant:
      return entry || exit ? "an instant event's name must not end in _ENTRY or _EXIT" : "";
  }
  return "unknown event kind " + std::to_string(static_cast<uint32_t>(kind));
}

}  // namespace

// "" when the table may take this entry, else why not.
std::string EventNameTable::refusal(uint16_t id, format::EventKind kind, const std::string& name,
                                    const std::string& phase) const {
  const std::string what = "event " + hex_id(id) + " '" + name + "': ";
  if (id < events::kFirstUserEventId || id > events::kLastUserEventId) {
    return what + "user event ids are " + hex_id(events::kFirstUserEventId) + ".." +
           hex_id(events::kLastUserEventId);
  }
  if (name.empty()) return what + "empty name";
  if (const std::string why = kind_mismatch(kind, name); !why.empty()) return what + why;
  const Entry* known = find(id);
  if (known != nullptr && (known->kind != kind || known->name != name || known->phase != phase)) {
    return what + "already named '" + known->name + "'";
  }
  return "";
}

void EventNameTable::insert(uint16_t id, format::EventKind kind, const std::string& name,
                            const std::string& phase) {
  auto at = std::lower_bound(entries_.begin(), entries_.end(), id,
                             [](const Entry& entry, uint16_t key) { return entry.id < key; });
  if (at != entries_.end() && at->id == id) return;  // the same entry again
  entries_.insert(at, Entry{id, kind, name, phase});
}

bool EventNameTable::add(uint16_t id, format::EventKind kind, const std::string& name,
                         const std::string& phase, std::string* error) {
  if (std::string why = refusal(id, kind, name, phase); !why.empty()) {
    *error = std::move(why);
    return false;
  }
  insert(id, kind, name, phase);
  return true;
}

bool EventNameTable::add_pair(uint16_t entry_id, uint16_t exit_id, const std::string& name,
                              const std::string& phase, std::string* error) {
  const std::string entry_name = name + "_ENTRY";
  const std::string exit_name = name + "_EXIT";
  std::string why = entry_id == exit_id ? "event " + hex_id(entry_id) + " '" + name +
                                              "': ENTRY and EXIT need two ids"
                                        : refusal(entry_id, format::kEventEntry, entry_name, phase);
  if (why.empty()) why = refusal(exit_id, format::kEventExit, exit_name, phase);
  if (!why.empty()) {
    *error = std::move(why);
    return false;
  }
  insert(entry_id, format::kEventEntry, entry_name, phase);
  insert(exit_id, format::kEventExit, exit_name, phase);
  return true;
}

const EventNameTable::Entry* EventNameTable::find(uint16_t id) const {
  auto at = std::lower_bound(entries_.begin(), entries_.end(), id,
                             [](const Entry& entry, uint16_t key) { return entry.id < key; });
  return at != entries_.end() && at->id == id ? &*at : nullptr;
}

}  // namespace npkit
