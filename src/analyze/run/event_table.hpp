// event_table.hpp — NPKit event-id tables: id → name, ENTRY/EXIT/instant kind, pairing base.
// Contract: a table maps all 256 ids. Ids the table does not define read as "UNKNOWN_0xNN"
// instants (never a crash). Names follow the generator's convention: `NPKIT_EVENT_<BASE>_ENTRY`,
// `..._EXIT`, or another name for an instant; pairing uses the base name only, never id parity.
// Built-in tables cover every documented variant (docs/formats.md); a table can also be parsed
// from an `npkit_event.h` header exactly as NPKit's generators parse it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/diagnostics.hpp"
#include "util/result.hpp"

namespace npkit {

enum class EventKind : std::uint8_t { kEntry, kExit, kInstant };

enum class SyncRole : std::uint8_t { kNone, kGpuTimeSync, kCpuTimeSync };

struct EventName {
  std::string full;        // e.g. NPKIT_EVENT_ALL_REDUCE_RING_ENTRY
  std::uint16_t base = 0;  // index into EventTable::base_names()
  EventKind kind = EventKind::kInstant;
  SyncRole sync = SyncRole::kNone;
  bool defined = false;
};

class EventTable {
 public:
  // A table with every id undefined.
  explicit EventTable(std::string label = "empty");

  // Defines `id` as `full_name` (kind, base and sync role derived from the name).
  void define(std::uint8_t id, std::string_view full_name);
  // Defines `id` as NPKIT_EVENT_<base>_ENTRY and `id + 1` as NPKIT_EVENT_<base>_EXIT.
  void define_pair(std::uint8_t entry_id, std::string_view base);

  const EventName& operator[](std::uint8_t id) const { return ids_[id]; }
  const std::vector<std::string>& base_names() const { return bases_; }
  const std::string& label() const { return label_; }
  std::size_t defined_count() const;

 private:
  std::uint16_t intern_base(std::string_view base);

  std::string label_;
  std::array<EventName, 256> ids_;
  std::vector<std::string> bases_;
};

// Names of the built-in tables, in the order `--event-table` documents them.
const std::vector<std::string>& builtin_event_table_names();

// The built-in table called `name` (see builtin_event_table_names()).
Result<EventTable> builtin_event_table(std::string_view name);

// Parses the text of an npkit_event.h: lines `#define NPKIT_EVENT_<NAME> <value>` with exactly
// three fields and a value in C/Python base-auto syntax (0x.., 0X.., decimal). Other lines are
// skipped as the official generator skips them. MSCCL++'s EXECUTOR_OP_BASE_ENTRY/EXIT are
// expanded into one name per executor operation. `source` names the file in messages.
Result<EventTable> parse_event_header(std::string_view text, const std::string& source,
                                      Diagnostics& diagnostics);

// `--event-table SPEC`: a path (it holds '/' or ".h") is read and parsed as an npkit_event.h,
// anything else names a built-in table.
Result<EventTable> load_event_table(const std::string& spec, Diagnostics& diagnostics);

// Strips NPKIT_EVENT_ and _ENTRY/_EXIT from a full event name.
std::string event_base_name(std::string_view full_name);

}  // namespace npkit
