#include "device_recorder/dump_event_names.hpp"

#include <cstdio>
#include <vector>

#include "npkit/events.hpp"

namespace npkit::capture {

std::vector<EventName> event_names_for_dump(const EventNameTable* table,
                                            const std::vector<const CapturedStream*>& streams,
                                            uint32_t* unnamed) {
  std::vector<bool> occurs(1u << 16, false);
  for (const CapturedStream* stream : streams) {
    for (const format::EventRecord& record : stream->records) occurs[record.id] = true;
  }
  if (table != nullptr) {
    for (const EventNameTable::Entry& entry : table->entries()) occurs[entry.id] = true;
  }
  std::vector<EventName> names;
  uint32_t generated = 0;
  for (uint32_t id = 0; id < occurs.size(); ++id) {
    if (!occurs[id]) continue;
    const uint16_t key = static_cast<uint16_t>(id);
    if (const EventNameTable::Entry* entry = table ? table->find(key) : nullptr) {
      names.push_back({key, entry->kind, entry->name, entry->phase});
    } else if (const events::NcclEvent* nccl = events::find_nccl_event(key)) {
      names.push_back({key, nccl->kind, nccl->name, nccl->phase});
    } else {
      char name[16];
      std::snprintf(name, sizeof(name), "UNNAMED_0x%04X", id);
      names.push_back({key, format::kEventInstant, name, ""});
      ++generated;
    }
  }
  if (unnamed != nullptr) *unnamed = generated;
  return names;
}

}  // namespace npkit::capture
