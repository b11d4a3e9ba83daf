#include "import/chrome_json/event_name_book.hpp"

namespace npkit {

EventNameBook::EventNameBook(EventTable table, PhaseMap map)
    : table_(std::move(table)), map_(std::move(map)) {
  phases_ = assign_phases(map_, table_);
  for (const auto& rule : map_.rules()) {
    if (rule.phase != "inherit" && !phase_of(rule.phase)) phases_.phase_names.push_back(rule.phase);
  }
  const auto& names = table_.base_names();
  for (std::size_t b = 0; b < names.size(); ++b) {
    bases_.emplace(names[b], static_cast<std::uint16_t>(b));
  }
}

std::optional<std::uint16_t> EventNameBook::base_of(std::string_view name) {
  if (auto it = bases_.find(name); it != bases_.end()) return it->second;
  const std::string base = event_base_name(name);
  if (auto it = bases_.find(base); it != bases_.end()) {
    bases_.emplace(std::string(name), it->second);
    return it->second;
  }
  while (next_free_id_ < 256 && table_[static_cast<std::uint8_t>(next_free_id_)].defined) {
    ++next_free_id_;
  }
  if (next_free_id_ >= 256) return std::nullopt;
  table_.define(static_cast<std::uint8_t>(next_free_id_++), "NPKIT_EVENT_" + base + "_ENTRY");
  const auto index = static_cast<std::uint16_t>(table_.base_names().size() - 1);
  assign(index);
  bases_.emplace(base, index);
  if (base != name) bases_.emplace(std::string(name), index);
  ++added_;
  return index;
}

std::optional<std::uint16_t> EventNameBook::phase_of(std::string_view phase_name) const {
  for (std::size_t i = 0; i < phases_.phase_names.size(); ++i) {
    if (phases_.phase_names[i] == phase_name) return static_cast<std::uint16_t>(i);
  }
  return std::nullopt;
}

// assign_phases for one new base: the first matching rule (its phase is named already); its
// collective appended if new.
void EventNameBook::assign(std::uint16_t base) {
  phases_.phase_of_base.resize(base + 1, kInheritPhase);
  phases_.collective_of_base.resize(base + 1, kNoCollective);
  const std::string& name = table_.base_names()[base];
  for (const auto& rule : map_.rules()) {
    if (!glob_match(rule.pattern, name)) continue;
    phases_.phase_of_base[base] =
        rule.phase == "inherit" ? kInheritPhase : phase_of(rule.phase).value_or(kInheritPhase);
    if (!rule.func.empty()) {
      std::int32_t idx = kNoCollective;
      for (std::size_t c = 0; c < phases_.collectives.size(); ++c) {
        if (phases_.collectives[c].func == rule.func && phases_.collectives[c].algo == rule.algo) {
          idx = static_cast<std::int32_t>(c);
        }
      }
      if (idx == kNoCollective) {
        phases_.collectives.push_back({rule.func, rule.algo});
        idx = static_cast<std::int32_t>(phases_.collectives.size() - 1);
      }
      phases_.collective_of_base[base] = idx;
    }
    return;
  }
}

}  // namespace npkit
