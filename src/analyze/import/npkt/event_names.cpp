#include "import/npkt/event_names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace npkit {
namespace {

bool strip_suffix(std::string& name, std::string_view suffix) {
  if (name.size() <= suffix.size() ||
      std::string_view(name).substr(name.size() - suffix.size()) != suffix) {
    return false;
  }
  name.resize(name.size() - suffix.size());
  return true;
}

EventKind kind_of(format::EventKind kind) {
  switch (kind) {
    case format::kEventEntry:
      return EventKind::kEntry;
    case format::kEventExit:
      return EventKind::kExit;
    default:
      return EventKind::kInstant;
  }
}

}  // namespace

std::string event_id_hex(std::uint16_t id) {
  return fmt::format("0x{:04X}", id);
}

std::uint16_t EventNameSet::intern(const std::string& base) {
  for (std::size_t b = 0; b < bases_.size(); ++b) {
    if (bases_[b] == base) return static_cast<std::uint16_t>(b);
  }
  bases_.push_back(base);
  hints_.emplace_back();
  return static_cast<std::uint16_t>(bases_.size() - 1);
}

std::size_t EventNameSet::add_file(const NpktDump& dump, Diagnostics& diagnostics) {
  std::vector<EventIdName> ids;
  for (const auto& n : dump.event_names) {
    const EventKind kind = kind_of(n.kind);
    std::string base = n.name;
    if (kind == EventKind::kEntry || kind == EventKind::kExit) {
      const std::string_view suffix = kind == EventKind::kEntry ? "_ENTRY" : "_EXIT";
      if (!strip_suffix(base, suffix)) {
        diagnostics.warn("event name suffix",
                         fmt::format("{}: id {} is an {} named \"{}\" (no {} suffix); it pairs "
                                     "under its whole name",
                                     dump.path, event_id_hex(n.id),
                                     kind == EventKind::kEntry ? "ENTRY" : "EXIT", n.name, suffix));
      }
    }
    const std::uint16_t b = intern(base);
    if (!n.phase.empty()) {
      if (hints_[b].empty()) {
        hints_[b] = n.phase;
      } else if (hints_[b] != n.phase) {
        diagnostics.warn("phase hint conflict",
                         fmt::format("{}: {} carries the phase hint \"{}\", but \"{}\" was given "
                                     "for {} first; \"{}\" is used",
                                     dump.path, n.name, n.phase, hints_[b], base, hints_[b]));
      }
    }
    ids.push_back(EventIdName{n.id, n.name, b, kind});
  }
  std::sort(ids.begin(), ids.end(),
            [](const EventIdName& a, const EventIdName& b) { return a.id < b.id; });
  files_.push_back(std::move(ids));
  return files_.size() - 1;
}

const EventIdName* EventNameSet::find(std::size_t file, std::uint16_t id) const {
  const auto& ids = files_[file];
  const auto it = std::lower_bound(ids.begin(), ids.end(), id,
                                   [](const EventIdName& e, std::uint16_t v) { return e.id < v; });
  return it != ids.end() && it->id == id ? &*it : nullptr;
}

std::string EventNameSet::full_name(std::size_t file, std::uint16_t id) const {
  const EventIdName* e = find(file, id);
  return e == nullptr ? "UNNAMED_" + event_id_hex(id) : e->name;
}

}  // namespace npkit
