// import/chrome_json/event_name_book.hpp — event names met in a JSON trace, as the base-name
// indices and phases the span analyses use.
// Contract: starts from an event table (a built-in one, so that base and phase numbering — and
// with it the order of report rows — is the binary reader's for the same table) with its phases
// assigned by the phase map exactly as assign_phases does. A name the table lacks is defined at a
// free id and its phase assigned by the same rules, appended: the indices already handed out never
// change, so the table and phases can be shared by reference with sinks while names keep coming.
// base_of accepts generator names (NPKIT_EVENT_X_ENTRY / _EXIT) and bare base names (X, as our
// traces write them). When all 256 ids are taken, base_of returns std::nullopt.
// Every phase any rule can give is named from the start (those the table's own names use first,
// in assign_phases' order; the others after them), so the phase list never grows: sinks that size
// per-phase tables when they first meet a rank stay valid. phase_of returns the id of a phase
// name, or std::nullopt for a name no rule gives.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "run/event_table.hpp"
#include "run/phase_map.hpp"

namespace npkit {

class EventNameBook {
 public:
  EventNameBook(EventTable table, PhaseMap map);
  EventNameBook(const EventNameBook&) = delete;
  EventNameBook& operator=(const EventNameBook&) = delete;

  std::optional<std::uint16_t> base_of(std::string_view name);
  std::optional<std::uint16_t> phase_of(std::string_view phase_name) const;

  const EventTable& table() const { return table_; }
  const PhaseAssignment& phases() const { return phases_; }
  bool collective_level(std::uint16_t base) const {
    return base < phases_.collective_of_base.size() &&
           phases_.collective_of_base[base] != kNoCollective;
  }
  std::uint64_t names_added() const { return added_; }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  void assign(std::uint16_t base);

  EventTable table_;
  PhaseMap map_;
  PhaseAssignment phases_;
  std::unordered_map<std::string, std::uint16_t, Hash, std::equal_to<>> bases_;
  unsigned next_free_id_ = 0;
  std::uint64_t added_ = 0;
};

}  // namespace npkit
